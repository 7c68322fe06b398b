// Store-wide rankings from daily sales, shared by the list endpoints and as the
// fallbacks of every recommendation list.
import { chainCandidates } from "../core/recs/candidates.js";
import { dayNumber } from "../core/recs/days.js";
import { DEFAULT_TRENDING, rankByScore, sumDays, trendingScores } from "../core/recs/sales.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

export const TOP_SELLER_FALLBACK_DAYS = 90;

/** Product ids by units sold over the `days` days ending with `now`'s day. */
export function topSellers(store: Store, merchant: MerchantId, now: number, days: number): number[] {
  const today = dayNumber(now);
  return rankByScore(sumDays(store.salesOfDays(merchant, today - days + 1, today + 1)));
}

/** Product ids by sales momentum (see trendingScores). */
export function trending(store: Store, merchant: MerchantId, now: number): number[] {
  const { recentDays, baselineDays } = DEFAULT_TRENDING;
  const today = dayNumber(now);
  const recentStart = today - recentDays + 1;
  const recent = sumDays(store.salesOfDays(merchant, recentStart, today + 1));
  const baseline = sumDays(store.salesOfDays(merchant, recentStart - baselineDays, recentStart));
  return rankByScore(trendingScores(recent, baseline, DEFAULT_TRENDING));
}

/**
 * Ranked candidates followed by the store-wide fallbacks — trending, best
 * sellers, then the rest of the catalogue — so a list is full whenever enough
 * eligible products exist. Each fallback is computed only if reached.
 */
export function withStoreFallbacks(
  store: Store,
  merchant: MerchantId,
  now: number,
  ...ranked: (() => Iterable<number>)[]
): Iterable<number> {
  return chainCandidates(
    ...ranked,
    () => trending(store, merchant, now),
    () => topSellers(store, merchant, now, TOP_SELLER_FALLBACK_DAYS),
    () => store.productIds(merchant),
  );
}
