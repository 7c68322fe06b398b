import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bestScore, ItemScores } from "../../src/core/recs/item-scores.js";

describe("ItemScores", () => {
  it("answers as a Map of the same entries: size, get of present and absent items, order, best score", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 53 - 1 }), { maxLength: 300, size: "max" }),
        fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 300, maxLength: 300 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 53 - 1 }), { maxLength: 20 }),
        (items, drawnScores, others) => {
          const scores = items.map((_, k) => drawnScores[k]!);
          const map = new Map(items.map((item, k) => [item, scores[k]!]));
          const flat = new ItemScores(Float64Array.from(items), Float64Array.from(scores));
          expect(flat.size).toBe(map.size);
          for (const item of [...items, ...others]) expect(flat.get(item)).toBe(map.get(item));
          expect([...flat]).toEqual([...map]);
          const visited: [number, number][] = [];
          flat.forEach((score, item) => visited.push([item, score]));
          expect(visited).toEqual([...map]);
          expect(bestScore(flat)).toBe(Math.max(0, ...scores));
          expect(bestScore(map)).toBe(Math.max(0, ...scores));
        },
      ),
    );
  });
});
