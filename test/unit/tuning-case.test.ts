// A tuning scores each validation case under dozens of settings from one
// neighbourhood per sample size, ranking it over typed arrays: every setting
// must get exactly what the plain reference gives (V-SKNN with maps and full
// sorts, a map blend, a full sort of it), or the tuning would choose by
// figures the endpoint does not have. The endpoint's own ranking of the blend
// (rankRelated) is checked against the same reference.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankBlend, rankBlendLazily } from "../../src/core/recs/blend.js";
import { MemorySessionSource } from "../../src/core/recs/memory-session-source.js";
import { DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN, SessionKnn, type SessionKnnConfig } from "../../src/core/recs/session-knn.js";
import { TuningCase } from "../../src/core/recs/tuning-case.js";
import { rankRelated, rankRelatedLazily } from "../../src/recs/related-to-views.js";
import { blendRelatedReference } from "../helpers/blend-reference.js";
import { referenceQuery } from "../helpers/session-knn-reference.js";

/** Ids by descending score, ties by the smaller id, positive scores only: a full sort of the entries. */
function sortedReference(scores: ReadonlyMap<number, number>): number[] {
  return [...scores]
    .filter(([, score]) => score > 0)
    .sort(([a, x], [b, y]) => (x !== y ? y - x : a - b))
    .map(([id]) => id);
}

/** hitRank as the protocol defines it: the target's place in the full sort, left-out items removed (-1: absent). */
function rankReference(scores: ReadonlyMap<number, number>, target: number, leftOut?: ReadonlySet<number>): number {
  return sortedReference(scores)
    .filter((id) => !leftOut?.has(id) || id === target)
    .indexOf(leftOut?.has(target) ? Number.NaN : target);
}

const sessionsArb = fc.array(fc.array(fc.integer({ min: 0, max: 25 }), { minLength: 1, maxLength: 7 }), {
  minLength: 1,
  maxLength: 80,
  size: "max",
});
// Settings scored on one neighbourhood, as a tuning's search does: mostly few neighbours, so the neighbourhood holds more.
const settingArb = fc.record({
  neighbours: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 6, max: 30 })),
  positionDecay: fc.constantFrom(0, 1, 5),
  idfWeight: fc.constantFrom(0, 1, 4),
  recencyFade: fc.constantFrom(0, 0.2, 3),
  boost: fc.constantFrom(0, 0.5, 2),
  copurchaseWeight: fc.constantFrom(0, 0.1, 0.3, 1),
});
// Bought-together scores, some on items no session viewed, some zero (a part with no positive score is left out).
const copurchaseArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.constantFrom(0, 1, 2, 3.5, 7)), { maxLength: 12 });

