import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { normaliseMerchant } from "../core/ingest/records.js";
import { formatTimestamp } from "../core/timestamps.js";
import type { Merchant } from "../core/types.js";
import type { Store } from "../stores/store.js";

/** 192 random bits: keys must not be guessable, and 160 bits is the floor this service holds itself to. */
export function newApiKey(): string {
  return `pk_${randomBytes(24).toString("base64url")}`;
}

export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** A merchant from its fields as given (an InvalidInput names a bad one), with its keys drawn now. */
export function newMerchant(input: unknown): Merchant {
  const fields = normaliseMerchant(input);
  return {
    ...fields,
    api_key: newApiKey(),
    webhook_secret: newSecret(),
    created_at: formatTimestamp(new Date()),
  };
}

export async function createMerchant(store: Store, input: unknown): Promise<Merchant> {
  const merchant = newMerchant(input);
  await store.catalogue.createMerchant(merchant);
  return merchant;
}

/** Equal-length digests make the comparison constant-time whatever the input length. */
export function secretsEqual(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
