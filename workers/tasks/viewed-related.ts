import { jsonBytes } from "../../src/core/json.js";
import type { ViewedTask } from "../../src/core/products/query.js";
import { renderProductList } from "../../src/core/products/render.js";
import { recentProducts } from "../../src/core/recs/history.js";
import { rankByScore } from "../../src/core/recs/sales.js";
import type { TaskResult } from "../../src/pool/protocol.js";
import { relatedToViews } from "../../src/recs/related-to-views.js";
import { withStoreFallbacks } from "../../src/recs/sales-rankings.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import type { Store } from "../../src/stores/store.js";
import { historyOf } from "./history-lists.js";

export function viewedRelated(store: Store, task: ViewedTask): TaskResult {
  const history = historyOf(store, task.merchantId, task.subject, task.pending);
  const viewedInOrder = history.products.filter((_, i) => history.verbs[i] === task.subject.verb);
  const related = () => rankByScore(relatedToViews(store, task.merchantId, viewedInOrder, task.subject.uuid));
  const candidates = withStoreFallbacks(store, task.merchantId, task.now, task.list, related);
  // What they already looked at is not "related": leave every viewed product out.
  const viewedIds = recentProducts(history, task.subject.verb);
  const list = { ...task.list, excludedIds: [...task.list.excludedIds, ...viewedIds] };
  const data = renderProductList(merchantCatalog(store, task.merchantId), candidates, list);
  return { ok: true, body: jsonBytes({ data }, task.list.pretty) };
}
