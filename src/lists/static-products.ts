// static: exactly the products the caller configured, in the order given.
import { OWN_ANSWER, withListOptions, type AnswerMode, type StaticProductsTask } from "../core/products/query.js";
import { productListBody } from "../core/products/render.js";
import { staticCandidates } from "../core/products/static-selection.js";
import { merchantCatalog } from "../stores/catalog.js";
import type { Store } from "../stores/store.js";

export function staticProducts(store: Store, task: StaticProductsTask, mode: AnswerMode = OWN_ANSWER): Uint8Array {
  const catalog = merchantCatalog(store, task.merchantId);
  const { candidates, restrictTo } = staticCandidates(catalog, task.selection);
  return productListBody(catalog, candidates, withListOptions(task.list, { restrictTo }), {}, mode);
}
