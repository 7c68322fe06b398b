import { jsonBytes } from "../../src/core/json.js";
import type { ViewedTask } from "../../src/core/products/query.js";
import { renderProductList } from "../../src/core/products/render.js";
import { recentProducts } from "../../src/core/recs/history.js";
import { rankByScore } from "../../src/core/recs/sales.js";
import type { TaskResult } from "../../src/pool/protocol.js";
import { relatedToViews } from "../../src/recs/related-to-views.js";
import { sessionIndexWarming } from "../../src/recs/session-model.js";
import { withStoreFallbacks } from "../../src/recs/sales-rankings.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import type { Store } from "../../src/stores/store.js";
import { historyOf } from "./history-lists.js";

/** What an answer from a session index still reading the event log after a start may lack. */
const SESSIONS_WARMING = "session index warming up: related products come from the sessions read so far";

export function viewedRelated(store: Store, task: ViewedTask): TaskResult {
  const history = historyOf(store, task.merchantId, task.subject, task.pending);
  const viewedInOrder = history.products.filter((_, i) => history.verbs[i] === task.subject.verb);
  let readSessions = false;
  const related = () => {
    readSessions = true;
    return rankByScore(relatedToViews(store, task.merchantId, viewedInOrder, task.subject.uuid));
  };
  const candidates = withStoreFallbacks(store, task.merchantId, task.now, task.list, related);
  // What they already looked at is not "related": leave every viewed product out.
  const viewedIds = recentProducts(history, task.subject.verb);
  const list = { ...task.list, excludedIds: [...task.list.excludedIds, ...viewedIds] };
  const data = renderProductList(merchantCatalog(store, task.merchantId), candidates, list);
  const body = jsonBytes({ data }, task.list.pretty);
  // Candidates are drawn lazily while rendering: only an answer that used the session index can lack its sessions.
  return readSessions && sessionIndexWarming(store, task.merchantId) ? { ok: true, body, warming: SESSIONS_WARMING } : { ok: true, body };
}
