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
  /** Large baskets say less about each pair: pair weight × size^-exponent (0: off). */
  basketSizeExponent: number;
  /** Shrinks scores of pairs seen rarely: c / (c + shrink) in units of one recent basket. */
  shrink: number;
}

/**
 * Tuned on the Online Retail validation split (train before October 2011,
 * scored on October, checked on September): asymmetric cosine, pair weights
 * damped by basket size, a 120-day half-life, top-100 lists.
 */
export const DEFAULT_COPURCHASE: CopurchaseConfig = {
  neighbours: 100,
  alpha: 0.6,
  halfLifeDays: 120,
  basketSizeExponent: 0.75,
  shrink: 0,
};

/**
 * Decay weights are relative to this instant; only ratios between them matter.
 * With half-lives of 14 days or more they stay within float range for decades
 * either side of it.
 */
const EPOCH_MS = Date.parse("2024-01-01T00:00:00Z");
export const MIN_HALF_LIFE_DAYS = 14;
const DAY_MS = 86_400_000;
/** Baskets beyond this many distinct products are capped: pair counts grow with the square. */
export const MAX_BASKET_ITEMS = 50;

export interface Basket {
  items: number[];
  /** What the basket adds to each item's count: its age weight. */
  itemWeight: number;
  /** What it adds to each of its pairs: the age weight, damped by basket size. */
  pairWeight: number;
}

/**
 * An add-to-cart is intent, not a sale: a cart counts for this much of an order.
 * Not tuned on data (the public datasets have no carts); a conservative guess.
 */
export const CART_WEIGHT = 0.3;

function ageWeight(at: number, config: CopurchaseConfig): number {
  return config.halfLifeDays === null ? 1 : 2 ** ((at - EPOCH_MS) / DAY_MS / config.halfLifeDays);
}

/** What an order contributes to the model: its distinct products and their weights. */
export function basketOf(order: Order, config: CopurchaseConfig): Basket | null {
  if (order.cancelled_at !== null) return null;
  const items = [...new Set(order.line_items.map((line) => line.product_id))].slice(0, MAX_BASKET_ITEMS);
  if (items.length === 0) return null;
  const age = ageWeight(Date.parse(order.created_at), config);
  return { items, itemWeight: age, pairWeight: age * items.length ** -config.basketSizeExponent };
}

/**
 * A weight with the number of baskets behind it. Adding and later taking back
 * the same basket leaves float residue in the weight; the count says exactly
 * when nothing is left.
 */
export interface Tally {
  weight: number;
  count: number;
}

function addTo(map: Map<number, Tally>, id: number, weight: number, count: number): void {
  const tally = map.get(id);
  if (tally) {
    tally.weight += weight;
    tally.count += count;
  } else {
    map.set(id, { weight, count });
  }
}

/** Accumulated changes of one transaction: item tallies and pair tallies. */
export class CopurchaseDelta {
  readonly items = new Map<number, Tally>();
  readonly pairs = new Map<number, Map<number, Tally>>();

  add(basket: Basket, sign: 1 | -1): void {
    for (const i of basket.items) {
      addTo(this.items, i, sign * basket.itemWeight, sign);
      if (basket.items.length < 2) continue;
      const row = this.pairs.get(i) ?? new Map<number, Tally>();
      for (const j of basket.items) if (j !== i) addTo(row, j, sign * basket.pairWeight, sign);
      this.pairs.set(i, row);
    }
  }

  /**
   * Records a product added to a session's cart that already holds `cart`:
   * the cart is a basket being filled, worth CART_WEIGHT of an order.
   */
  addCartItem(cart: readonly number[], added: number, at: number, config: CopurchaseConfig): void {
    const partners = [...new Set(cart)].filter((id) => id !== added).slice(-MAX_BASKET_ITEMS);
    if (cart.includes(added)) return;
    const age = ageWeight(at, config);
    this.addToItem(added, CART_WEIGHT * age, 1);
    const pairWeight = CART_WEIGHT * age * (partners.length + 1) ** -config.basketSizeExponent;
    for (const partner of partners) {
      this.addToPair(added, partner, pairWeight, 1);
      this.addToPair(partner, added, pairWeight, 1);
    }
  }