describe("a tuning's cases", () => {
  it("rank a next view under every setting scored on one neighbourhood exactly as the plain reference does", () => {
    fc.assert(
      fc.property(
        sessionsArb,
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 30 }),
        copurchaseArb,
        fc.boolean(),
        fc.integer({ min: 1, max: 40 }),
        fc.array(settingArb, { minLength: 1, maxLength: 6 }),
        (sessions, prefix, drawnNext, copurchasePairs, remind, sampleSize, settings) => {
          const source = new MemorySessionSource(
            sessions.map((views) => Float64Array.from(views)),
            sampleSize + 3,
          );
          // The stream the reference reads: each session's views in turn, so sessions are numbered as the source numbers them.
          const views = sessions.flatMap((items, session) => items.map((item) => ({ session, item })));
          // A next view the sessions or bought-together know, mostly.
          const next = drawnNext % 3 === 0 ? drawnNext : (sessions[drawnNext % sessions.length]![0] ?? drawnNext);
          const copurchase = new Map(copurchasePairs);
          const leftOut = remind ? undefined : new Set(prefix);

          const knn = new SessionKnn();
          const most = Math.max(...settings.map((s) => s.neighbours));
          const hood = knn.neighbourhood(source, prefix, sampleSize, most);
          const tuningCase = new TuningCase(hood, next, new Set(prefix), copurchase);
          const scratch = new Int32Array(hood.items.length);
          for (const drawn of settings) {
            const base = remind ? REMINDING_SESSION_KNN : DEFAULT_SESSION_KNN;
            const config: SessionKnnConfig = { ...base, ...drawn, sampleSize, boost: remind ? drawn.boost : 0 };
            const setting = { knn: config, copurchaseWeight: drawn.copurchaseWeight };
            const expectedScores = referenceQuery(views, prefix, config);
            const blended = blendRelatedReference(expectedScores, copurchase, setting);

            const scores = knn.score(source, hood, config);
            expect([...scores]).toEqual([...expectedScores]);
            // The endpoint ranks session kNN's own answer (flat arrays, read in place), not a Map.
            expect([...rankRelatedLazily(scores, copurchase, setting)]).toEqual(sortedReference(blended));
            expect(tuningCase.rank(knn.vote(source, hood, config), setting.copurchaseWeight, !remind, scratch)).toBe(
              rankReference(blended, next, leftOut),
            );
            expect(scratch.every((value) => value === 0)).toBe(true);
            expect([...rankRelatedLazily(expectedScores, copurchase, setting)]).toEqual(sortedReference(blended));
            expect(rankRelated(expectedScores, copurchase, setting, Number.POSITIVE_INFINITY)).toEqual(sortedReference(blended));
            expect(rankRelated(expectedScores, copurchase, setting, 3)).toEqual(sortedReference(blended).slice(0, 3));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("refuses a setting that asks more of a neighbourhood than it was found with", () => {
    const source = new MemorySessionSource([Float64Array.from([1, 2]), Float64Array.from([1, 3])], 10);
    const knn = new SessionKnn();
    const hood = knn.neighbourhood(source, [1], 5, 2);
    expect(() => knn.vote(source, hood, { ...DEFAULT_SESSION_KNN, sampleSize: 5, neighbours: 3 })).toThrow(RangeError);
    expect(() => knn.vote(source, hood, { ...DEFAULT_SESSION_KNN, sampleSize: 4, neighbours: 2 })).toThrow(RangeError);
    expect(knn.vote(source, hood, { ...DEFAULT_SESSION_KNN, sampleSize: 5, neighbours: 1 }).count).toBe(1);
  });
});

describe("rankBlend", () => {
  it("ranks a blend of thousands of products (its scratch grows) as a full sort of the map blend", () => {
    const ids = Array.from({ length: 3_000 }, (_, k) => 7_100_000_000_000 + k * 7919);
    const first = new Map(ids.slice(0, 2_000).map((id, k) => [id, (k % 17) + 1]));
    const second = new Map(ids.slice(1_000).map((id, k) => [id, (k % 5) * 0.5]));
    const blended = blendRelatedReference(first, second, { knn: DEFAULT_SESSION_KNN, copurchaseWeight: 0.3 });
    const parts = [
      { scores: first, weight: 1 },
      { scores: second, weight: 0.3 },
    ];
    expect(rankBlend(parts)).toEqual(sortedReference(blended));
    expect(rankBlend(parts, 10)).toEqual(sortedReference(blended).slice(0, 10));
  });

  it("ranks lazily as it ranks whole, also when another blend is built before the first is read", () => {
    const ids = Array.from({ length: 1_500 }, (_, k) => 7_100_000_000_000 + k * 7919);
    const partsOf = (shift: number) => [
      { scores: new Map(ids.map((id, k) => [id, ((k + shift) % 13) + 1])), weight: 1 },
      { scores: new Map(ids.slice(500).map((id, k) => [id, ((k * shift) % 7) * 0.5])), weight: 0.3 },
    ];
    const [a, b] = [partsOf(1), partsOf(5)];
    const expected = rankBlend(a);
    // The second blend reuses the thread's scratch before the first is read: what the first reads must be its own.
    const lazilyA = rankBlendLazily(a);
    const lazilyB = rankBlendLazily(b);
    expect([...lazilyA]).toEqual(expected);
    expect([...lazilyB]).toEqual(rankBlend(b));
  });
});
