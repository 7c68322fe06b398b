import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SESSION_KNN,
  REMINDING_SESSION_KNN,
  SessionIndex,
  topInOrder,
  type SessionKnnConfig,
} from "../../src/core/recs/session-knn.js";

/**
 * V-SKNN as first written here, with maps and sets and full sorts: the
 * reference the scratch-array version must match exactly (same scores, same
 * order of first vote), since rankings break ties by that order.
 */
function referenceQuery(sessions: number[][], prefix: readonly number[], config: SessionKnnConfig, self = -1): Map<number, number> {
  const postings: number[][] = [];
  sessions.forEach((items, session) => {
    const seen = new Set<number>();
    for (const item of items) {
      while (postings.length <= item) postings.push([]);
      if (!seen.has(item)) postings[item]!.push(session);
      seen.add(item);
    }
  });
  const weights = new Map<number, number>();
  const steps = new Map<number, number>();
  prefix.forEach((item, p) => {
    if (item >= postings.length) return;
    weights.set(item, (p + 1) / prefix.length);
    steps.set(item, prefix.length - p);
  });
  const similarity = new Map<number, number>();
  for (const [item, weight] of weights) {
    const posting = postings[item]!;
    for (let k = posting.length - 1; k >= Math.max(0, posting.length - config.sampleSize); k--) {
      const session = posting[k]!;
      if (session !== self) similarity.set(session, (similarity.get(session) ?? 0) + weight);
    }
  }
  const sample = [...similarity.keys()].sort((a, b) => b - a).slice(0, config.sampleSize);
  sample.sort((a, b) => similarity.get(b)! - similarity.get(a)! || b - a);
  const scores = new Map<number, number>();
  const newest = sessions.length - 1;
  for (const session of sample.slice(0, config.neighbours)) {
    const list = sessions[session]!;
    let nearest = Number.POSITIVE_INFINITY;
    let anchor = -1;
    list.forEach((item, i) => {
      const step = steps.get(item) ?? Number.POSITIVE_INFINITY;
      if (step < nearest || (step === nearest && i > anchor)) [nearest, anchor] = [step, i];
    });
    if (nearest === Number.POSITIVE_INFINITY) continue;
    let vote = similarity.get(session)! / nearest;
    if (config.recencyScale > 0) vote *= Math.exp(-(newest - session) / config.recencyScale);
    const voted = new Set<number>();
    list.forEach((item, i) => {
      if (voted.has(item) || (!config.remind && steps.has(item))) return;
      voted.add(item);
      const position = config.positionDecay > 0 ? Math.exp(-Math.abs(i - anchor) / config.positionDecay) : 1;
      scores.set(item, (scores.get(item) ?? 0) + vote * position);
    });
  }
  if (config.idfWeight > 0 && sessions.length > 1) {
    for (const [item, score] of scores) {
      const idf = Math.log(sessions.length / Math.max(1, postings[item]?.length ?? 1)) / Math.log(sessions.length);
      scores.set(item, score * (1 + config.idfWeight * idf));
    }
  }
  if (config.remind && config.boost > 0) {
    const best = Math.max(0, ...scores.values());
    if (best > 0) for (const [item, score] of scores) scores.set(item, score / best);
    prefix.forEach((item, p) => scores.set(item, (scores.get(item) ?? 0) + config.boost * config.boostDecay ** (prefix.length - p - 1)));
  }
  return scores;
}

const sessionsArb = fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 120 });
const configArb = fc.record({
  base: fc.constantFrom(DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN),
  sampleSize: fc.integer({ min: 1, max: 60 }),
  neighbours: fc.integer({ min: 1, max: 40 }),
});

describe("session kNN query", () => {
  it("scores exactly as the map-and-sort reference, in the same order, over queries that reuse its scratch", () => {
    fc.assert(
      fc.property(
        sessionsArb,
        fc.array(fc.array(fc.integer({ min: 0, max: 35 }), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        configArb,
        (sessions, prefixes, { base, sampleSize, neighbours }) => {
          const config = { ...base, sampleSize, neighbours, recencyScale: 50 };
          const index = new SessionIndex();
          // Sessions of over four items and the postings of items, which grow interleaved, move in the index's pools.
          for (const items of sessions) {
            const session = index.newSession();
            for (const item of items) index.append(session, item);
          }
          prefixes.forEach((prefix, q) => {
            const self = q % 2 === 0 ? -1 : q % sessions.length;
            expect([...index.query(prefix, config, self)]).toEqual([...referenceQuery(sessions, prefix, config, self)]);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("topInOrder gives the head of a full sort", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 300 }),
        fc.integer({ min: 0, max: 320 }),
        (values, count) => {
          const order = (a: number, b: number) => (a % 7) - (b % 7) || b - a;
          expect(topInOrder([...values], count, order)).toEqual([...values].sort(order).slice(0, count));
        },
      ),
    );
  });
});
