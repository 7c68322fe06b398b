// viewed-related: products related to what the session viewed (session kNN
// blended with bought-together), never the viewed products themselves.
import type { ViewedTask } from "../core/products/query.js";
import { productListBody } from "../core/products/render.js";
import { recentProducts } from "../core/recs/history.js";
import { rankByScore } from "../core/recs/sales.js";
import { relatedToViews } from "../recs/related-to-views.js";
import { withStoreFallbacks } from "../recs/sales-rankings.js";
import { merchantCatalog } from "../stores/catalog.js";
import type { Store } from "../stores/store.js";
import { historyOf } from "./history.js";

export function viewedRelated(store: Store, task: ViewedTask): Uint8Array {
  const history = historyOf(store, task.merchantId, task.subject, task.pending);
  const viewedInOrder = history.products.filter((_, i) => history.verbs[i] === task.subject.verb);
  const related = () => rankByScore(relatedToViews(store, task.merchantId, viewedInOrder, task.subject.uuid));
  const candidates = withStoreFallbacks(store, task.merchantId, related);
  // What they already looked at is not "related": leave every viewed product out.
  const viewedIds = recentProducts(history, task.subject.verb);
  const list = { ...task.list, excludedIds: [...task.list.excludedIds, ...viewedIds] };
  return productListBody(merchantCatalog(store, task.merchantId), candidates, list);
}
