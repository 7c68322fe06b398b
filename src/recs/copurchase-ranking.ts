import { combineNeighbours } from "../core/recs/copurchase.js";
import { rankByScore } from "../core/recs/sales.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

/** Scores of products bought together with the inputs; the inputs themselves are left out. */
export function boughtTogetherScores(store: Store, merchant: MerchantId, inputs: readonly number[]): Map<number, number> {
  const lists = inputs.flatMap((id) => store.orders.copurchaseNeighbours(merchant, id) ?? []);
  return combineNeighbours(lists, new Set(inputs));
}

/** Products bought together with the inputs, best first. */
export function boughtTogether(store: Store, merchant: MerchantId, inputs: readonly number[]): number[] {
  return rankByScore(boughtTogetherScores(store, merchant, inputs));
}
