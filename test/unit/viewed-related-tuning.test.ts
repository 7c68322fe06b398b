// The pieces a shop's viewed-related tuning and `aisle eval sessions` are made
// of: the carving of next-item cases, the figures, the bounded search, the
// in-memory index the tuning queries, S-POP and the bootstrap interval.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coordinateDescent, type Dimension } from "../../src/core/recs/coordinate-descent.js";
import { MemorySessionSource } from "../../src/core/recs/memory-session-source.js";
import { carveNextItemCases } from "../../src/core/recs/next-item-cases.js";
import { FiguresTally, hitRank } from "../../src/core/recs/next-item-figures.js";
import { rankByScore } from "../../src/core/recs/sales.js";
import { DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN, SessionKnn } from "../../src/core/recs/session-knn.js";
import { sessionPopularity } from "../../src/core/recs/session-popularity.js";
import { groupedBootstrapInterval } from "../../src/core/bootstrap.js";
import { tuneDue, MIN_SESSIONS_TO_TUNE } from "../../src/recs/viewed-related-tuner.js";
import {
  RERANKER_FORMAT,
  tunedByEarlierBuild,
  type RerankerSummary,
  type ViewedRelatedTuning,
} from "../../src/stores/viewed-related-tuning.js";
import { referenceQuery } from "../helpers/session-knn-reference.js";

describe("carveNextItemCases", () => {
  it("holds out the most recent share, drops items the earlier sessions never viewed, and makes a case per prefix", () => {
    const sessions = [[1, 2], [2, 3], [3, 1], [1, 9, 2, 3], [4], [2, 2, 1]];
    const { train, cases } = carveNextItemCases(sessions, 0.5);
    expect(train).toEqual([
      [1, 2],
      [2, 3],
      [3, 1],
    ]);
    expect(cases).toEqual([
      { prefix: [1], next: 2, session: 0 },
      { prefix: [1, 2], next: 3, session: 0 },
      { prefix: [2], next: 2, session: 2 },
      { prefix: [2, 2], next: 1, session: 2 },
    ]);
  });
});

describe("hitRank", () => {
  it("is the target's place in rankByScore's order, left-out items not counted", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: -1, max: 4 })), { maxLength: 25 }),
        fc.integer({ min: 0, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 4 }),
        (entries, target, leftOut) => {
          const scores = new Map(entries);
          const ranked = rankByScore(scores).filter((item) => !leftOut.includes(item));
          expect(hitRank(scores, target, new Set(leftOut))).toBe(ranked.indexOf(target));
        },
      ),
    );
  });

  it("tallies HR@20 and MRR@20 in percent", () => {
    const tally = new FiguresTally();
    [0, 1, 19, 20, -1].forEach((rank) => tally.add(rank));
    const figures = tally.figures();
    expect(figures.cases).toBe(5);
    expect(figures.hr).toBeCloseTo(60);
    expect(figures.mrr).toBeCloseTo((100 * (1 + 1 / 2 + 1 / 20)) / 5);
  });
});

describe("coordinateDescent", () => {
  type Point = { x: number; y: number };
  const dims: Dimension<Point>[] = [
    { name: "x", values: [0, 1, 2, 3, 4], with: (p, x) => ({ ...p, x }) },
    { name: "y", values: [0, 1, 2, 3, 4], with: (p, y) => ({ ...p, y }) },
  ];
  // Best at x = 3, y = 1; x and y interact, so a second pass is needed.
  const evaluate = ({ x, y }: Point) => ({ hr: 50 - (x - 3) ** 2 - (y - 1) ** 2 - (x - 3) * (y - 1) * 0.5, mrr: 0, cases: 1 });

  it("finds the best setting over the dimensions from the start", () => {
    const result = coordinateDescent({ x: 0, y: 4 }, dims, evaluate, { maxEvaluations: 100, maxPasses: 5 });
    expect(result.best).toEqual({ x: 3, y: 1 });
    expect(result.figures.hr).toBe(50);
    expect(result.start.hr).toBe(evaluate({ x: 0, y: 4 }).hr);
  });

  it("scores at most maxEvaluations settings, and never a worse setting than the start", () => {
    let calls = 0;
    const counted = (p: Point) => (calls++, evaluate(p));
    const result = coordinateDescent({ x: 0, y: 4 }, dims, counted, { maxEvaluations: 4, maxPasses: 5 });
    expect(calls).toBe(4);
    expect(result.evaluated).toBe(4);
    expect(result.figures.hr).toBeGreaterThanOrEqual(result.start.hr);
  });
});

