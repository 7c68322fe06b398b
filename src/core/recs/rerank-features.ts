// viewed-related's candidates for its learned re-ranker, each described by a
// row of features. Candidates come from several models that see different
// things: session kNN (sessions like this one), sequential rules (what
// sessions viewed right after, or right before, the last viewed product, and
// after the one viewed before it),
// bought-together, and in the protocol setting the session's own products.
// Every feature is a ratio or a share, so that a model learned on one
// stretch of a shop's sessions reads the same way on the whole index.
import type { SessionSource } from "./session-knn.js";
import { RuleVotes } from "./sequential-rules.js";
import { bestScore, type ScoreLookup } from "./item-scores.js";
import { KeySlots } from "./key-slots.js";
import { byScoreThenId } from "./ranking.js";
import { rankByScore } from "./sales.js";

/** The features of a candidate, in row order: the ONNX model's input width is their number. */
export const RERANK_FEATURE_NAMES = [
  "knn_score_share_of_best",
  "knn_rank_reciprocal",
  "viewed_after_last",
  "viewed_before_last",
  "viewed_right_after_last",
  "viewed_after_previous",
  "bought_together_share_of_best",
  "popularity",
  "in_session_recency",
  "in_session_share",
  "session_length",
  "last_product_popularity",
  "rule_sessions_read",
] as const;

export const RERANK_INPUTS = RERANK_FEATURE_NAMES.length;

/** How many of each model's best candidates are re-ranked. */
export interface CandidateLimits {
  knn: number;
  rules: number;
  boughtTogether: number;
}

export const DEFAULT_CANDIDATE_LIMITS: CandidateLimits = { knn: 100, rules: 50, boughtTogether: 20 };

/** Sessions with the last viewed product read for its sequential rules, the most recent first. */
export const RULE_SESSIONS = 100;
/** A product viewed this many steps or fewer from the last viewed product counts for its rules (1/steps). */
const RULE_WINDOW = 3;
/** Session lengths and popularity are read on a log scale up to these. */
const LONG_SESSION = 50;

export interface RerankQuery {
  /** The session's views, oldest first. */
  prefix: readonly number[];
  /** Session kNN's scores for this prefix (the shop's tuned setting). */
  knn: ScoreLookup;
  /** Bought-together's scores for its most recent views. */
  boughtTogether: ScoreLookup;
  source: SessionSource;
  /** The session itself in the index, never its own neighbour (-1: not in it). */
  self: number;
  /** Whether the session's own products are candidates (the protocol setting); served answers never show them. */
  remind: boolean;
}

export interface RerankCandidates {
  ids: number[];
  /** ids.length rows of RERANK_INPUTS features, row-major. */
  features: Float32Array;
}

// Scratch that every query uses in turn, each filled and read within one synchronous call.
/** The candidates taken so far. */
const candidates = new KeySlots();
/** Two tallies: the last viewed product's rules and the one before's. */
const lastRules = new RuleVotes(RULE_SESSIONS, RULE_WINDOW);
const previousRules = new RuleVotes(RULE_SESSIONS, RULE_WINDOW);

/** The most recent product viewed before the last viewed one, other than it. */
function previousProduct(prefix: readonly number[]): number | undefined {
  const last = prefix[prefix.length - 1];
  for (let i = prefix.length - 2; i >= 0; i--) if (prefix[i] !== last) return prefix[i];
  return undefined;
}

/** The `count` best-scored keys of a map (ties: the smaller id first), whatever their scores. */
const best = (scores: ScoreLookup, count: number) => rankByScore(scores, { count, all: true });

/** log(1 + value) / log(1 + ceiling), so the feature stays near 0 … 1. */
const logShare = (value: number, ceiling: number) => Math.log1p(Math.max(0, value)) / Math.log1p(Math.max(1, ceiling));

/**
 * The candidates for a query and their features. Served (not `remind`),
 * products of the session itself are never candidates, as the endpoint never
 * shows them.
 */
