import { combineNeighbours } from "../core/recs/copurchase.js";
import { rankByScore } from "../core/recs/sales.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

/** Products bought together with the inputs, best first; the inputs themselves never appear. */
export function boughtTogether(store: Store, merchant: MerchantId, inputs: readonly number[]): number[] {
  const lists = inputs.flatMap((id) => store.copurchaseNeighbours(merchant, id) ?? []);
  return rankByScore(combineNeighbours(lists, new Set(inputs)));
}
