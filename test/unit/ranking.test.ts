import { describe, expect, it } from "vitest";
import { Ranking, selectFirst } from "../../src/core/recs/ranking.js";
import { rankByScore } from "../../src/core/recs/sales.js";

/** Scores with many ties (small integers, as units sold are) and some left out (zero). */
function scored(count: number, seed: number): { ids: number[]; scores: Float64Array } {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const ids = Array.from({ length: count }, (_, slot) => 7_100_000_000_000 + Math.floor(next() * 1e9) * 16 + slot);
  const scores = Float64Array.from({ length: count }, () => Math.floor(-Math.log(next() + 1e-9) * 3));
  return { ids, scores };
}

const reference = (ids: number[], scores: Float64Array) => rankByScore(new Map(ids.map((id, slot) => [id, scores[slot]!])));

describe("Ranking", () => {
  it("ranks like a full sort (score, then id), whether read in part, in full or both", () => {
    for (const [count, seed] of [
      [0, 1],
      [1, 2],
      [255, 3],
      [256, 4],
      [257, 5],
      [5_000, 6],
      [40_000, 7],
    ] as const) {
      const { ids, scores } = scored(count, seed);
      const expected = reference(ids, scores);
      expect(Ranking.of(ids, scores).all()).toEqual(expected);
      expect([...Ranking.of(ids, scores)]).toEqual(expected);
      const partly = Ranking.of(ids, scores);
      const head: number[] = [];
      for (const id of partly) if (head.push(id) === 300) break;
      expect(head).toEqual(expected.slice(0, 300));
      expect(partly.all()).toEqual(expected);
      expect(partly.size).toBe(expected.length);
    }
  });

  it("keeps only the scores `keep` accepts", () => {
    const ranking = Ranking.of([10, 11, 12, 13], [3, -1, 0, 3], (score) => score !== 0);
    expect(ranking.all()).toEqual([10, 13, 11]);
  });
});

describe("selectFirst", () => {
  it("puts the k first items in front, for every k, on sorted, reversed and shuffled input", () => {
    const before = (a: number, b: number) => a - b;
    const inputs = [
      Int32Array.from({ length: 200 }, (_, i) => i),
      Int32Array.from({ length: 200 }, (_, i) => 199 - i),
      scored(200, 9).ids.map((id) => id % 1000),
    ];
    for (const input of inputs) {
      const sorted = Int32Array.from(input).sort(before);
      for (let k = 1; k <= input.length; k += 7) {
        const items = Int32Array.from(input);
        selectFirst(items, k, (a, b) => before(a, b));
        expect([...items.subarray(0, k)].sort(before)).toEqual([...sorted.subarray(0, k)]);
        expect([...items].sort(before)).toEqual([...sorted]);
      }
    }
  });
});