  addToItem(id: number, weight: number, count: number): void {
    addTo(this.items, id, weight, count);
  }

  /** Adds to one direction of a pair (i's row, partner j). */
  addToPair(i: number, j: number, weight: number, count: number): void {
    let row = this.pairs.get(i);
    if (!row) this.pairs.set(i, (row = new Map<number, Tally>()));
    addTo(row, j, weight, count);
  }

  /** Records replacing `before` by `after` (either may be absent). */
  addOrderChange(before: Order | undefined, after: Order | undefined, config: CopurchaseConfig): void {
    const old = before ? basketOf(before, config) : null;
    const next = after ? basketOf(after, config) : null;
    if (old) this.add(old, -1);
    if (next) this.add(next, 1);
  }

  /** Products whose count or row changed: their neighbour lists need recomputing. */
  get touched(): Set<number> {
    return new Set([...this.items.keys(), ...this.pairs.keys()]);
  }
}

/** A scored list as stored: parallel arrays, compact in LMDB. */
export interface WeightedIds {
  ids: number[];
  weights: number[];
}

/** A co-occurrence row: partner ids with pair weights and basket counts. */
export interface PairRow extends WeightedIds {
  counts: number[];
}

export function applyRowDelta(row: PairRow | undefined, change: Map<number, Tally>): PairRow {
  const merged = new Map<number, Tally>();
  row?.ids.forEach((id, index) => merged.set(id, { weight: row.weights[index]!, count: row.counts[index]! }));
  for (const [id, tally] of change) addTo(merged, id, tally.weight, tally.count);
  const next: PairRow = { ids: [], weights: [], counts: [] };
  for (const [id, tally] of merged) {
    if (tally.count <= 0) continue;
    next.ids.push(id);
    next.weights.push(tally.weight);
    next.counts.push(tally.count);
  }
  return next;
}

/** An item's tally after a change; null once no basket holds it. */
export function applyItemDelta(current: Tally | undefined, change: Tally): Tally | null {
  const count = (current?.count ?? 0) + change.count;
  return count > 0 ? { weight: (current?.weight ?? 0) + change.weight, count } : null;
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
  // Scores equal up to float noise (the same counts summed in another order, as
  // an incremental update and a rebuild do) rank by id: both keep the same list.
  scored.sort((a, b) => (Math.abs(b[1] - a[1]) > 1e-9 * Math.max(Math.abs(a[1]), Math.abs(b[1])) ? b[1] - a[1] : a[0] - b[0]));
  const top = scored.slice(0, config.neighbours);
  return { ids: top.map(([id]) => id), weights: top.map(([, score]) => score) };
}

/** Weight of one undamped basket placed at `now`: the scale shrinkage is measured in. */
export function basketUnit(now: number, config: CopurchaseConfig): number {
  return config.halfLifeDays === null ? 1 : 2 ** ((now - EPOCH_MS) / DAY_MS / config.halfLifeDays);
}

/**
 * Scores for a set of input products: each input's neighbour scores, summed
 * (on validation, plain sums beat per-list normalisation and max).
 */
export function combineNeighbours(lists: WeightedIds[], exclude: ReadonlySet<number>): Map<number, number> {
  const scores = new Map<number, number>();
  for (const list of lists) {
    list.ids.forEach((id, index) => {
      if (exclude.has(id)) return;
      scores.set(id, (scores.get(id) ?? 0) + list.weights[index]!);
    });
  }
  return scores;
}

/** Every product's neighbour list from these baskets alone, in memory (a training's validation, from its earlier orders). */
export function copurchaseLists(baskets: readonly Basket[], config: CopurchaseConfig, unit: number): Map<number, WeightedIds> {
  const delta = new CopurchaseDelta();
  for (const basket of baskets) delta.add(basket, 1);
  const weightOf = (id: number) => delta.items.get(id)?.weight ?? 0;
  const lists = new Map<number, WeightedIds>();
  for (const [id, partners] of delta.pairs) {
    const row: WeightedIds = { ids: [...partners.keys()], weights: [...partners.values()].map((tally) => tally.weight) };
    const neighbours = topNeighbours(weightOf(id), row, weightOf, config, unit);
    if (neighbours.ids.length > 0) lists.set(id, neighbours);
  }
  return lists;
}
