import { nearestByStarter, starterQuery, starterSignature } from "../core/embedding/starter.js";
import { combineNeighbours } from "../core/recs/copurchase.js";
import { storedRanking } from "../core/recs/ranking.js";
import { rankByScoreLazily } from "../core/recs/sales.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

/** Whether the merchant has a trained similar-products model to answer from. */
export function hasSimilarModel(store: Store, merchant: MerchantId): boolean {
  return store.similar.hasModel(merchant);
}

/** As many products as a trained model lists per product. */
const STARTER_NEIGHBOURS = 50;

/** Products whose signatures differ least from the inputs', scored on their full vectors. */
const STARTER_SHORTLIST = 2_048;

/**
 * Products most like the inputs by their starter vectors (every shop has them,
 * from its first product on), best first: the answer until a trained model
 * exists. From a shortlist by signature where the rows are built; a scan of
 * every vector before.
 */
export function similarByStarter(store: Store, merchant: MerchantId, inputs: readonly number[]): number[] {
  const { starterVectors } = store;
  const vectors = inputs.map((id) => starterVectors.vector(merchant, id)).filter((vector) => vector !== undefined);
  const excluded = new Set(inputs);
  if (vectors.length === 0 || !store.derived.isBuilt(starterVectors.rows, merchant)) {
    return nearestByStarter(vectors, excluded, starterVectors.all(merchant), STARTER_NEIGHBOURS);
  }
  const shortlist = starterVectors.rows.shortlist(merchant, starterSignature(starterQuery(vectors)), excluded, STARTER_SHORTLIST);
  const candidates = shortlist.flatMap((id) => {
    const vector = starterVectors.vector(merchant, id);
    return vector === undefined ? [] : [{ id, vector }];
  });
  return nearestByStarter(vectors, excluded, candidates, STARTER_NEIGHBOURS);
}

/**
 * Products closest to the inputs in the embedding space, best first (sorted
 * as they are read, read once): each input's stored neighbour list, cosine
 * similarities summed over inputs.
 */
export function similarTo(store: Store, merchant: MerchantId, inputs: readonly number[]): Iterable<number> {
  const lists = inputs.flatMap((id) => store.similar.neighboursOf(merchant, id) ?? []);
  // One input's list, as stored best first, is already its ranking.
  const stored = lists.length === 1 && inputs.length === 1 ? storedRanking(lists[0]!, inputs[0]!) : null;
  return stored ?? rankByScoreLazily(combineNeighbours(lists, new Set(inputs)));
}
