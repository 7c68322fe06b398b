import { jsonBytes } from "../../src/core/json.js";
import type { ViewedTask } from "../../src/core/products/query.js";
import { renderProductList } from "../../src/core/products/render.js";
import { recentProducts } from "../../src/core/recs/history.js";
import type { TaskResult } from "../../src/pool/protocol.js";
import { boughtTogether } from "../../src/recs/copurchase-ranking.js";
import { withStoreFallbacks } from "../../src/recs/sales-rankings.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import type { Store } from "../../src/stores/store.js";
import { historyOf } from "./history-lists.js";

/** The most recent viewed products used as the query. */
const MAX_INPUTS = 10;

export function viewedRelated(store: Store, task: ViewedTask): TaskResult {
  const viewedIds = recentProducts(historyOf(store, task.merchantId, task.subject), task.subject.verb);
  const inputs = viewedIds.slice(0, MAX_INPUTS);
  const candidates = withStoreFallbacks(store, task.merchantId, task.now, () => boughtTogether(store, task.merchantId, inputs));
  // What they already looked at is not "related": leave every viewed product out.
  const list = { ...task.list, excludedIds: [...task.list.excludedIds, ...viewedIds] };
  const data = renderProductList(merchantCatalog(store, task.merchantId), candidates, list);
  return { ok: true, body: jsonBytes({ data }, task.list.pretty) };
}
