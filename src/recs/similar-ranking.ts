import { combineNeighbours } from "../core/recs/copurchase.js";
import { rankByScore } from "../core/recs/sales.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

/** Whether the merchant has a trained similar-products model to answer from. */
export function hasSimilarModel(store: Store, merchant: MerchantId): boolean {
  return store.similar.manifest(merchant) !== undefined;
}

/**
 * Products closest to the inputs in the embedding space, best first: each
 * input's stored neighbour list, cosine similarities summed over inputs.
 */
export function similarTo(store: Store, merchant: MerchantId, inputs: readonly number[]): number[] {
  const lists = inputs.flatMap((id) => store.similar.neighboursOf(merchant, id) ?? []);
  return rankByScore(combineNeighbours(lists, new Set(inputs)));
}
