// Tunes a shop's viewed-related on its own sessions: the session kNN settings
// that suit one shop's traffic (how many neighbours, how fast old sessions
// fade, how much a repeat view counts) do not carry over to another's. It
// reads nothing but the store: the shop's most recent sessions from the
// session index, and its bought-together lists.
//
// The most recent sessions are held out as validation (carveNextItemCases),
// the earlier ones stand in for the index (in memory), and each validation
// session's prefixes predict its next view, as the next-item protocol does. A
// bounded coordinate descent (coordinateDescent) picks the served setting
// (viewed products left out, as the endpoint answers) from the defaults, and
// the protocol setting (repeat views count) from the served one with the
// session's own items boosted. Validation cases are a seeded sample of
// validation sessions, so a seed gives one answer.
import { coordinateDescent, objective, type Dimension } from "../core/recs/coordinate-descent.js";
import { MemorySessionSource } from "../core/recs/memory-session-source.js";
import { carveNextItemCases, type NextItemCase } from "../core/recs/next-item-cases.js";
import { SettingScorer } from "../core/recs/setting-scorer.js";
import {
  DEFAULT_VIEWED_RELATED,
  type ViewedRelatedMode,
  type ViewedRelatedSetting,
  type ViewedRelatedSettings,
} from "../core/recs/viewed-related-settings.js";
import { Rng } from "../core/random.js";
import type { MerchantId } from "../core/types.js";
import { SESSIONS_KEPT_PER_ITEM } from "../stores/session-index.js";
import type { Store } from "../stores/store.js";
import type { RerankerBytes, RerankerSummary, ViewedRelatedTuning } from "../stores/viewed-related-tuning.js";
import { boughtTogetherScores } from "./copurchase-ranking.js";
import { copurchaseInputs } from "./related-to-views.js";
import { DEFAULT_RERANKER_TRAIN_OPTIONS, trainViewedReranker } from "./train-viewed-reranker.js";
import { RankerTrainingCancelled } from "../core/recs/ranker-mlp.js";

export interface TuneOptions {
  /** Seeds the sample of validation sessions. */
  seed: number;
  /** The most recent sessions read (the rest of a larger index is older than what tuning needs). */
  maxSessions: number;
  /** Share of those held out for validation, the most recent. */
  validationShare: number;
  /** Validation cases sampled (whole sessions, until this many cases): what one setting's score costs. */
  maxCases: number;
  /** Validation cases sampled (whole sessions) for each setting's re-ranker: fitted on most, checked on the rest. */
  maxRerankerCases: number;
  /** The settings a re-ranker is trained for: the endpoint serves `served`; `aisle eval sessions` scores both. */
  rerankerModes: readonly ViewedRelatedMode[];
  /** Settings scored, per setting tuned (served, protocol). */
  maxEvaluations: number;
  maxPasses: number;
  /** Asked before each setting is scored: true stops the tuning (TuneCancelled), having written nothing. */
  stop?: () => boolean;
}

export class TuneCancelled extends Error {
  constructor() {
    super("the viewed-related tuning was cancelled (the service is stopping)");
    this.name = "TuneCancelled";
  }
}

/**
 * Seconds of one core for a shop with plenty of sessions: 4,000 cases, each
 * case's neighbours found once per sample size, then up to 60 settings twice
 * at tens of microseconds a case. 4,000 cases tell apart settings about a
 * point of HR@20 apart: finer differences are noise. The
 * re-rankers then take up to 40,000 cases each (their candidates and
 * features, about 0.25 ms a case, then a few seconds of training): a model's
 * gain is a fraction of a point, which only that many check cases can tell
 * from noise.
 */
export const DEFAULT_TUNE_OPTIONS: TuneOptions = {
  seed: 1,
  maxSessions: 500_000,
  validationShare: 0.1,
  maxCases: 4_000,
  maxRerankerCases: 40_000,
  rerankerModes: ["served"],
  maxEvaluations: 60,
  maxPasses: 2,
};

/** Below this many validation cases, settings cannot be told apart: the defaults are kept (and their figures stored). */
export const MIN_VALIDATION_CASES = 200;
/** Bought-together's weight is tuned only when its lists reach at least this share of validation cases. */
const MIN_COPURCHASE_REACH = 0.01;

type Knn = ViewedRelatedSetting["knn"];
const knnDimension = (name: keyof Knn, values: readonly number[]): Dimension<ViewedRelatedSetting> => ({
  name,
  values,
  with: (setting, value) => ({ ...setting, knn: { ...setting.knn, [name]: value } }),
});

