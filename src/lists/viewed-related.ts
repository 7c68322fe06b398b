// viewed-related: products related to what the session viewed (session kNN
// blended with bought-together), never the viewed products themselves.
import type { ViewedTask } from "../core/products/query.js";
import { productListBody } from "../core/products/render.js";
import { recentProducts } from "../core/recs/history.js";
import { rankByScore } from "../core/recs/sales.js";
import { noteWarming } from "../pool/warming-notes.js";
import { relatedToViews } from "../recs/related-to-views.js";
import { sessionIndexWarming } from "../recs/session-model.js";
import { withStoreFallbacks } from "../recs/sales-rankings.js";
import { merchantCatalog } from "../stores/catalog.js";
import type { Store } from "../stores/store.js";
import { historyOf } from "./history.js";

/** What an answer from a session index still reading the event log after a start may lack. */
const SESSIONS_WARMING = "session index warming up: related products come from the sessions read so far";

export function viewedRelated(store: Store, task: ViewedTask): Uint8Array {
  const history = historyOf(store, task.merchantId, task.subject, task.pending);
  const viewedInOrder = history.products.filter((_, i) => history.verbs[i] === task.subject.verb);
  let readSessions = false;
  const related = () => {
    readSessions = true;
    return rankByScore(relatedToViews(store, task.merchantId, viewedInOrder, task.subject.uuid));
  };
  const candidates = withStoreFallbacks(store, task.merchantId, related);
  // What they already looked at is not "related": leave every viewed product out.
  const viewedIds = recentProducts(history, task.subject.verb);
  const list = { ...task.list, excludedIds: [...task.list.excludedIds, ...viewedIds] };
  const body = productListBody(merchantCatalog(store, task.merchantId), candidates, list);
  // Candidates are drawn lazily while rendering: only an answer that used the session index can lack its sessions.
  if (readSessions && sessionIndexWarming(store, task.merchantId)) noteWarming(store, SESSIONS_WARMING);
  return body;
}
