// viewed-related's learned re-ranker as the endpoint's code serves it: loaded
// into ONNX Runtime from the bytes stored with the shop's tuning, refused
// when those bytes are not the ones the tuning names, and replaced whole by a
// retrain.
import { describe, expect, it, vi } from "vitest";
import { Rng } from "../../src/core/random.js";
import type { BehaviourEvent } from "../../src/core/types.js";
import { rankerGraph } from "../../src/embeddings/ranker-graph.js";
import { RankerSession } from "../../src/embeddings/ranker-runtime.js";
import { rankRelatedToViews, relatedToViews } from "../../src/recs/related-to-views.js";
import { DEFAULT_TUNE_OPTIONS, tuneViewedRelated } from "../../src/recs/tune-viewed-related.js";
import type { Store } from "../../src/stores/store.js";
import type { ViewedRelatedTuning } from "../../src/stores/viewed-related-tuning.js";
import { byFeature, summaryOf } from "../helpers/rerankers.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-reranker-");

/** Sessions over 40 products in 8 themes, each browsing one theme. */
function sessions(count: number): BehaviourEvent[] {
  const rng = new Rng(11);
  const events: BehaviourEvent[] = [];
  let at = Date.parse("2026-04-01T00:00:00Z");
  for (let n = 0; n < count; n++) {
    const theme = rng.int(0, 7);
    for (let v = rng.int(2, 5); v > 0; v--)
      events.push({
        at: at++,
        uuid: `s-${n}`,
        customer_id: null,
        verb: "viewed",
        product_id: 1 + theme * 5 + rng.int(0, 4),
        theme_id: null,
      });
  }
  return events;
}

/** The shop tuned, then given `bytes` as its served re-ranker, named by `named` (the same bytes, unless a test says otherwise). */
async function withReranker(store: Store, tuning: ViewedRelatedTuning, bytes: Uint8Array, named = bytes): Promise<void> {
  await store.viewedRelatedTuning.write("shop", { ...tuning, rerankers: { served: summaryOf(named), protocol: null } }, { served: bytes });
  store.refreshSnapshot();
}

const PREFIXES = [[1], [6, 7], [11, 12, 13], [21]];
const answers = (store: Store) => Promise.all(PREFIXES.map(async (prefix) => [...(await relatedToViews(store, "shop", prefix, null))]));
const rankings = (store: Store) => PREFIXES.map((prefix) => [...rankRelatedToViews(store, "shop", prefix, null).ranking]);

async function tunedShop(): Promise<{ store: Store; tuning: ViewedRelatedTuning }> {
  const store = await storeWithMerchant(tempDir());
  await store.applied.appendEvents("shop", sessions(600));
  const tuned = tuneViewedRelated(store, "shop", { ...DEFAULT_TUNE_OPTIONS, maxEvaluations: 4 })!;
  return { store, tuning: tuned.tuning };
}

describe("viewed-related's re-ranker, served", () => {
  it("re-ranks the shop's ranking by its model in ONNX Runtime, and a retrain replaces the model whole", async () => {
    const { store, tuning } = await tunedShop();
    await store.viewedRelatedTuning.write("shop", { ...tuning, rerankers: { served: null, protocol: null } });
    store.refreshSnapshot();
    const ranked = rankings(store);
    expect(await answers(store)).toEqual(ranked);

    const byKnn = rankerGraph(byFeature("knn_score_share_of_best", 1));
    const againstKnn = rankerGraph(byFeature("knn_score_share_of_best", -1));
    await withReranker(store, tuning, byKnn);
    const followed = await answers(store);
    // Scored by kNN's own share of its best, the candidates keep kNN's order (there is no bought-together here).
    expect(followed).toEqual(ranked);
    await withReranker(store, tuning, againstKnn);
    const reversed = await answers(store);
    for (const [index, answer] of reversed.entries()) {
      const knnCandidates = ranked[index]!.length;
      expect(knnCandidates).toBeGreaterThanOrEqual(2);
      // kNN's candidates come last, least scored first; the sequential rules' own candidates (scored 0 by kNN) first.
      expect(answer.slice(-knnCandidates)).toEqual([...ranked[index]!].reverse().slice(0, knnCandidates));
    }

    // Answers asked while retrains alternate the two models are each model's whole answer, never a mix.
    const asked: Promise<number[][]>[] = [];
    for (let round = 0; round < 20; round++) {
      asked.push(answers(store));
      await withReranker(store, tuning, round % 2 === 0 ? byKnn : againstKnn);
      asked.push(answers(store));
    }
    for (const answer of await Promise.all(asked)) expect([followed, reversed]).toContainEqual(answer);
    await store.close();
  });

  it("refuses a model whose bytes are not the ones the tuning names: the shop's ranking answers", async () => {
    const { store, tuning } = await tunedShop();
    const errors: string[] = [];
    const error = console.error;
    console.error = (message: string) => errors.push(message);
    try {
      await withReranker(store, tuning, rankerGraph(byFeature("knn_score_share_of_best", -1)), rankerGraph(byFeature("popularity", 1)));
      expect(await answers(store)).toEqual(rankings(store));
      expect(errors).toEqual([
        expect.stringMatching(/re-ranker [0-9a-f]{16} of merchant "shop" \(served\) refused: sha256 [0-9a-f]{64}, expected/),
      ]);
    } finally {
      console.error = error;
    }
    await store.close();
  });

  it("answers with the shop's ranking when its re-ranker fails to score, says so once, and stops asking it", async () => {
    const { store, tuning } = await tunedShop();
    await withReranker(store, tuning, rankerGraph(byFeature("knn_score_share_of_best", -1)));
    expect(await answers(store)).not.toEqual(rankings(store)); // loaded, and re-ranking
    const failing = vi.spyOn(RankerSession.prototype, "score").mockRejectedValue(new Error("the run failed"));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await answers(store)).toEqual(rankings(store));
      expect(logged).toHaveBeenCalledOnce();
      expect(logged).toHaveBeenCalledWith(
        expect.stringMatching(/re-ranker [0-9a-f]{16} of merchant "shop" \(served\) dropped: failed to score: Error: the run failed/),
      );
      // The four answers asked at once all failed; from now on the dropped model is not asked.
      expect(failing).toHaveBeenCalledTimes(PREFIXES.length);
      expect(await answers(store)).toEqual(rankings(store));
      expect(failing).toHaveBeenCalledTimes(PREFIXES.length);
      expect(logged).toHaveBeenCalledOnce();
    } finally {
      failing.mockRestore();
      logged.mockRestore();
    }
    await store.close();
  });
});
