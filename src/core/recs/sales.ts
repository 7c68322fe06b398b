import type { Order } from "../types.js";
import { dayOfTimestamp } from "./days.js";
import { flatOf, type ScoreLookup } from "./item-scores.js";
import { rankFlat, rankFlatLazily } from "./ranking.js";

/** Per day, per product: units to add (negative to take back). */
export type SalesDelta = Map<number, Map<number, number>>;

/** What an order counts for in sales: nothing once cancelled. */
function countsAsSale(order: Order | undefined): order is Order {
  return order !== undefined && order.cancelled_at === null;
}

/** Adds to `delta` what replacing `before` by `after` changes in daily sales. */
export function addOrderChange(delta: SalesDelta, before: Order | undefined, after: Order | undefined): void {
  const apply = (order: Order, sign: number) => {
    const day = dayOfTimestamp(order.created_at);
    const products = delta.get(day) ?? new Map<number, number>();
    for (const line of order.line_items) {
      products.set(line.product_id, (products.get(line.product_id) ?? 0) + sign * line.quantity);
    }
    delta.set(day, products);
  };
  if (countsAsSale(before)) apply(before, -1);
  if (countsAsSale(after)) apply(after, +1);
}

/**
 * Product ids by descending score, the first `count` of them (all by
 * default), positive scores only unless `all`; ties by id so lists are stable
 * between requests. Ordered as positions into two flat arrays, not as
 * [id, score] pairs: a viewed-related answer ranks thousands of scores, and a
 * pair each was most of its garbage.
 */
export function rankByScore(scores: ScoreLookup, { count = Number.POSITIVE_INFINITY, all = false } = {}): number[] {
  const { ids, values, kept } = flatScores(scores, all);
  return rankFlat(ids, values, kept, count);
}

/** The positive scores' ids in rankByScore's order, sorted as they are read (rankFlatLazily): for a list that reads a few. Read once. */
export function rankByScoreLazily(scores: ScoreLookup): Iterable<number> {
  const { ids, values, kept } = flatScores(scores, false);
  return rankFlatLazily(ids, values, kept);
}

function flatScores(scores: ScoreLookup, all: boolean) {
  const flat = flatOf(scores);
  const ids = new Float64Array(flat.items.length);
  const values = new Float64Array(flat.items.length);
  let kept = 0;
  for (let entry = 0; entry < flat.items.length; entry++) {
    const score = flat.scores[entry]!;
    if (!all && !(score > 0)) continue;
    ids[kept] = flat.items[entry]!;
    values[kept++] = score;
  }
  return { ids, values, kept };
}

/** An add-to-cart counts for this much of a sale in momentum: intent, not yet a purchase. */
export const ADD_TO_CART_WEIGHT = 0.3;

export interface TrendingOptions {
  /** Minimum recent units for a product to count as trending at all. */
  minRecentUnits: number;
  recentDays: number;
  baselineDays: number;
}

export const DEFAULT_TRENDING: TrendingOptions = { minRecentUnits: 3, recentDays: 10, baselineDays: 30 };

/**
 * Momentum: how far recent demand runs above the product's own earlier rate,
 * in units of that rate's Poisson noise. A steady best seller scores about
 * zero; a product whose sales took off scores high even at modest volume.
 * Below the minimum of recent units it does not trend at all (zero).
 */
export function momentum(recentUnits: number, baselineUnits: number, options: TrendingOptions): number {
  if (recentUnits < options.minRecentUnits) return 0;
  const expected = baselineUnits * (options.recentDays / options.baselineDays);
  return (recentUnits - expected) / Math.sqrt(expected + 1);
}
