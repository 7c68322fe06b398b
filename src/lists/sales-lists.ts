// trending_products and top_sellers: shop-wide rankings from sales, with
// fallbacks that keep the widget full.
import { OWN_ANSWER, type AnswerMode, type SalesListTask } from "../core/products/query.js";
import { productListBody } from "../core/products/render.js";
import { topSellers, withStoreFallbacks } from "../recs/sales-rankings.js";
import { merchantCatalog } from "../stores/catalog.js";
import type { Store } from "../stores/store.js";

export function salesList(store: Store, task: SalesListTask, mode: AnswerMode = OWN_ANSWER): Uint8Array {
  const catalog = merchantCatalog(store, task.merchantId);
  // Trending: momentum first; when too few products are rising, best sellers and
  // then the rest of the catalogue keep the widget full. Both are read lazily:
  // the list stops once it has enough eligible products, a few dozen ranks in.
  const candidates =
    task.kind === "trending"
      ? withStoreFallbacks(store, task.merchantId)
      : topSellers(store, task.merchantId, task.windowDays, task.collectionId);
  return productListBody(catalog, candidates, task.list, {}, mode);
}
