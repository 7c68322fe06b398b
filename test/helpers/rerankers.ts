// Re-rankers whose order is known, and the tuning record's summary of one:
// what tests of viewed-related's serving write beside a shop's tuning.
import { createHash } from "node:crypto";
import type { RankerMlp } from "../../src/core/recs/ranker-mlp.js";
import { RERANK_FEATURE_NAMES, RERANK_INPUTS } from "../../src/core/recs/rerank-features.js";
import { RERANKER_FORMAT, type RerankerSummary } from "../../src/stores/viewed-related-tuning.js";

/** A model scoring a candidate by one feature, times `sign`: a re-ranker whose order is known. */
export function byFeature(name: (typeof RERANK_FEATURE_NAMES)[number], sign: number): RankerMlp {
  const w1 = new Float32Array(RERANK_INPUTS);
  w1[RERANK_FEATURE_NAMES.indexOf(name)] = 1;
  return {
    inputs: RERANK_INPUTS,
    hidden: 1,
    mean: new Float32Array(RERANK_INPUTS),
    scale: new Float32Array(RERANK_INPUTS).fill(1),
    w1,
    b1: new Float32Array(1),
    w2: Float32Array.from([sign]),
    b2: 0,
  };
}

export function summaryOf(bytes: Uint8Array): RerankerSummary {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const figures = { hr: 0, mrr: 0, cases: 0 };
  return {
    adopted: true,
    format: RERANKER_FORMAT,
    version: sha256.slice(0, 16),
    sha256,
    inputs: RERANK_INPUTS,
    hidden: 1,
    check: { ranking: figures, reranked: figures, gain: [0, 0] },
    fitted: 0,
  };
}
