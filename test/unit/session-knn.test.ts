import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { topInOrder } from "../../src/core/recs/ranking.js";
import { DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN, SessionKnn, type SessionSource } from "../../src/core/recs/session-knn.js";
import { referenceQuery, sessionsOfStream, type View } from "../helpers/session-knn-reference.js";

/** The stream's sessions as a store would keep them: each item's `kept` most recent sessions, exact counts. */
function keptSource(views: readonly View[], kept: number): SessionSource {
  const { sessions, postings } = sessionsOfStream(views);
  return {
    sessionCount: sessions.length,
    newestSession: sessions.length - 1,
    recentSessionsWith: (item) => {
      const posting = postings.get(item);
      return posting === undefined ? null : Int32Array.from(posting.slice(-kept));
    },
    sessionCountWith: (item) => postings.get(item)?.length ?? 0,
    viewsOf: (session) => (sessions[session] === undefined ? null : Float64Array.from(sessions[session])),
  };
}

/** Product ids past 2³² (as real ones are), so scratch slots key them by both halves. */
const BIG = 7_100_000_000_000;

const sessionsArb = fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 8 }), {
  minLength: 1,
  maxLength: 120,
  size: "max",
});
const configArb = fc.record({
  base: fc.constantFrom(DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN),
  sampleSize: fc.integer({ min: 1, max: 60 }),
  neighbours: fc.integer({ min: 1, max: 40 }),
});

describe("session kNN query", () => {
  it("scores exactly as the map-and-sort reference over all sessions, in the same order, from a source keeping each item's sample", () => {
    fc.assert(
      fc.property(
        sessionsArb,
        fc.array(fc.array(fc.integer({ min: 0, max: 35 }), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        configArb,
        fc.integer({ min: 0, max: 5 }),
        fc.integer(),
        (sessions, prefixes, { base, sampleSize, neighbours }, extraKept, seed) => {
          const config = { ...base, sampleSize, neighbours, recencyFade: 0.5 };
          // Sessions interleaved, as live traffic sends them: an item's sessions are then not in arrival order.
          const views = interleave(sessions, seed).map(({ session, item }) => ({ session, item: BIG + item }));
          const source = keptSource(views, sampleSize + extraKept);
          // One instance for every query: each reuses the scratch the one before left.
          const knn = new SessionKnn();
          prefixes.forEach((prefix, q) => {
            const items = prefix.map((item) => BIG + item);
            const self = q % 2 === 0 ? null : q % sessions.length;
            const selfNumber = self === null ? -1 : sessionsOfStream(views).numbers.get(self)!;
            expect([...knn.query(source, items, config, selfNumber)]).toEqual([...referenceQuery(views, items, config, self)]);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("topInOrder gives the head of a full sort", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 300, size: "max" }),
        fc.integer({ min: 0, max: 320 }),
        (values, count) => {
          const order = (a: number, b: number) => (a % 7) - (b % 7) || b - a;
          expect(topInOrder([...values], count, order)).toEqual([...values].sort(order).slice(0, count));
        },
      ),
    );
  });
});

/** Each session's views in order, the sessions' views interleaved by a seeded shuffle of whose turn it is. */
function interleave(sessions: number[][], seed: number): View[] {
  const turns = sessions.flatMap((items, session) => items.map(() => session));
  let state = seed | 0;
  for (let i = turns.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) | 0;
    const j = (state >>> 8) % (i + 1);
    [turns[i], turns[j]] = [turns[j]!, turns[i]!];
  }
  const next = sessions.map(() => 0);
  return turns.map((session) => ({ session, item: sessions[session]![next[session]!++]! }));
}
