// Store-wide rankings from daily sales, shared by the list endpoints and as the
// fallbacks of every recommendation list. Each worker memoises them: they cost
// milliseconds (tens at 100k products) and change slowly.
import { chainCandidates } from "../core/recs/candidates.js";
import { dayNumber } from "../core/recs/days.js";
import { DEFAULT_TRENDING, demand, rankByScore, trendingScores } from "../core/recs/sales.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

export const TOP_SELLER_FALLBACK_DAYS = 90;

/**
 * While orders keep arriving, a worker reuses a ranking for this long before
 * recomputing it; with no new orders it is reused for the rest of the day.
 */
export const RANKING_REUSE_MS = 30_000;

/** `fresh` (bust_cache=yes): reflect every order so far, recomputing if any arrived since the memo. */
export interface RankingOptions {
  fresh?: boolean;
}

interface Memo {
  day: number;
  /** Version of the data the ranking was computed from. */
  dataVersion: string;
  computedAt: number;
  ranked: number[];
}

const memos = new Map<string, Memo>();

function memoised(
  store: Store,
  merchant: MerchantId,
  name: string,
  now: number,
  options: RankingOptions,
  dataVersion: string,
  compute: () => number[],
): number[] {
  const key = `${merchant}\u0000${name}`;
  const day = dayNumber(now);
  const memo = memos.get(key);
  // bust_cache (fresh) skips the reuse window but not a memo of unchanged data:
  // a recompute over the same orders would give the same ranking.
  const usable =
    memo !== undefined &&
    memo.day === day &&
    (memo.dataVersion === dataVersion || (!options.fresh && Date.now() - memo.computedAt < RANKING_REUSE_MS));
  if (usable) return memo.ranked;
  const ranked = compute();
  memos.set(key, { day, dataVersion, computedAt: Date.now(), ranked });
  return ranked;
}

/** Product ids by units sold over the `days` days ending with `now`'s day. */
export function topSellers(store: Store, merchant: MerchantId, now: number, days: number, options: RankingOptions = {}): number[] {
  const version = String(store.version(merchant, "orders"));
  return memoised(store, merchant, `top_sellers:${days}`, now, options, version, () => {
    const today = dayNumber(now);
    return rankByScore(store.salesInDays(merchant, today - days + 1, today + 1));
  });
}

/** Product ids by momentum of sales and add-to-cart events (see trendingScores). */
export function trending(store: Store, merchant: MerchantId, now: number, options: RankingOptions = {}): number[] {
  // Add-to-cart events count too, so any applied event makes the memo out of date
  // (they reach the day counts behind the log: the applied watermark, not the log's end).
  const version = `${store.version(merchant, "orders")}:${store.derivedSequence(merchant)}`;
  return memoised(store, merchant, "trending", now, options, version, () => {
    const { recentDays, baselineDays } = DEFAULT_TRENDING;
    const today = dayNumber(now);
    const recentStart = today - recentDays + 1;
    const window = (from: number, to: number) => demand(store.salesInDays(merchant, from, to), store.addsInDays(merchant, from, to));
    const recent = window(recentStart, today + 1);
    const baseline = window(recentStart - baselineDays, recentStart);
    return rankByScore(trendingScores(recent, baseline, DEFAULT_TRENDING));
  });
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
  options: RankingOptions,
  ...ranked: (() => Iterable<number>)[]
): Iterable<number> {
  return chainCandidates(
    ...ranked,
    () => trending(store, merchant, now, options),
    () => topSellers(store, merchant, now, TOP_SELLER_FALLBACK_DAYS, options),
    () => store.productIds(merchant),
  );
}