const NEIGHBOUR_COUNTS = [25, 50, 100, 200];
/** The most neighbours any setting scored asks for: the defaults' or a tried one. */
const MAX_NEIGHBOURS = Math.max(
  ...NEIGHBOUR_COUNTS,
  DEFAULT_VIEWED_RELATED.served.knn.neighbours,
  DEFAULT_VIEWED_RELATED.protocol.knn.neighbours,
);
/** The session kNN's own dimensions; a sample never larger than the index keeps per item. */
const KNN_DIMENSIONS: Dimension<ViewedRelatedSetting>[] = [
  knnDimension("neighbours", NEIGHBOUR_COUNTS),
  knnDimension("sampleSize", [250, 500, SESSIONS_KEPT_PER_ITEM]),
  knnDimension("recencyFade", [0, 0.05, 0.2, 0.8, 3]),
  knnDimension("positionDecay", [0, 1, 2.5, 5, 10]),
  knnDimension("idfWeight", [0, 0.5, 1, 2, 4]),
];
/** With repeat views counted: how much the session's own items gain, and how fast that fades with their age in it. */
const BOOST_DIMENSIONS: Dimension<ViewedRelatedSetting>[] = [
  knnDimension("boost", [0, 0.5, 1, 2, 4, 8]),
  knnDimension("boostDecay", [0.3, 0.6, 0.8, 0.95]),
];
const COPURCHASE_DIMENSION: Dimension<ViewedRelatedSetting> = {
  name: "copurchaseWeight",
  values: [0, 0.1, 0.3, 1],
  with: (setting, value) => ({ ...setting, copurchaseWeight: value }),
};

/** A tuning, and the bytes of the re-rankers it adopted: what ViewedRelatedTunings.write stores together. */
export interface TuneResult {
  tuning: ViewedRelatedTuning;
  rerankers: RerankerBytes;
}

/**
 * The merchant's tuned settings with their validation figures, and a
 * re-ranker per setting trained on the same validation sessions; null when
 * its index holds no session. Synchronous and CPU-bound: run it on a thread
 * of its own (workers/tune-entry.ts) or from the command line.
 */
export function tuneViewedRelated(store: Store, merchant: MerchantId, options: TuneOptions = DEFAULT_TUNE_OPTIONS): TuneResult | null {
  try {
    return tuneAndTrain(store, merchant, options);
  } catch (error) {
    if (error instanceof RankerTrainingCancelled) throw new TuneCancelled();
    throw error;
  }
}

