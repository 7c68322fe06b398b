import type { Merchant } from "../core/types.js";
import { ApiError } from "../errors.js";
import { secretsEqual } from "../ingest/merchants.js";
import type { Store } from "../stores/store.js";

/** The merchant a public API key belongs to; the stored key is re-checked in constant time. */
export function merchantForKey(store: Store, key: string | undefined): Merchant {
  const id = key ? store.merchantIdByKey(key) : undefined;
  const merchant = id === undefined ? undefined : store.merchant(id);
  if (!merchant || !secretsEqual(key ?? "", merchant.api_key)) throw new ApiError("invalid_key");
  return merchant;
}

export function requireAdmin(headers: Record<string, string>, adminToken: string): void {
  const header = headers.authorization ?? "";
  const token = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
  if (token === "" || !secretsEqual(token, adminToken)) throw new ApiError("unauthorized");
}
