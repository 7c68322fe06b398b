import type { Merchant } from "../core/types.js";
import { ApiError } from "../errors.js";
import { secretsEqual } from "../ingest/merchants.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";

/** Keys already checked, so the hot path skips two hashes per request. Bounded: keys are few. */
const verifiedKeysByStore = new PerStore<string, Merchant>();
const MAX_VERIFIED_KEYS = 10_000;

/** Issued keys are 35 characters; anything this long is no key, and never reaches a store lookup. */
const MAX_KEY_LENGTH = 128;

/** The merchant a public API key belongs to; the stored key is re-checked in constant time. */
export function merchantForKey(store: Store, key: string | undefined): Merchant {
  if (key === undefined || key.length > MAX_KEY_LENGTH) throw new ApiError("invalid_key");
  const verifiedKeys = verifiedKeysByStore.of(store);
  const known = verifiedKeys.get(key);
  if (known) return known;
  const id = store.catalogue.merchantIdByKey(key);
  const merchant = id === undefined ? undefined : store.catalogue.merchant(id);
  if (!merchant || !secretsEqual(key, merchant.api_key)) throw new ApiError("invalid_key");
  if (verifiedKeys.size >= MAX_VERIFIED_KEYS) verifiedKeys.clear();
  verifiedKeys.set(key, merchant);
  return merchant;
}

/** A merchant record changed (its limits): keys checked before must be looked up again. */
export function forgetVerifiedKeys(store: Store): void {
  verifiedKeysByStore.of(store).clear();
}

/** The request headers requireAdmin reads: routes that call it declare them. */
export const ADMIN_AUTH_HEADERS: readonly string[] = ["authorization"];

export function requireAdmin(headers: Record<string, string>, adminToken: string): void {
  const header = headers.authorization ?? "";
  const token = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
  if (token === "" || !secretsEqual(token, adminToken)) throw new ApiError("unauthorized");
}
