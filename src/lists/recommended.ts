// recommended and similar_products: the inputs' model list (bought together, or
// the embedding model's nearest products), then shop-wide fallbacks. With a
// collection, the answer is that collection's products: ranked by the inputs'
// model when there are inputs, by the collection's sales when there are none.
import { chainCandidates } from "../core/recs/candidates.js";
import { OWN_ANSWER, withListOptions, type AnswerMode, type RecommendedTask } from "../core/products/query.js";
import { productListBody } from "../core/products/render.js";
import { boughtTogether } from "../recs/copurchase-ranking.js";
import { topSellers, withStoreFallbacks } from "../recs/sales-rankings.js";
import { hasSimilarModel, similarByStarter, similarTo } from "../recs/similar-ranking.js";
import { merchantCatalog } from "../stores/catalog.js";
import { DEFAULT_WINDOW_DAYS } from "../stores/ranked-lists.js";
import type { Store } from "../stores/store.js";

/** The input products: given ids and the products of given variants. */
export function resolveInputs(store: Store, task: RecommendedTask): number[] {
  const { merchantId, inputs } = task;
  const ids = new Set(inputs.productIds);
  for (const variantId of inputs.variantIds) {
    const productId = store.catalogue.productIdByVariant(merchantId, variantId);
    if (productId !== undefined) ids.add(productId);
  }
  return [...ids];
}

/** The model's own ranking for the inputs; a shop whose embedding model is not trained yet gets its starter vectors' neighbours. */
function modelRanking(store: Store, task: RecommendedTask, inputs: number[]): Iterable<number> {
  if (task.context === "bought_together") return boughtTogether(store, task.merchantId, inputs);
  return hasSimilarModel(store, task.merchantId)
    ? similarTo(store, task.merchantId, inputs)
    : similarByStarter(store, task.merchantId, inputs);
}

/**
 * The candidates for a collection: the inputs' model list when there are
 * inputs, then the collection's best sellers, then every member, so the list
 * fills from the collection alone (the list keeps only members).
 */
function collectionCandidates(
  store: Store,
  task: RecommendedTask,
  inputs: number[],
  collectionId: number,
  members: readonly number[],
): Iterable<number> {
  const bestSellers = () => topSellers(store, task.merchantId, DEFAULT_WINDOW_DAYS, collectionId);
  return inputs.length > 0
    ? chainCandidates(
        () => modelRanking(store, task, inputs),
        bestSellers,
        () => members,
      )
    : chainCandidates(bestSellers, () => members);
}

/** What a recommendation offers, and what its list leaves out: the inputs, and everything outside a given collection. */
export interface RecommendationCandidates {
  candidates: Iterable<number>;
  excludedIds: number[];
  restrictTo: number[] | null;
}

export function recommendationCandidates(store: Store, task: RecommendedTask): RecommendationCandidates {
  const inputs = resolveInputs(store, task);
  const { collectionId } = task.inputs;
  const members = collectionId === null ? null : (store.catalogue.collection(task.merchantId, collectionId)?.product_ids ?? []);
  // The model's list first; then what is trending and what sells, then the rest
  // of the catalogue, so a widget is full whenever eligible products exist.
  const candidates =
    members === null
      ? withStoreFallbacks(store, task.merchantId, () => modelRanking(store, task, inputs))
      : collectionCandidates(store, task, inputs, collectionId!, members);
  // Products of the collection are what a collection asks for.
  return { candidates, excludedIds: inputs, restrictTo: members };
}

export function recommended(store: Store, task: RecommendedTask, mode: AnswerMode = OWN_ANSWER): Uint8Array {
  const { candidates, excludedIds, restrictTo } = recommendationCandidates(store, task);
  const list = withListOptions(task.list, { excludedIds: [...task.list.excludedIds, ...excludedIds], restrictTo });
  return productListBody(merchantCatalog(store, task.merchantId), candidates, list, {}, mode);
}
