import type { MerchantId } from "../core/types.js";

/** Keys of the main environment's tables: the merchant first, so each merchant's entries are one range. */
export type Key = [MerchantId, ...(string | number)[]];

/** Every key of one merchant. */
export function merchantRange(merchant: MerchantId): { start: Key; end: Key } {
  // Array keys sort element by element; appending a character above every
  // string or number bounds exactly this merchant's keys.
  return { start: [merchant], end: [merchant, "\uffff"] };
}
