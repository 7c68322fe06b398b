import type { MerchantId } from "../core/types.js";

/** Keys of the main environment's tables: the merchant first, so each merchant's entries are one range. */
export type Key = [MerchantId, ...(string | number)[]];

/** Every key that starts with `prefix` (a merchant, or a merchant and more). */
export function prefixRange(...prefix: Key): { start: Key; end: Key } {
  // Array keys sort element by element; appending a character above every
  // string or number bounds exactly the keys that start with the prefix.
  return { start: prefix, end: [...prefix, "\uffff"] };
}

/** Every key of one merchant. */
export function merchantRange(merchant: MerchantId): { start: Key; end: Key } {
  return prefixRange(merchant);
}
