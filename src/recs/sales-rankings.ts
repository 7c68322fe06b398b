// Store-wide rankings from daily sales, shared by the list endpoints and as the
// fallbacks of every recommendation list. They are summed from each worker's
// in-memory sales history (src/recs/sales-history.ts) and memoised: they change
// slowly, and a 1M-product shop's sums take tens of milliseconds.
import { chainCandidates } from "../core/recs/candidates.js";
import { dayNumber } from "../core/recs/days.js";
import { Ranking } from "../core/recs/ranking.js";
import { ADD_TO_CART_WEIGHT, DEFAULT_TRENDING, momentum } from "../core/recs/sales.js";
import type { MerchantId } from "../core/types.js";
import { noteWarming } from "../pool/warming-notes.js";
import type { Store } from "../stores/store.js";
import { SALES_WARMING, salesHistoryOf, updatedSalesHistory, type SalesHistory } from "./sales-history.js";

export const TOP_SELLER_FALLBACK_DAYS = 90;

/**
 * While orders keep arriving, a worker reuses a ranking for this long before
 * recomputing it; with no new orders it is reused for the rest of the day.
 */
export const RANKING_REUSE_MS = 30_000;
/** While a worker's sales history is still being read after a start, a ranking of the days read so far is reused this long. */
export const PARTIAL_REUSE_MS = 1_000;

/** `fresh` (bust_cache=yes): reflect every order so far, recomputing if any arrived since the memo. */
export interface RankingOptions {
  fresh?: boolean;
}

interface Memo {
  day: number;
  /** Version of the data the ranking was computed from. */
  dataVersion: string;
  /** The sales history's generation it was computed from. */
  generation: number;
  computedAt: number;
  /** Computed from every kept day (not while the history was still being read after a start). */
  complete: boolean;
  ranking: Ranking;
}

/** Per store (a thread has one; tests and evaluations open several), by merchant and ranking. */
const memosByStore = new WeakMap<Store, Map<string, Memo>>();

function memoised(
  store: Store,
  merchant: MerchantId,
  name: string,
  now: number,
  options: RankingOptions,
  dataVersion: string,
  compute: (history: SalesHistory, today: number) => Ranking,
): Ranking {
  let memos = memosByStore.get(store);
  if (!memos) memosByStore.set(store, (memos = new Map()));
  const key = `${merchant}\u0000${name}`;
  const day = dayNumber(now);
  const memo = memos.get(key);
  // bust_cache (fresh) skips the reuse window but not a memo of unchanged data:
  // a recompute over the same orders would give the same ranking.
  const current = memo !== undefined && memo.day === day && memo.complete;
  if (current && (memo.dataVersion === dataVersion || (!options.fresh && Date.now() - memo.computedAt < RANKING_REUSE_MS))) return memo.ranking;
  const { history, complete } = updatedSalesHistory(store, merchant, day);
  if (!complete) noteWarming(SALES_WARMING);
  const sameDay = memo !== undefined && memo.day === day;
  // Nothing read since (the same days, as read then): the same ranking.
  if (sameDay && memo.generation === history.generation) {
    memos.set(key, { ...memo, dataVersion, computedAt: Date.now(), complete });
    return memo.ranking;
  }
  // While the history is still being read after a start, each request reads a
  // little more of it; summing a big shop's partial history again for each one
  // costs tens of ms (at 1M products): the partial ranking is reused a while.
  if (sameDay && !complete && !memo.complete && Date.now() - memo.computedAt < PARTIAL_REUSE_MS) return memo.ranking;
  const ranking = compute(history, day);
  memos.set(key, { day, dataVersion, generation: history.generation, computedAt: Date.now(), complete, ranking });
  return ranking;
}

/** Product ids by units sold over the `days` days ending with `now`'s day. */
export function topSellers(store: Store, merchant: MerchantId, now: number, days: number, options: RankingOptions = {}): Ranking {
  salesHistoryOf(store, merchant).keepSalesDays(days);
  const version = String(store.version(merchant, "orders"));
  return memoised(store, merchant, `top_sellers:${days}`, now, options, version, (history, today) => topSellersFrom(history, today, days));
}

/** The top-sellers ranking summed from a sales history, not memoised. */
export function topSellersFrom(history: SalesHistory, today: number, days: number): Ranking {
  const units = new Float64Array(history.products.size);
  history.sales.addInto(units, today - days + 1, today);
  return Ranking.of(history.products.ids, units);
}

/** Product ids by momentum of sales and add-to-cart events (see momentum). */
export function trending(store: Store, merchant: MerchantId, now: number, options: RankingOptions = {}): Ranking {
  // Add-to-cart events count too, so any applied event makes the memo out of date
  // (they reach the day counts behind the log: the applied watermark, not the log's end).
  const version = `${store.version(merchant, "orders")}:${store.derivedSequence(merchant)}`;
  return memoised(store, merchant, "trending", now, options, version, trendingFrom);
}

/** The trending ranking summed from a sales history, not memoised. */
export function trendingFrom(history: SalesHistory, today: number): Ranking {
  const { recentDays, baselineDays } = DEFAULT_TRENDING;
  const recentStart = today - recentDays + 1;
  const demand = (from: number, to: number) => {
    const totals = new Float64Array(history.products.size);
    history.sales.addInto(totals, from, to);
    history.adds.addInto(totals, from, to, ADD_TO_CART_WEIGHT);
    return totals;
  };
  const recent = demand(recentStart, today);
  const baseline = demand(recentStart - baselineDays, recentStart - 1);
  const scores = recent.map((units, slot) => momentum(units, baseline[slot]!, DEFAULT_TRENDING));
  return Ranking.of(history.products.ids, scores);
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
