// recommended and similar_products: the inputs' model list (bought together, or
// the embedding model's nearest products), then shop-wide fallbacks.
import { jsonBytes } from "../core/json.js";
import type { RecommendedTask } from "../core/products/query.js";
import { renderProductList } from "../core/products/render.js";
import { boughtTogether } from "../recs/copurchase-ranking.js";
import { withStoreFallbacks } from "../recs/sales-rankings.js";
import { hasSimilarModel, similarTo } from "../recs/similar-ranking.js";
import { merchantCatalog } from "../stores/catalog.js";
import type { Store } from "../stores/store.js";

/** A collection as input contributes at most this many products (the first ones). */
const MAX_COLLECTION_INPUTS = 50;

/** The input products: given ids, the products of given variants, a collection's products. */
export function resolveInputs(store: Store, task: RecommendedTask): number[] {
  const { merchantId, inputs } = task;
  const ids = new Set(inputs.productIds);
  for (const variantId of inputs.variantIds) {
    const productId = store.productIdByVariant(merchantId, variantId);
    if (productId !== undefined) ids.add(productId);
  }
  if (inputs.collectionId !== null) {
    const members = store.collection(merchantId, inputs.collectionId)?.product_ids ?? [];
    for (const id of members.slice(0, MAX_COLLECTION_INPUTS)) ids.add(id);
  }
  return [...ids];
}

/** The model's own ranking for the inputs; a shop whose embedding model is not trained yet gets bought-together. */
function modelRanking(store: Store, task: RecommendedTask, inputs: number[]): number[] {
  if (task.context === "similar" && hasSimilarModel(store, task.merchantId)) return similarTo(store, task.merchantId, inputs);
  return boughtTogether(store, task.merchantId, inputs);
}

export function recommended(store: Store, task: RecommendedTask): Uint8Array {
  const inputs = resolveInputs(store, task);
  // The model's list first; then what is trending and what sells, then the rest
  // of the catalogue, so a widget is full whenever eligible products exist.
  const candidates = withStoreFallbacks(store, task.merchantId, () => modelRanking(store, task, inputs));
  const list = { ...task.list, excludedIds: [...task.list.excludedIds, ...inputs] };
  const data = renderProductList(merchantCatalog(store, task.merchantId), candidates, list);
  return jsonBytes({ data }, task.list.pretty);
}
