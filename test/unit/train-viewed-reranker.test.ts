// viewed-related's re-ranker is adopted when it ranks a shop's held-out
// cases clearly better than the setting's own ranking, and only then.
import { describe, expect, it } from "vitest";
import { MemorySessionSource } from "../../src/core/recs/memory-session-source.js";
import type { NextItemCase } from "../../src/core/recs/next-item-cases.js";
import { Rng } from "../../src/core/random.js";
import { DEFAULT_VIEWED_RELATED } from "../../src/core/recs/viewed-related-settings.js";
import { trainViewedReranker } from "../../src/recs/train-viewed-reranker.js";

const PRODUCTS = 60;
/** Sessions that browse forward along a ring of products: i, i+1, i+2, i+3. */
const sessions = Array.from({ length: 3_000 }, (_, n) => Float64Array.from({ length: 4 }, (_, step) => (n + step) % PRODUCTS));
const source = new MemorySessionSource(sessions, 1_000);
const options = { checkShare: 0.25, minCases: 100, seed: 1 };
const noBoughtTogether = () => new Map<number, number>();
/** The served setting without its recency fade: the newest sessions would otherwise favour one side. */
const setting = { ...DEFAULT_VIEWED_RELATED.served, knn: { ...DEFAULT_VIEWED_RELATED.served.knn, recencyFade: 0 } };

/** One-view cases: after product i, the next view is `next(i)`. */
function cases(next: (i: number) => number, count = 1_200): NextItemCase[] {
  return Array.from({ length: count }, (_, session) => ({ prefix: [session % PRODUCTS], next: next(session % PRODUCTS), session }));
}

const train = (of: NextItemCase[]) => trainViewedReranker(source, of, setting, noBoughtTogether, options);

describe("trainViewedReranker", () => {
  it("adopts a model that learns what kNN cannot see: which of a product's neighbours comes after it", () => {
    // Session kNN weighs i − 1 and i + 1 alike (one step from i in its neighbours), and ties go to the smaller id.
    const trained = train(cases((i) => (i + 1) % PRODUCTS))!;
    const { ranking, reranked, gain } = trained.summary.check;
    expect(reranked.mrr).toBeGreaterThan(ranking.mrr + 20);
    expect(gain[0]).toBeGreaterThan(0);
    expect(trained.summary.adopted).toBe(true);
    expect(trained.bytes).not.toBeNull();
  });

  it("does not adopt a model when nothing it reads tells the next view apart", () => {
    // The next view is any of the six products around the last one, before it or after it alike.
    const rng = new Rng(4);
    const steps = [-3, -2, -1, 1, 2, 3];
    const trained = train(cases((i) => (i + PRODUCTS + rng.pick(steps)) % PRODUCTS))!;
    expect(trained.summary.check.gain[0]).toBeLessThanOrEqual(0);
    expect(trained.summary.adopted).toBe(false);
    expect(trained.bytes).toBeNull();
  });

  it("trains nothing on too few cases", () => {
    expect(train(cases((i) => (i + 1) % PRODUCTS, 150))).toBeNull();
  });
});
