import { describe, expect, it } from "vitest";
import { MemorySessionSource } from "../../src/core/recs/memory-session-source.js";
import {
  RERANK_FEATURE_NAMES,
  RERANK_INPUTS,
  RULE_SESSIONS,
  rerankCandidates,
  rerankedOrder,
  type RerankQuery,
} from "../../src/core/recs/rerank-features.js";

const SESSIONS = [
  [1, 2, 3],
  [1, 2],
  [4, 1, 5],
  [6, 7],
].map((views) => Float64Array.from(views));
const source = new MemorySessionSource(SESSIONS, 1_000);

const query = (overrides: Partial<RerankQuery>): RerankQuery => ({
  prefix: [7, 1],
  knn: new Map([
    [2, 4],
    [3, 1],
    [9, 2],
  ]),
  boughtTogether: new Map([[8, 5]]),
  source,
  self: -1,
  remind: false,
  ...overrides,
});

/** The named feature of a candidate. */
function feature(candidates: { ids: number[]; features: Float32Array }, id: number, name: (typeof RERANK_FEATURE_NAMES)[number]): number {
  const row = candidates.ids.indexOf(id);
  expect(row).toBeGreaterThanOrEqual(0);
  return candidates.features[row * RERANK_INPUTS + RERANK_FEATURE_NAMES.indexOf(name)]!;
}

describe("viewed-related's re-ranking candidates", () => {
  it("gathers kNN's, the sequential rules' and bought-together's candidates, never the session's own when served", () => {
    const candidates = rerankCandidates(query({}));
    // kNN best first, then what sessions viewed after product 1 (2 is already in; 3 two steps after, 5 right after), then bought-together.
    expect(candidates.ids).toEqual([2, 9, 3, 5, 8]);
    expect(candidates.features.length).toBe(candidates.ids.length * RERANK_INPUTS);
    expect(rerankCandidates(query({ remind: true })).ids).toEqual([2, 9, 3, 5, 8, 1, 7]);
  });

  it("describes each candidate by shares of each model's best, its rules' votes per session read and its place in the session", () => {
    const candidates = rerankCandidates(query({ remind: true }));
    expect(feature(candidates, 2, "knn_score_share_of_best")).toBe(1);
    expect(feature(candidates, 9, "knn_score_share_of_best")).toBe(0.5);
    expect(feature(candidates, 9, "knn_rank_reciprocal")).toBe(0.5);
    // Candidates only the rules or bought-together bring have no kNN rank.
    expect(feature(candidates, 5, "knn_rank_reciprocal")).toBe(0);
    expect(feature(candidates, 8, "knn_rank_reciprocal")).toBe(0);
    expect(feature(candidates, 8, "knn_score_share_of_best")).toBe(0);
    expect(feature(candidates, 8, "bought_together_share_of_best")).toBe(1);
    // Three sessions viewed product 1: two went on to 2 at once, one to 3 two steps later, one to 5 at once; one came from 4.
    expect(feature(candidates, 2, "viewed_after_last")).toBeCloseTo(2 / 3, 6);
    expect(feature(candidates, 2, "viewed_right_after_last")).toBeCloseTo(2 / 3, 6);
    expect(feature(candidates, 3, "viewed_after_last")).toBeCloseTo(1 / 2 / 3, 6);
    expect(feature(candidates, 3, "viewed_right_after_last")).toBe(0);
    expect(feature(candidates, 5, "viewed_before_last")).toBe(0);
    expect(feature(candidates, 2, "rule_sessions_read")).toBeCloseTo(3 / RULE_SESSIONS, 6);
    // The session's own products: the last viewed one step back, the one before it two.
    expect(feature(candidates, 1, "in_session_recency")).toBe(1);
    expect(feature(candidates, 7, "in_session_recency")).toBe(0.5);
    expect(feature(candidates, 7, "in_session_share")).toBe(0.5);
    expect(feature(candidates, 2, "in_session_recency")).toBe(0);
  });

  it("counts what sessions viewed after the product viewed before the last one", () => {
    // The session viewed 4, then 1 twice: the product before the last one is 4. One session went on from 4 to 5, two steps later.
    const candidates = rerankCandidates(query({ prefix: [4, 1, 1] }));
    expect(feature(candidates, 5, "viewed_after_previous")).toBe(0.5);
    expect(feature(candidates, 2, "viewed_after_previous")).toBe(0);
  });

  it("reads no rule of the session itself", () => {
    // Session 2 (4, 1, 5) is the querying one: 5 is no longer anyone's next view after 1.
    const candidates = rerankCandidates(query({ self: 2 }));
    expect(candidates.ids).not.toContain(5);
    expect(feature(candidates, 2, "viewed_after_last")).toBeCloseTo(1, 6);
  });

  it("tallies every product near the last viewed one, however many (the tallies grow past their first size)", () => {
    // 100 sessions viewed product 1 with three products of their own on each side: 600 products with one vote each.
    const around = (session: number, side: number, steps: number) => 10_000 + session * 10 + side * 3 + steps;
    const sessions = Array.from({ length: RULE_SESSIONS }, (_, session) =>
      Float64Array.from([
        around(session, 0, 3),
        around(session, 0, 2),
        around(session, 0, 1),
        1,
        ...[1, 2, 3].map((steps) => around(session, 1, steps)),
      ]),
    );
    const wide = new MemorySessionSource(sessions, 1_000);
    const everyone = sessions.flatMap((views) => [...views].filter((id) => id !== 1));
    const limits = { knn: everyone.length, rules: everyone.length, boughtTogether: 0 };
    const candidates = rerankCandidates(query({ prefix: [1], knn: new Map(everyone.map((id) => [id, 1])), source: wide }), limits);
    for (let session = 0; session < RULE_SESSIONS; session++)
      for (const steps of [1, 2, 3]) {
        expect(feature(candidates, around(session, 1, steps), "viewed_after_last")).toBeCloseTo(1 / steps / RULE_SESSIONS, 6);
        expect(feature(candidates, around(session, 0, steps), "viewed_before_last")).toBeCloseTo(1 / steps / RULE_SESSIONS, 6);
        expect(feature(candidates, around(session, 1, steps), "viewed_right_after_last")).toBeCloseTo(
          steps === 1 ? 1 / RULE_SESSIONS : 0,
          6,
        );
      }
  });

  it("keeps every feature finite for a session of products no one else viewed", () => {
    const candidates = rerankCandidates(query({ prefix: [99], knn: new Map(), remind: true }));
    expect(candidates.ids).toEqual([8, 99]);
    expect(candidates.features.every(Number.isFinite)).toBe(true);
  });
});

describe("rerankedOrder", () => {
  it("orders candidates by score, ties by the smaller id, then the ranking's other products in its order", () => {
    expect(rerankedOrder([5, 3, 9], Float32Array.from([0.5, 2, 0.5]), [9, 7, 3, 1])).toEqual([3, 5, 9, 7, 1]);
  });
});