function tuneAndTrain(store: Store, merchant: MerchantId, options: TuneOptions): TuneResult | null {
  const started = performance.now();
  const head = store.sessionIndex.head(merchant);
  if (head === undefined || head.live === 0) return null;
  const sessions = store.sessionIndex.recentSessions(merchant, options.maxSessions);
  const { train, cases: allCases } = carveNextItemCases(sessions, options.validationShare);
  const source = new MemorySessionSource(train, SESSIONS_KEPT_PER_ITEM);
  // The search's neighbourhoods (hundreds of MB on a large shop) are garbage once it returns, before the re-rankers train.
  const inServed = (setting: ViewedRelatedSetting) => inServedTerms(setting, train.length, head.live);
  const { settings, trained, validation, copurchaseTuned, evaluated } = searchSettings(
    store,
    merchant,
    source,
    allCases,
    inServed,
    options,
  );

  const rerankerCases = sampleBySession(allCases, options.maxRerankerCases, options.seed);
  const rerankerOptions = {
    ...DEFAULT_RERANKER_TRAIN_OPTIONS,
    minCases: MIN_VALIDATION_CASES,
    seed: options.seed,
    ...(options.stop ? { stop: options.stop } : {}),
  };
  const boughtTogether = (prefix: readonly number[]) => boughtTogetherScores(store, merchant, copurchaseInputs(prefix));
  const rerankers: Record<"served" | "protocol", RerankerSummary | null> = { served: null, protocol: null };
  const bytes: RerankerBytes = {};
  for (const mode of options.rerankerModes) {
    const trainedReranker = trainViewedReranker(source, rerankerCases, trained[mode], boughtTogether, rerankerOptions);
    rerankers[mode] = trainedReranker?.summary ?? null;
    if (trainedReranker?.bytes) bytes[mode] = trainedReranker.bytes;
  }
  const tuning: ViewedRelatedTuning = {
    settings,
    rerankers,
    validation,
    sessionsNumbered: head.next,
    trainSessions: train.length,
    validationSessions: sessions.length - train.length,
    copurchaseTuned,
    evaluated,
    seed: options.seed,
    tunedAt: Date.now(),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  return { tuning, rerankers: bytes };
}

/** What the bounded search chose, and how it scored. */
interface SearchResult {
  /** As the endpoint reads them (over the whole index). */
  settings: ViewedRelatedSettings;
  /** As tuned over the training part (what the re-rankers are trained with). */
  trained: ViewedRelatedSettings;
  validation: ViewedRelatedTuning["validation"];
  copurchaseTuned: boolean;
  evaluated: number;
}

/**
 * The served and protocol settings chosen by coordinate descent on a seeded
 * sample of validation cases (the defaults when there are too few to tell
 * settings apart), `inServed` restating a tuned setting for the whole index.
 */
function searchSettings(
  store: Store,
  merchant: MerchantId,
  source: MemorySessionSource,
  allCases: readonly NextItemCase[],
  inServed: (setting: ViewedRelatedSetting) => ViewedRelatedSetting,
  options: TuneOptions,
): SearchResult {
  const cases = sampleBySession(allCases, options.maxCases, options.seed);
  // Bought-together does not depend on the setting: read once per case.
  const copurchase = cases.map((c) => boughtTogetherScores(store, merchant, copurchaseInputs(c.prefix)));
  const copurchaseTuned = copurchase.filter((scores) => scores.size > 0).length >= MIN_COPURCHASE_REACH * cases.length;
  const stop = () => options.stop?.() === true;
  const scorer = new SettingScorer(source, cases, copurchase, MAX_NEIGHBOURS, stop, () => new TuneCancelled());
  const evaluate = (setting: ViewedRelatedSetting) => scorer.score(setting);

  const defaults = DEFAULT_VIEWED_RELATED;
  const untuned = { served: evaluate(defaults.served), protocol: evaluate(defaults.protocol) };
  const searched = { settings: defaults, trained: defaults, copurchaseTuned };
  if (cases.length < MIN_VALIDATION_CASES) {
    const validation = {
      served: { defaults: untuned.served, tuned: untuned.served },
      protocol: { defaults: untuned.protocol, tuned: untuned.protocol },
    };
    return { ...searched, validation, evaluated: scorer.evaluated };
  }
  const limits = { maxEvaluations: options.maxEvaluations, maxPasses: options.maxPasses };
  const extra = copurchaseTuned ? [COPURCHASE_DIMENSION] : [];
  const servedSearch = coordinateDescent(defaults.served, [...KNN_DIMENSIONS, ...extra], evaluate, limits);
  // The protocol's search starts from the served setting with the default boost: the same neighbours, repeats counted.
  const reminding = { ...servedSearch.best, knn: { ...servedSearch.best.knn, remind: true, boost: defaults.protocol.knn.boost } };
  const protocolSearch = coordinateDescent(reminding, [...BOOST_DIMENSIONS, ...KNN_DIMENSIONS, ...extra], evaluate, limits);
  const protocolBest = objective(protocolSearch.figures) > objective(untuned.protocol) ? protocolSearch : null;
  return {
    settings: { served: inServed(servedSearch.best), protocol: protocolBest === null ? defaults.protocol : inServed(protocolBest.best) },
    trained: { served: servedSearch.best, protocol: protocolBest?.best ?? defaults.protocol },
    validation: {
      served: { defaults: untuned.served, tuned: servedSearch.figures },
      protocol: { defaults: untuned.protocol, tuned: protocolBest?.figures ?? untuned.protocol },
    },
    copurchaseTuned,
    evaluated: scorer.evaluated,
  };
}

/**
 * The recency fade is a share of the index's sessions: tuned over the
 * training part, it is restated as the same number of sessions over the
 * index the endpoint reads (all of its sessions), so it fades as it did.
 */
function inServedTerms(setting: ViewedRelatedSetting, trainSessions: number, indexSessions: number): ViewedRelatedSetting {
  const recencyFade = (setting.knn.recencyFade * trainSessions) / indexSessions;
  return { ...setting, knn: { ...setting.knn, recencyFade } };
}

/** Whole sessions' cases, sessions drawn in a seeded order, until `maxCases` (all of them if fewer). */
function sampleBySession(cases: readonly NextItemCase[], maxCases: number, seed: number): NextItemCase[] {
  if (cases.length <= maxCases) return [...cases];
  const bySession = new Map<number, NextItemCase[]>();
  for (const c of cases) {
    const list = bySession.get(c.session);
    if (list === undefined) bySession.set(c.session, [c]);
    else list.push(c);
  }
  const sampled: NextItemCase[] = [];
  for (const session of new Rng(seed).shuffle([...bySession.keys()])) {
    if (sampled.length >= maxCases) break;
    sampled.push(...bySession.get(session)!);
  }
  return sampled;
}
