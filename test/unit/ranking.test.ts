import { describe, expect, it } from "vitest";
import { ItemScores } from "../../src/core/recs/item-scores.js";
import fc from "fast-check";
import { combineNeighbours, type WeightedIds } from "../../src/core/recs/copurchase.js";
import { byScoreThenId, rankedSlots, selectFirst, storedRanking } from "../../src/core/recs/ranking.js";
import { rankByScore, rankByScoreLazily } from "../../src/core/recs/sales.js";

/** Scores with many ties (small integers, as units sold are) and some left out (zero). */
function scored(count: number, seed: number): { ids: number[]; scores: Float64Array } {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const ids = Array.from({ length: count }, (_, slot) => 7_100_000_000_000 + Math.floor(next() * 1e9) * 16 + slot);
  const scores = Float64Array.from({ length: count }, () => Math.floor(-Math.log(next() + 1e-9) * 3));
  return { ids, scores };
}

/** Ids of positive score by a full sort: the higher score first, ties by the smaller id. */
const reference = (ids: number[], scores: Float64Array) =>
  ids
    .map((id, slot) => ({ id, score: scores[slot]! }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => (a.score !== b.score ? b.score - a.score : a.id - b.id))
    .map(({ id }) => id);

describe("rankedSlots", () => {
  it("ranks the slots of positive score like a full sort by score, then product id", () => {
    for (const [count, seed] of [
      [0, 1],
      [1, 2],
      [257, 5],
      [5_000, 6],
      [40_000, 7],
    ] as const) {
      const { ids, scores } = scored(count, seed);
      expect(Array.from(rankedSlots(ids, scores), (slot) => ids[slot])).toEqual(reference(ids, scores));
    }
  });
});

describe("rankByScore", () => {
  it("ranks a map's positive scores like a full sort by score, then product id, the first `count` of them when asked", () => {
    for (const [count, seed] of [
      [0, 1],
      [1, 2],
      [257, 5],
      [5_000, 6],
    ] as const) {
      const { ids, scores } = scored(count, seed);
      const map = new Map(ids.map((id, slot) => [id, scores[slot]!]));
      const flat = new ItemScores(Float64Array.from(ids), scores);
      for (const scored of [map, flat]) {
        expect(rankByScore(scored)).toEqual(reference(ids, scores));
        expect(rankByScore(scored, { count: 20 })).toEqual(reference(ids, scores).slice(0, 20));
        expect([...rankByScoreLazily(scored)]).toEqual(reference(ids, scores));
      }
    }
  });
});

describe("rankByScoreLazily", () => {
  it("reads as the full sort, whole or in part, however many it sorts at a time", () => {
    for (const [count, seed] of [
      [0, 1],
      [1, 2],
      [16, 3],
      [17, 4],
      [81, 8],
      [257, 5],
      [5_000, 6],
    ] as const) {
      const { ids, scores } = scored(count, seed);
      const map = new Map(ids.map((id, slot) => [id, scores[slot]!]));
      const full = reference(ids, scores);
      expect([...rankByScoreLazily(map)]).toEqual(full);
      const read: number[] = [];
      for (const id of rankByScoreLazily(map)) if (read.push(id) === 20) break;
      expect(read).toEqual(full.slice(0, 20));
    }
  });
});

describe("storedRanking", () => {
  /** Lists with ties, non-positive weights, repeated ids and the excluded id (7) among small ids. */
  const listArb = fc
    .array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.constantFrom(-0.5, 0, 0.25, 0.5, 0.5, 1, 2)), { maxLength: 24 })
    .map((entries) => ({ ids: entries.map(([id]) => id), weights: entries.map(([, weight]) => weight) }));
  const sortedUnique = (list: WeightedIds): WeightedIds => {
    const byId = new Map(list.ids.map((id, at) => [id, list.weights[at]!]));
    const entries = [...byId].sort(([a, x], [b, y]) => byScoreThenId(x, y, a, b));
    return { ids: entries.map(([id]) => id), weights: entries.map(([, weight]) => weight) };
  };
  /** The general ranking, as the endpoints read it (lazily) and whole: the two must agree too. */
  const general = (list: WeightedIds) => {
    const whole = rankByScore(combineNeighbours([list], new Set([7])));
    expect([...rankByScoreLazily(combineNeighbours([list], new Set([7])))]).toEqual(whole);
    return whole;
  };
  /** Lists as stored data could hold them at worst: a weight missing at the end, or NaN. */
  const damagedArb = fc.tuple(listArb, fc.constantFrom("short", "nan"), fc.nat()).map(([list, damage, at]) => {
    if (list.ids.length === 0) return list;
    const position = at % list.ids.length;
    const weights = damage === "short" ? list.weights.slice(0, position) : list.weights.map((w, i) => (i === position ? Number.NaN : w));
    return { ids: list.ids, weights };
  });

  it("ranks a list stored in rank order exactly as the general ranking of its weights does", () => {
    fc.assert(
      fc.property(listArb, (drawn) => {
        const list = sortedUnique(drawn);
        expect(storedRanking(list, 7)).toEqual(general(list));
      }),
    );
  });

  it("gives the general ranking or declines (null) for any list, and declines repeats, disorder, holes and NaN", () => {
    // Sorted lists made unsorted, repeated or damaged in one place: often close to the order, so the check is what decides.
    const nearlySorted = fc.tuple(listArb, fc.nat(), fc.nat()).map(([drawn, i, j]) => {
      const list = sortedUnique(drawn);
      if (list.ids.length < 2) return list;
      const ids = [...list.ids];
      ids[i % ids.length] = ids[j % ids.length]!;
      return { ids, weights: list.weights };
    });
    fc.assert(
      fc.property(
        fc.oneof(
          listArb,
          nearlySorted,
          damagedArb.map((list) => sortedUnique({ ids: list.ids, weights: list.weights })),
        ),
        (list) => {
          const stored = storedRanking(list, 7);
          if (stored !== null) expect(stored).toEqual(general(list));
        },
      ),
    );
    fc.assert(
      fc.property(damagedArb, (list) => {
        if (list.weights.length < list.ids.length || list.weights.some(Number.isNaN)) expect(storedRanking(list, 7)).toBeNull();
      }),
    );
    expect(storedRanking({ ids: [3, 4, 3], weights: [2, 1, 0.5] }, 7)).toBeNull();
    expect(storedRanking({ ids: [3, 4], weights: [1, 2] }, 7)).toBeNull();
    expect(storedRanking({ ids: [4, 3], weights: [1, 1] }, 7)).toBeNull();
    expect(storedRanking({ ids: [3, 4], weights: [Number.NaN, 1] }, 7)).toBeNull();
    expect(storedRanking({ ids: [1, 2, 3], weights: [1] }, 7)).toBeNull();
    expect(storedRanking({ ids: [3, 4, 7, 5], weights: [2, 1, 1, 0] }, 7)).toEqual([3, 4]);
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