describe("MemorySessionSource", () => {
  it("answers session kNN as the reference over the same sessions does", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 25 }), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 80 }),
        fc.array(fc.integer({ min: 0, max: 28 }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN),
        (sessions, prefix, config) => {
          const source = new MemorySessionSource(
            sessions.map((views) => Float64Array.from(views)),
            config.sampleSize,
          );
          const views = sessions.flatMap((items, session) => items.map((item) => ({ session, item })));
          expect([...new SessionKnn().query(source, prefix, config)]).toEqual([...referenceQuery(views, prefix, config)]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("sessionPopularity (S-POP)", () => {
  it("ranks the session's own items by views in it, then the latest, then popular items it did not view", () => {
    expect(sessionPopularity([5, 7, 5, 9, 7, 8], [1, 5, 2, 3], 6, true)).toEqual([7, 5, 8, 9, 1, 2]);
    expect(sessionPopularity([5, 7], [1, 5, 2, 3], 2, false)).toEqual([1, 2]);
  });
});

describe("groupedBootstrapInterval", () => {
  it("brackets the mean, is the same for a seed, and is a point when every group has the same mean", () => {
    const values: number[] = Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? 100 : 0));
    const groups = values.map((_, i) => Math.floor(i / 4));
    const [low, high] = groupedBootstrapInterval(values, groups, 7);
    const mean = values.reduce((a, b) => a + b) / values.length;
    expect(low).toBeLessThan(mean);
    expect(high).toBeGreaterThan(mean);
    expect(groupedBootstrapInterval(values, groups, 7)).toEqual([low, high]);
    expect(groupedBootstrapInterval([1, 3, 2, 2], [0, 0, 1, 1], 7)).toEqual([2, 2]);
  });
});

describe("tuneDue", () => {
  it("tunes a shop with enough sessions, then again once they grew by half or by a quarter million", () => {
    expect(tuneDue(MIN_SESSIONS_TO_TUNE - 1, undefined)).toBe(false);
    expect(tuneDue(MIN_SESSIONS_TO_TUNE, undefined)).toBe(true);
    expect(tuneDue(14_999, 10_000)).toBe(false);
    expect(tuneDue(15_000, 10_000)).toBe(true);
    expect(tuneDue(1_249_999, 1_000_000)).toBe(false);
    expect(tuneDue(1_250_000, 1_000_000)).toBe(true);
  });

  it("tunes again at once a shop an earlier build tuned (no re-ranker, or one in a format this build refuses)", () => {
    expect(tuneDue(10_001, 10_000, true)).toBe(true);
    expect(tuneDue(MIN_SESSIONS_TO_TUNE - 1, 500, true)).toBe(false);
    const tuning = (rerankers: ViewedRelatedTuning["rerankers"]) => ({ rerankers }) as ViewedRelatedTuning;
    const summary = (format: string) => ({ format }) as RerankerSummary;
    expect(tunedByEarlierBuild(tuning(undefined))).toBe(true);
    expect(tunedByEarlierBuild(tuning({ served: summary("aisle-viewed-reranker-1"), protocol: null }))).toBe(true);
    expect(tunedByEarlierBuild(tuning({ served: summary(RERANKER_FORMAT), protocol: null }))).toBe(false);
    expect(tunedByEarlierBuild(tuning({ served: null, protocol: null }))).toBe(false);
  });
});
