// A tuning scores each validation case under dozens of settings from one
// neighbourhood per sample size, ranking it over typed arrays: both must give
// exactly what the endpoint's path gives (SessionKnn.query, blendRelated,
// hitRank), or the tuning would choose by figures the endpoint does not have.
// The endpoint's own ranking of the blend is checked against the plain map
// blend here too.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemorySessionSource } from "../../src/core/recs/memory-session-source.js";
import { hitRank } from "../../src/core/recs/next-item-figures.js";
import { DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN, SessionKnn } from "../../src/core/recs/session-knn.js";
import { TuningCase } from "../../src/core/recs/tuning-case.js";
import { rankRelated } from "../../src/recs/related-to-views.js";
import { blendRelatedReference } from "../helpers/blend-reference.js";
import { rankByScore } from "../../src/core/recs/sales.js";

const sessionsArb = fc.array(fc.array(fc.integer({ min: 0, max: 25 }), { minLength: 1, maxLength: 7 }), { minLength: 1, maxLength: 80 });
const settingArb = fc.record({
  base: fc.constantFrom(DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN),
  sampleSize: fc.integer({ min: 1, max: 40 }),
  neighbours: fc.integer({ min: 1, max: 30 }),
  extraNeighbours: fc.integer({ min: 0, max: 20 }),
  positionDecay: fc.constantFrom(0, 1, 5),
  idfWeight: fc.constantFrom(0, 1, 4),
  recencyFade: fc.constantFrom(0, 0.2, 3),
  boost: fc.constantFrom(0, 0.5, 2),
  copurchaseWeight: fc.constantFrom(0, 0.1, 0.3, 1),
});
// Bought-together scores, some on items no session viewed, some zero (a part with no positive score is left out).
const copurchaseArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.constantFrom(0, 1, 2, 3.5, 7)), { maxLength: 12 });

describe("a tuning's cases", () => {
  it("score and rank from a neighbourhood found once exactly as the endpoint's query, blend and hitRank do", () => {
    fc.assert(
      fc.property(
        sessionsArb,
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 30 }),
        copurchaseArb,
        settingArb,
        (sessions, prefix, next, copurchasePairs, drawn) => {
          const source = new MemorySessionSource(
            sessions.map((views) => Float64Array.from(views)),
            drawn.sampleSize + 3,
          );
          const knn = { ...drawn.base, ...pick(drawn, ["sampleSize", "neighbours", "positionDecay", "idfWeight", "recencyFade"]) };
          if (knn.remind) knn.boost = drawn.boost;
          const setting = { knn, copurchaseWeight: drawn.copurchaseWeight };
          const copurchase = new Map(copurchasePairs);
          const leftOut = knn.remind ? undefined : new Set(prefix);

          const endpoint = new SessionKnn();
          const expectedScores = endpoint.query(source, prefix, knn);
          const blended = blendRelatedReference(expectedScores, copurchase, setting);
          const expectedRank = hitRank(blended, next, leftOut);
          // The endpoint's ranking of the blend, summed in flat arrays, is the reference blend's.
          expect(rankRelated(expectedScores, copurchase, setting)).toEqual(rankByScore(blended));
          expect(rankRelated(expectedScores, copurchase, setting, 3)).toEqual(rankByScore(blended).slice(0, 3));

          const tuning = new SessionKnn();
          const hood = tuning.neighbourhood(source, prefix, knn.sampleSize, knn.neighbours + drawn.extraNeighbours);
          expect([...tuning.score(source, hood, knn)]).toEqual([...expectedScores]);
          const tuningCase = new TuningCase(hood, next, new Set(prefix), copurchase);
          const scratch = new Int32Array(hood.items.length);
          expect(tuningCase.rank(tuning.vote(source, hood, knn), setting.copurchaseWeight, !knn.remind, scratch)).toBe(expectedRank);
          expect(scratch.every((value) => value === 0)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}