export function rerankCandidates(query: RerankQuery, limits: CandidateLimits = DEFAULT_CANDIDATE_LIMITS): RerankCandidates {
  const { prefix, knn, boughtTogether, source, remind } = query;
  const last = prefix[prefix.length - 1];
  const rules = last === undefined ? null : lastRules.read(source, last, query.self);
  const previous = previousProduct(prefix);
  const before = previous === undefined ? null : previousRules.read(source, previous, query.self);
  const knnRanked = best(knn, limits.knn);

  const ids: number[] = [];
  // Per candidate, its rank in kNN's best (-1: not among them): kNN's best are taken first, so a candidate any
  // other model brings is not among them.
  const knnRanks: number[] = [];
  candidates.clear();
  const viewed = new Set(prefix);
  const take = (id: number, knnRank = -1) => {
    if ((!remind && viewed.has(id)) || candidates.find(id) >= 0) return;
    candidates.slotOf(id);
    ids.push(id);
    knnRanks.push(knnRank);
  };
  knnRanked.forEach((id, rank) => take(id, rank));
  if (rules !== null) rules.bestAfter(limits.rules).forEach((id) => take(id));
  best(boughtTogether, limits.boughtTogether).forEach((id) => take(id));
  if (remind) for (let i = prefix.length - 1; i >= 0; i--) take(prefix[i]!);

  const knnBest = bestScore(knn);
  const boughtBest = bestScore(boughtTogether);
  const stepsBack = new Map<number, number>();
  const counts = new Map<number, number>();
  prefix.forEach((id, i) => {
    stepsBack.set(id, prefix.length - i);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  });
  const read = Math.max(1, rules?.sessionsRead ?? 0);
  const previousRead = Math.max(1, before?.sessionsRead ?? 0);
  const sessionCount = source.sessionCount;
  const context = [
    logShare(prefix.length, LONG_SESSION),
    last === undefined ? 0 : logShare(source.sessionCountWith(last), sessionCount),
    (rules?.sessionsRead ?? 0) / RULE_SESSIONS,
  ];

  // Written in place, in RERANK_FEATURE_NAMES' order: no row is built apart and copied.
  const features = new Float32Array(ids.length * RERANK_INPUTS);
  let at = 0;
  for (let row = 0; row < ids.length; row++) {
    const id = ids[row]!;
    const rank = knnRanks[row]!;
    const steps = stepsBack.get(id);
    features[at++] = knnBest > 0 ? (knn.get(id) ?? 0) / knnBest : 0;
    features[at++] = rank < 0 ? 0 : 1 / (1 + rank);
    features[at++] = (rules?.after(id) ?? 0) / read;
    features[at++] = (rules?.before(id) ?? 0) / read;
    features[at++] = (rules?.rightAfter(id) ?? 0) / read;
    features[at++] = (before?.after(id) ?? 0) / previousRead;
    features[at++] = boughtBest > 0 ? (boughtTogether.get(id) ?? 0) / boughtBest : 0;
    features[at++] = logShare(source.sessionCountWith(id), sessionCount);
    features[at++] = steps === undefined ? 0 : 1 / steps;
    features[at++] = (counts.get(id) ?? 0) / prefix.length;
    for (const value of context) features[at++] = value;
  }
  return { ids, features };
}

/**
 * The re-ranked answer: the candidates by their model scores (ties: the
 * smaller id first), then the setting's own ranking's other products in its
 * order, so a re-ranked list is never shorter than the ranking it replaces.
 */
export function rerankedOrder(ids: readonly number[], scores: ArrayLike<number>, ranking: readonly number[]): number[] {
  return [...rerankedLazily(ids, scores, ranking)];
}

/**
 * rerankedOrder as it is read: the candidates by score, then the ranking's
 * other ids, read only as far as the reader reads (an answer shows a few).
 * Read once.
 */
export function* rerankedLazily(ids: readonly number[], scores: ArrayLike<number>, ranking: Iterable<number>): Generator<number> {
  const order = new Int32Array(ids.length);
  for (let row = 0; row < ids.length; row++) order[row] = row;
  order.sort((a, b) => byScoreThenId(scores[a]!, scores[b]!, ids[a]!, ids[b]!));
  // Its own set: a reader may hold this while another re-ranking is read.
  const placed = new Set<number>();
  for (const row of order) {
    placed.add(ids[row]!);
    yield ids[row]!;
  }
  for (const id of ranking) if (!placed.has(id)) yield id;
}
