// Trains viewed-related's re-ranker for one of a shop's settings, on the
// shop's own validation sessions (the tuning carves them: its most recent
// sessions, predicted from the earlier ones). The sessions are split, by a
// seeded draw, into those the model is fitted on and those it is checked
// on; the model is adopted only when it ranks the check cases better than
// the setting's own ranking does, by more than chance would (the paired
// gain's one-sided 95% bound above zero): a model that is not clearly
// better is not worth its cost per query. Both are ranked as the endpoint
// ranks (rerankCandidates, rerankedOrder), the model scored by the
// TypeScript reference of its ONNX graph (scoreRows), which ONNX Runtime
// matches within 1e-5. Until a shop has an adopted re-ranker, its setting's
// kNN ranking answers.
import { createHash } from "node:crypto";
import { groupedBootstrapInterval } from "../core/bootstrap.js";
import type { NextItemCase } from "../core/recs/next-item-cases.js";
import { FiguresTally, NEXT_ITEM_K } from "../core/recs/next-item-figures.js";
import { DEFAULT_RANKER_TRAINING, RankerTrainingCancelled, scoreRows, trainRankerMlp, type RankingList } from "../core/recs/ranker-mlp.js";
import { RERANK_INPUTS, rerankCandidates, rerankedOrder } from "../core/recs/rerank-features.js";
import { SessionKnn, type SessionSource } from "../core/recs/session-knn.js";
import type { ViewedRelatedSetting } from "../core/recs/viewed-related-settings.js";
import { Rng } from "../core/random.js";
import { rankerGraph } from "../embeddings/ranker-graph.js";
import { RERANKER_FORMAT, type RerankerSummary } from "../stores/viewed-related-tuning.js";
import { rankRelated } from "./related-to-views.js";

export interface RerankerTrainOptions {
  /** Share of the validation sessions the model is checked on, not fitted on. */
  checkShare: number;
  /** Below this many fitted queries (or check cases) no model is trained. */
  minCases: number;
  seed: number;
  /** Asked before each case and between training batches: true stops the training (RankerTrainingCancelled). */
  stop?: () => boolean;
}

export const DEFAULT_RERANKER_TRAIN_OPTIONS: RerankerTrainOptions = { checkShare: 0.25, minCases: 500, seed: 1 };

export interface TrainedReranker {
  summary: RerankerSummary;
  /** The ONNX model, when adopted. */
  bytes: Uint8Array | null;
}

/** One validation case's candidates and the setting's own ranking of it. */
interface PreparedCase {
  ids: number[];
  features: Float32Array;
  ranking: number[];
  next: number;
  prefix: readonly number[];
}

/** One case's part of the objective (HR@20 + MRR@20, in points) from its rank (-1: a miss). */
const caseObjective = (rank: number) => (rank < 0 ? 0 : 100 + 100 / (rank + 1));

/** Where `next` lands in a shown answer (-1: not there); served answers never show the session's own views. */
function shownRank(order: readonly number[], c: PreparedCase, remind: boolean): number {
  let rank = 0;
  for (const id of order) {
    if (!remind && c.prefix.includes(id)) continue;
    if (id === c.next) return rank;
    if (++rank >= NEXT_ITEM_K) return -1;
  }
  return -1;
}

/**
 * The setting's re-ranker trained on `cases` (predicted from `source`, the
 * sessions before them), or null when too few cases tell it apart.
 * `boughtTogether` scores a prefix's bought-together products.
 */
