import { nearestByStarter } from "../core/embedding/starter.js";
import { combineNeighbours } from "../core/recs/copurchase.js";
import { rankByScore } from "../core/recs/sales.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

/** Whether the merchant has a trained similar-products model to answer from. */
export function hasSimilarModel(store: Store, merchant: MerchantId): boolean {
  return store.similar.manifest(merchant) !== undefined;
}

/** As many products as a trained model lists per product. */
const STARTER_NEIGHBOURS = 50;

/**
 * Products most like the inputs by their starter vectors (every shop has them,
 * from its first product on), best first: the answer until a trained model exists.
 */
export function similarByStarter(store: Store, merchant: MerchantId, inputs: readonly number[]): number[] {
  const vectors = inputs.map((id) => store.starterVectors.vector(merchant, id)).filter((vector) => vector !== undefined);
  return nearestByStarter(vectors, new Set(inputs), store.starterVectors.all(merchant), STARTER_NEIGHBOURS);
}

/**
 * Products closest to the inputs in the embedding space, best first: each
 * input's stored neighbour list, cosine similarities summed over inputs.
 */
export function similarTo(store: Store, merchant: MerchantId, inputs: readonly number[]): number[] {
  const lists = inputs.flatMap((id) => store.similar.neighboursOf(merchant, id) ?? []);
  return rankByScore(combineNeighbours(lists, new Set(inputs)));
}
