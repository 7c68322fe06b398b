// The "bought together" model: weighted co-occurrence of products in orders,
// normalised against popularity, kept as top-K neighbour lists per product.
// Everything here is pure; the store applies it inside its write transactions.
import type { Order } from "../types.js";

export interface CopurchaseConfig {
  /** Neighbours kept per product. */
  neighbours: number;
  /** Popularity normalisation c_ij / (n_i^alpha · n_j^(1-alpha)); 0.5 is cosine. */
  alpha: number;
  /** Older baskets count less: weight halves every this many days (null: no decay). */
  halfLifeDays: number | null;
  /** Large baskets say less about each pair: weight 1 / (1 + log(size)) when true. */
  dampLargeBaskets: boolean;
  /** Shrinks scores of pairs seen rarely: c / (c + shrink) in units of one recent basket. */
  shrink: number;
}

export const DEFAULT_COPURCHASE: CopurchaseConfig = {
  neighbours: 100,
  alpha: 0.5,
  halfLifeDays: null,
  dampLargeBaskets: true,
  shrink: 0,
};

/** Decay weights are relative to this instant; ratios between them are what matter. */
const EPOCH_MS = Date.parse("2000-01-01T00:00:00Z");
const DAY_MS = 86_400_000;
/** Baskets beyond this many distinct products are capped: pair counts grow with the square. */
export const MAX_BASKET_ITEMS = 50;

export interface Basket {
  items: number[];
  weight: number;
}

/** What an order contributes to the model: its distinct products and their weight. */
export function basketOf(order: Order, config: CopurchaseConfig): Basket | null {
  if (order.cancelled_at !== null) return null;
  const items = [...new Set(order.line_items.map((line) => line.product_id))].slice(0, MAX_BASKET_ITEMS);
  if (items.length === 0) return null;
  let weight = config.dampLargeBaskets ? 1 / (1 + Math.log(items.length)) : 1;
  if (config.halfLifeDays !== null) {
    const days = (Date.parse(order.created_at) - EPOCH_MS) / DAY_MS;
    weight *= 2 ** (days / config.halfLifeDays);
  }
  return { items, weight };
}

/** Accumulated changes of one transaction: item weights and pair weights. */
export class CopurchaseDelta {
  readonly items = new Map<number, number>();
  readonly pairs = new Map<number, Map<number, number>>();

  add(basket: Basket, sign: 1 | -1): void {
    const w = sign * basket.weight;
    for (const i of basket.items) {
      this.items.set(i, (this.items.get(i) ?? 0) + w);
      if (basket.items.length < 2) continue;
      const row = this.pairs.get(i) ?? new Map<number, number>();
      for (const j of basket.items) if (j !== i) row.set(j, (row.get(j) ?? 0) + w);
      this.pairs.set(i, row);
    }
  }

  /** Records replacing `before` by `after` (either may be absent). */
  addOrderChange(before: Order | undefined, after: Order | undefined, config: CopurchaseConfig): void {
    const old = before ? basketOf(before, config) : null;
    const next = after ? basketOf(after, config) : null;
    if (old) this.add(old, -1);
    if (next) this.add(next, 1);
  }

  get touched(): Iterable<number> {
    return this.items.keys();
  }
}

/** A sparse row as stored: parallel arrays, compact in LMDB. */
export interface WeightedIds {
  ids: number[];
  weights: number[];
}

/** Below this a weight is float noise left by adding and taking back the same basket. */
const EPSILON = 1e-9;

export function applyRowDelta(row: WeightedIds | undefined, change: Map<number, number>): WeightedIds {
  const merged = new Map<number, number>();
  row?.ids.forEach((id, index) => merged.set(id, row.weights[index]!));
  for (const [id, w] of change) merged.set(id, (merged.get(id) ?? 0) + w);
  const next: WeightedIds = { ids: [], weights: [] };
  for (const [id, w] of merged) {
    if (Math.abs(w) <= EPSILON * Math.max(1, Math.abs(w))) continue;
    if (w <= 0) continue;
    next.ids.push(id);
    next.weights.push(w);
  }
  return next;
}

/**
 * Top-K neighbours of item i from its co-occurrence row. `weightOf` gives each
 * item's total basket weight, `unit` the weight of one basket today (for shrinkage).
 */
export function topNeighbours(
  itemWeight: number,
  row: WeightedIds,
  weightOf: (id: number) => number,
  config: CopurchaseConfig,
  unit: number,
): WeightedIds {
  const scored: [number, number][] = [];
  for (let k = 0; k < row.ids.length; k++) {
    const j = row.ids[k]!;
    const c = row.weights[k]!;
    const nj = weightOf(j);
    if (!(nj > 0) || !(itemWeight > 0)) continue;
    let score = c / (itemWeight ** config.alpha * nj ** (1 - config.alpha));
    if (config.shrink > 0) score *= c / (c + config.shrink * unit);
    scored.push([j, score]);
  }
  scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const top = scored.slice(0, config.neighbours);
  return { ids: top.map(([id]) => id), weights: top.map(([, score]) => score) };
}

/** Weight of one undamped basket placed at `now`: the scale shrinkage is measured in. */
export function basketUnit(now: number, config: CopurchaseConfig): number {
  return config.halfLifeDays === null ? 1 : 2 ** ((now - EPOCH_MS) / DAY_MS / config.halfLifeDays);
}

/**
 * Scores for a set of input products: each input's neighbours, summed. Each
 * input's list is normalised by its best score first, so one input with many
 * strong neighbours does not drown the others.
 */
export function combineNeighbours(lists: WeightedIds[], exclude: ReadonlySet<number>): Map<number, number> {
  const scores = new Map<number, number>();
  for (const list of lists) {
    const best = list.weights[0] ?? 0;
    if (!(best > 0)) continue;
    list.ids.forEach((id, index) => {
      if (exclude.has(id)) return;
      scores.set(id, (scores.get(id) ?? 0) + list.weights[index]! / best);
    });
  }
  return scores;
}
