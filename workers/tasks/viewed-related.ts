import { jsonBytes } from "../../src/core/json.js";
import type { ViewedTask } from "../../src/core/products/query.js";
import { renderProductList } from "../../src/core/products/render.js";
import { blendScores } from "../../src/core/recs/blend.js";
import { recentProducts } from "../../src/core/recs/history.js";
import { rankByScore } from "../../src/core/recs/sales.js";
import type { TaskResult } from "../../src/pool/protocol.js";
import { boughtTogetherScores } from "../../src/recs/copurchase-ranking.js";
import { withStoreFallbacks } from "../../src/recs/sales-rankings.js";
import { sessionsOf } from "../../src/recs/session-model.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import type { Store } from "../../src/stores/store.js";
import { historyOf } from "./history-lists.js";

/** Recent viewed products that seed the bought-together part of the blend. */
const MAX_COPURCHASE_INPUTS = 5;
/** How much bought-together counts beside session neighbours (each scaled to a best of 1). */
const COPURCHASE_WEIGHT = 0.3;

export function viewedRelated(store: Store, task: ViewedTask): TaskResult {
  const history = historyOf(store, task.merchantId, task.subject);
  const viewedInOrder = history.products.filter((_, i) => history.verbs[i] === task.subject.verb);
  const viewedIds = recentProducts(history, task.subject.verb);
  const related = () =>
    rankByScore(
      blendScores([
        { scores: sessionsOf(store, task.merchantId).scoreNext(viewedInOrder, task.subject.uuid), weight: 1 },
        { scores: boughtTogetherScores(store, task.merchantId, viewedIds.slice(0, MAX_COPURCHASE_INPUTS)), weight: COPURCHASE_WEIGHT },
      ]),
    );
  const candidates = withStoreFallbacks(store, task.merchantId, task.now, related);
  // What they already looked at is not "related": leave every viewed product out.
  const list = { ...task.list, excludedIds: [...task.list.excludedIds, ...viewedIds] };
  const data = renderProductList(merchantCatalog(store, task.merchantId), candidates, list);
  return { ok: true, body: jsonBytes({ data }, task.list.pretty) };
}