export function trainViewedReranker(
  source: SessionSource,
  cases: readonly NextItemCase[],
  setting: ViewedRelatedSetting,
  boughtTogether: (prefix: readonly number[]) => Map<number, number>,
  options: RerankerTrainOptions = DEFAULT_RERANKER_TRAIN_OPTIONS,
): TrainedReranker | null {
  const sessions = [...new Set(cases.map((c) => c.session))];
  const checked = new Set(new Rng(options.seed).shuffle(sessions).slice(0, Math.round(options.checkShare * sessions.length)));
  const knn = new SessionKnn();
  const remind = setting.knn.remind;
  const prepare = (c: NextItemCase): PreparedCase => {
    if (options.stop?.() === true) throw new RankerTrainingCancelled();
    const knnScores = knn.query(source, c.prefix, setting.knn);
    const bought = boughtTogether(c.prefix);
    const candidates = rerankCandidates({ prefix: c.prefix, knn: knnScores, boughtTogether: bought, source, self: -1, remind });
    // Only the head of the ranking can be shown: the top K once the session's own views (served, never shown) are skipped.
    const ranking = rankRelated(knnScores, bought, setting, NEXT_ITEM_K + c.prefix.length);
    return { ...candidates, ranking, next: c.next, prefix: c.prefix };
  };
  // The fitted queries are held together (the training passes over them several times); check cases are scored one at
  // a time once the model is trained, so a shop's training holds one set of candidates, not two.
  const fit: RankingList[] = [];
  const check: NextItemCase[] = [];
  for (const c of cases) {
    if (checked.has(c.session)) {
      check.push(c);
      continue;
    }
    const prepared = prepare(c);
    const target = prepared.ids.indexOf(c.next);
    if (target >= 0) fit.push({ features: prepared.features, rows: prepared.ids.length, target });
  }
  const fitted = fit.length;
  if (fitted < options.minCases || check.length < options.minCases) return null;
  const training = { ...DEFAULT_RANKER_TRAINING, seed: options.seed, ...(options.stop ? { stop: options.stop } : {}) };
  const model = trainRankerMlp(fit, RERANK_INPUTS, training);
  fit.length = 0;

  const ranking = new FiguresTally();
  const reranked = new FiguresTally();
  const gains = new Float64Array(check.length);
  check.forEach((c, index) => {
    const prepared = prepare(c);
    const before = shownRank(prepared.ranking, prepared, remind);
    const scores = scoreRows(model, prepared.features, prepared.ids.length);
    const after = shownRank(rerankedOrder(prepared.ids, scores, prepared.ranking), prepared, remind);
    ranking.add(before);
    reranked.add(after);
    gains[index] = caseObjective(after) - caseObjective(before);
  });
  const figures = { ranking: ranking.figures(), reranked: reranked.figures() };
  // A session's cases rise and fall together: the interval resamples whole sessions.
  const groupOf = new Map<number, number>();
  for (const c of check) if (!groupOf.has(c.session)) groupOf.set(c.session, groupOf.size);
  const groups = Int32Array.from(check, (c) => groupOf.get(c.session)!);
  const gain = groupedBootstrapInterval(gains, groups, options.seed, 1_000, 0.9);
  const adopted = gain[0] > 0;
  const bytes = rankerGraph(model);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const summary: RerankerSummary = {
    adopted,
    format: RERANKER_FORMAT,
    version: sha256.slice(0, 16),
    sha256,
    inputs: RERANK_INPUTS,
    hidden: model.hidden,
    check: { ...figures, gain },
    fitted,
  };
  return { summary, bytes: adopted ? bytes : null };
}

/** One line on a setting's re-ranker: whether it serves, and its check figures beside the setting's own ranking's. */
export function describeReranker(summary: RerankerSummary | null): string {
  if (summary === null) return "re-ranker: not trained";
  const figures = (f: { hr: number; mrr: number }) => `${f.hr.toFixed(2)} / ${f.mrr.toFixed(2)}`;
  const { ranking, reranked } = summary.check;
  const [low, high] = summary.check.gain;
  return `re-ranker ${summary.version} ${summary.adopted ? "adopted" : "not adopted"}: check HR@20 / MRR@20 ${figures(ranking)} ranked by the setting, ${figures(reranked)} re-ranked, gain in HR + MRR per case [${low.toFixed(2)}, ${high.toFixed(2)}] (90%; ${reranked.cases} cases, fitted on ${summary.fitted} queries)`;
}
