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
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";
import { SALES_WARMING, salesHistoryOf, updatedSalesHistory, type SalesHistory } from "./sales-history.js";

export const TOP_SELLER_FALLBACK_DAYS = 90;

/**
 * While orders keep arriving, a worker reuses a ranking for this long before
 * recomputing it; with no new orders it is reused for the rest of the day.
 */
export const RANKING_REUSE_MS = 30_000;
/** While days of a worker's sales history are still being read (after a start, or again after changes), a ranking is reused this long. */
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
  /** Computed from every day of its window, each as of its latest stamp (not while days were still being read). */
  complete: boolean;
  /** Computed from every day of its window, some perhaps as read before a change. */
  covered: boolean;
  ranking: Ranking;
}

/** Per store, by merchant and ranking. */
const memosByStore = new PerStore<string, Memo>();
/**
 * Rankings kept per store; beyond this the oldest goes. Each holds its scores
 * (9 MB at 1M products), and top_sellers has one per window_days asked for.
 */
const MAX_MEMOS = 16;

function memoised(
  store: Store,
  merchant: MerchantId,
  name: string,
  now: number,
  options: RankingOptions,
  dataVersion: string,
  /** Whether the history counts every day the ranking sums. */
  covered: (history: SalesHistory, today: number) => boolean,
  compute: (history: SalesHistory, today: number) => Ranking,
): Ranking {
  const memos = memosByStore.of(store);
  const key = `${merchant}\u0000${name}`;
  const day = dayNumber(now);
  const memo = memos.get(key);
  // bust_cache (fresh) skips the reuse window but not a memo of unchanged data:
  // a recompute over the same orders would give the same ranking.
  const current = memo !== undefined && memo.day === day && memo.complete;
  if (current && (memo.dataVersion === dataVersion || (!options.fresh && Date.now() - memo.computedAt < RANKING_REUSE_MS)))
    return memo.ranking;
  const read = updatedSalesHistory(store, merchant, day, (history) => covered(history, day));
  const { history } = read;
  if (!read.covered) noteWarming(store, SALES_WARMING);
  // Every day counted, each as of its latest stamp: the ranking holds for this data version.
  const complete = read.covered && read.upToDate;
  const sameDay = memo !== undefined && memo.day === day;
  // Nothing read since (the same days, as read then): the same ranking.
  if (sameDay && memo.generation === history.generation) {
    memos.set(key, { ...memo, dataVersion, computedAt: Date.now(), complete, covered: read.covered });
    return memo.ranking;
  }
  // While days are still being read (after a start, or again after changes),
  // each request reads a little more; summing a big shop's history again for
  // each one costs tens of ms at 1M products: the last ranking is reused a while.
  // Not once the window is covered, though: a ranking of only some of its days would then go out unflagged.
  if (sameDay && !complete && !memo.complete && memo.covered === read.covered && Date.now() - memo.computedAt < PARTIAL_REUSE_MS)
    return memo.ranking;
  const ranking = compute(history, day);
  memos.delete(key);
  if (memos.size >= MAX_MEMOS) memos.delete(memos.keys().next().value!);
  memos.set(key, { day, dataVersion, generation: history.generation, computedAt: Date.now(), complete, covered: read.covered, ranking });
  return ranking;
}

/** Product ids by units sold over the `days` days ending with `now`'s day. */
export function topSellers(store: Store, merchant: MerchantId, now: number, days: number, options: RankingOptions = {}): Ranking {
  salesHistoryOf(store, merchant).keepSalesDays(days);
  const version = String(store.version(merchant, "orders"));
  const covered = (history: SalesHistory, today: number) => history.covers(history.sales, today - days + 1);
  return memoised(store, merchant, `top_sellers:${days}`, now, options, version, covered, (history, today) =>
    topSellersFrom(history, today, days),
  );
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
  return memoised(store, merchant, "trending", now, options, version, trendingCovered, trendingFrom);
}

/** Whether the history counts every day of trending's recent and baseline windows. */
function trendingCovered(history: SalesHistory, today: number): boolean {
  const from = today - DEFAULT_TRENDING.recentDays - DEFAULT_TRENDING.baselineDays + 1;
  return history.covers(history.sales, from) && history.covers(history.adds, from);
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
