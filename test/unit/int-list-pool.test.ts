import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IntListPool } from "../../src/core/recs/int-list-pool.js";

// Arrays drawn in full ("size: max": fast-check otherwise keeps them to a few entries, and nothing
// grows); a failure ends the run at once ("endOnFailure"): shrinking thousands of entries takes minutes.

function contents(pool: IntListPool, list: number): number[] {
  const start = pool.start(list);
  return Array.from(pool.data.subarray(start, start + pool.length(list)));
}

describe("IntListPool", () => {
  it("keeps every list's items in push order through moves and pool growth", () => {
    fc.assert(
      fc.property(
        // Pushes to lists interleaved at random, many to a few lists: slots move and the pool grows several times.
        fc.array(fc.tuple(fc.nat({ max: 40 }), fc.integer({ min: -1_000, max: 1_000 })), { maxLength: 3_000, size: "max" }),
        (pushes) => {
          const pool = new IntListPool();
          const expected: number[][] = [];
          for (const [target, value] of pushes) {
            const list = target < expected.length ? target : pool.add();
            if (list === expected.length) expected.push([]);
            pool.push(list, value);
            expected[list]!.push(value);
          }
          expect(pool.size).toBe(expected.length);
          expected.forEach((items, list) => expect(contents(pool, list)).toEqual(items));
        },
      ),
      { numRuns: 200, endOnFailure: true },
    );
  });

  it("holds a million short lists in a few ints each", () => {
    const pool = new IntListPool();
    for (let list = 0; list < 1_000_000; list++) {
      pool.add();
      for (let i = 0; i < 6; i++) pool.push(list, list + i);
    }
    expect(contents(pool, 999_999)).toEqual([999_999, 1_000_000, 1_000_001, 1_000_002, 1_000_003, 1_000_004]);
    // Six items in slots of eight, the pool half again its live part, and three ints of bookkeeping.
    expect(pool.allocatedInts / 1_000_000).toBeLessThan(20);
  });
});
