import { jsonBytes } from "../../src/core/json.js";
import type { SalesListTask } from "../../src/core/products/query.js";
import { renderProductList } from "../../src/core/products/render.js";
import { chainCandidates } from "../../src/core/recs/candidates.js";
import { dayNumber } from "../../src/core/recs/days.js";
import { DEFAULT_TRENDING, rankByScore, sumDays, trendingScores } from "../../src/core/recs/sales.js";
import type { MerchantId } from "../../src/core/types.js";
import type { TaskResult } from "../../src/pool/protocol.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import type { Store } from "../../src/stores/store.js";

const TOP_SELLER_FALLBACK_DAYS = 90;

/** Product ids by units sold over the `days` days ending with `now`'s day. */
export function topSellers(store: Store, merchant: MerchantId, now: number, days: number): number[] {
  const today = dayNumber(now);
  return rankByScore(sumDays(store.salesOfDays(merchant, today - days + 1, today + 1)));
}

export function trending(store: Store, merchant: MerchantId, now: number): number[] {
  const { recentDays, baselineDays } = DEFAULT_TRENDING;
  const today = dayNumber(now);
  const recentStart = today - recentDays + 1;
  const recent = sumDays(store.salesOfDays(merchant, recentStart, today + 1));
  const baseline = sumDays(store.salesOfDays(merchant, recentStart - baselineDays, recentStart));
  return rankByScore(trendingScores(recent, baseline, DEFAULT_TRENDING));
}

export function salesList(store: Store, task: SalesListTask): TaskResult {
  const catalog = merchantCatalog(store, task.merchantId);
  let candidates: Iterable<number>;
  if (task.kind === "trending") {
    // Momentum first; when too few products are rising, best sellers and then
    // the rest of the catalogue keep the widget full.
    candidates = chainCandidates(
      trending(store, task.merchantId, task.now),
      topSellers(store, task.merchantId, task.now, TOP_SELLER_FALLBACK_DAYS),
      store.productIds(task.merchantId),
    );
  } else {
    const ranked = topSellers(store, task.merchantId, task.now, task.windowDays);
    if (task.collectionId === null) {
      candidates = ranked;
    } else {
      const members = new Set(catalog.collection(task.collectionId)?.product_ids ?? []);
      candidates = ranked.filter((id) => members.has(id));
    }
  }
  const data = renderProductList(catalog, candidates, task.list);
  return { ok: true, body: jsonBytes({ data }, task.list.pretty) };
}
