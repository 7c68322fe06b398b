// Seeded randomness for the demo: one reproducible stream per part of the shop,
// weighted sampling over fixed weights, and ids shaped like the platform's.

import { Rng } from "../core/random.js";

/** Independent stream per purpose: FNV-1a of the label mixed with the seed (both halves). */
export function stream(seed: number, label: string): Rng {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  const hi = Math.floor(seed / 4294967296) | 0;
  return new Rng(h ^ Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77));
}

/** Bounds-checked index, because noUncheckedIndexedAccess and because a bug here should be loud. */
export function at<T>(items: readonly T[], index: number): T {
  const value = items[index];
  if (value === undefined) throw new RangeError(`index ${index} out of range (${items.length})`);
  return value;
}

/** Running totals of the weights: what weighted picks search. */
export function runningTotals(weights: readonly number[]): number[] {
  let total = 0;
  return weights.map((w) => (total += w));
}

/** Index of the first running total above `target` (binary search), or -1 when none is. */
export function firstAbove(totals: ArrayLike<number>, target: number): number {
  let lo = 0;
  let hi = totals.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((totals[mid] ?? 0) > target) hi = mid;
    else lo = mid + 1;
  }
  return lo < totals.length ? lo : -1;
}

/** Draws item indices in proportion to fixed weights in O(log n) (cumulative sums + binary search). */
export class Sampler {
  private readonly cumulative: Float64Array;
  private readonly items: Int32Array;

  constructor(items: readonly number[], weight: (item: number) => number) {
    this.items = Int32Array.from(items);
    this.cumulative = new Float64Array(items.length);
    let total = 0;
    items.forEach((item, i) => {
      total += Math.max(0, weight(item));
      this.cumulative[i] = total;
    });
  }

  /** -1 when empty. */
  sample(rng: Rng): number {
    const n = this.items.length;
    if (n === 0) return -1;
    const found = firstAbove(this.cumulative, rng.next() * (this.cumulative[n - 1] ?? 0));
    // None above the target only when every weight is zero (or it rounded up to the total): take the last.
    return this.items[found < 0 ? n - 1 : found] ?? -1;
  }
}

/** Ids that look like the platform's: large, increasing over time, with gaps. */
export class IdSequence {
  constructor(
    private next: number,
    private readonly maxGap: number,
    private readonly rng: Rng,
  ) {}

  take(): number {
    const id = this.next;
    this.next += 1 + Math.floor(this.rng.next() * this.maxGap);
    return id;
  }
}

/**
 * Zipf-like weights (rank + offset)^-s over a random ranking: a few products take
 * a large share, a long tail sells rarely. Index i's weight; rank 0 is the best seller.
 */
export function zipfWeights(n: number, s: number, offset: number, rng: Rng): number[] {
  const ranks = rng.shuffle(Array.from({ length: n }, (_, i) => i));
  return ranks.map((rank) => Math.pow(rank + offset, -s));
}
