// viewed-related: products related to what the session viewed (session kNN
// blended with bought-together, re-ranked by the shop's learned re-ranker
// once it has one), never the viewed products themselves.
import { withListOptions, type ViewedTask } from "../core/products/query.js";
import { productListBody } from "../core/products/render.js";
import { productsWithVerb, recentProducts, type History } from "../core/recs/history.js";
import { rankRelatedToViews, relatedToViews } from "../recs/related-to-views.js";
import { withStoreFallbacks } from "../recs/sales-rankings.js";
import { merchantCatalog } from "../stores/catalog.js";
import type { Store } from "../stores/store.js";
import { historyOf } from "./history.js";

type ViewedSubject = Omit<ViewedTask, "kind" | "list">;

function viewsOf(store: Store, task: ViewedSubject): { history: History; viewedInOrder: number[] } {
  const history = historyOf(store, task.merchantId, task.subject, task.pending);
  return { history, viewedInOrder: productsWithVerb(history, task.subject.verb) };
}

/**
 * Products related to the subject's views by the shop's tuned ranking, with
 * the viewed products (which the list leaves out): what a custom source's
 * rule reads. Rules are evaluated synchronously, so this is the ranking
 * before the shop's re-ranker (which awaits ONNX Runtime).
 */
export function viewedRelatedCandidates(store: Store, task: ViewedSubject): { candidates: Iterable<number>; viewed: number[] } {
  const { history, viewedInOrder } = viewsOf(store, task);
  const related = () => rankRelatedToViews(store, task.merchantId, viewedInOrder, task.subject.uuid).ranking;
  // What they already looked at is not "related": every viewed product is left out.
  return { candidates: withStoreFallbacks(store, task.merchantId, related), viewed: recentProducts(history, task.subject.verb) };
}

export async function viewedRelated(store: Store, task: ViewedTask): Promise<Uint8Array> {
  const { history, viewedInOrder } = viewsOf(store, task);
  const related = await relatedToViews(store, task.merchantId, viewedInOrder, task.subject.uuid);
  const viewed = recentProducts(history, task.subject.verb);
  const list = withListOptions(task.list, { excludedIds: [...task.list.excludedIds, ...viewed] });
  // Read after the re-ranking: at the snapshot current then, as any answer renders.
  return productListBody(
    merchantCatalog(store, task.merchantId),
    withStoreFallbacks(store, task.merchantId, () => related),
    list,
  );
}
