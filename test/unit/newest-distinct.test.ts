import { describe, expect, it } from "vitest";
import { NewestDistinct } from "../../src/core/recs/newest-distinct.js";

/** A deterministic generator (Park–Miller), so a failure replays. */
function generator(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48271) % 2147483647) / 2147483647;
}

/** The n-th largest distinct value, by a sort. */
function reference(numbers: readonly number[], n: number): number {
  const distinct = [...new Set(numbers)].sort((a, b) => b - a);
  return distinct.length >= n ? distinct[n - 1]! : Number.NEGATIVE_INFINITY;
}

describe("NewestDistinct", () => {
  it("finds the n-th largest distinct number as a sort does, over narrow and wide ranges, with repeats", () => {
    const random = generator(7);
    const finder = new NewestDistinct();
    // Ranges a bitmap covers (a few words per number) and ranges it does not (the sort).
    for (const range of [1, 40, 5_000, 200_000, 2 ** 31 - 1]) {
      for (const length of [1, 2, 33, 1_000, 5_000]) {
        for (const n of [1, 2, 100, 1_000]) {
          const base = Math.floor(random() * (2 ** 31 - 1 - range));
          const numbers = Array.from({ length }, () => base + Math.floor(random() * range));
          // Runs of repeats, as sessions sharing several products give.
          for (let i = 3; i < length; i += 5) numbers[i] = numbers[i - 3]!;
          expect(finder.nthLargest(Int32Array.from(numbers), n)).toBe(reference(numbers, n));
        }
      }
    }
  });

  it("leaves its bitmap clear for the next batch", () => {
    const finder = new NewestDistinct();
    expect(finder.nthLargest(Int32Array.from([10, 12, 14, 16]), 2)).toBe(14);
    expect(finder.nthLargest(Int32Array.from([11, 13]), 2)).toBe(11);
    expect(finder.nthLargest(Int32Array.from([11, 13]), 3)).toBe(Number.NEGATIVE_INFINITY);
    expect(finder.nthLargest(new Int32Array(0), 1)).toBe(Number.NEGATIVE_INFINITY);
  });
});
