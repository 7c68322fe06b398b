import { rankBlend, rankBlendLazily, type WeightedScores } from "../core/recs/blend.js";
import type { ScoreLookup } from "../core/recs/item-scores.js";
import { rerankCandidates, rerankedLazily } from "../core/recs/rerank-features.js";
import { rankByScore, rankByScoreLazily } from "../core/recs/sales.js";
import { DEFAULT_VIEWED_RELATED, type ViewedRelatedMode, type ViewedRelatedSetting } from "../core/recs/viewed-related-settings.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { boughtTogetherScores } from "./copurchase-ranking.js";
import { scoreNextViewsIn, storedSessions } from "./session-model.js";
import { dropReranker, forgetReranker, rerankerFor } from "./viewed-rerankers.js";

/** Recent viewed products that seed the bought-together part of the blend. */
const MAX_COPURCHASE_INPUTS = 5;

/** The most recent distinct viewed products (views oldest first), which bought-together starts from. */
export function copurchaseInputs(viewedInOrder: readonly number[]): number[] {
  return [...new Set([...viewedInOrder].reverse())].slice(0, MAX_COPURCHASE_INPUTS);
}

/**
 * Session neighbours' scores blended with bought-together's as the setting
 * weighs them, ranked (the first `count`).
 */
export function rankRelated(
  sessionScores: ScoreLookup,
  copurchaseScores: ScoreLookup,
  setting: ViewedRelatedSetting,
  count: number,
): number[] {
  const parts = blendedParts(sessionScores, copurchaseScores, setting);
  return parts === null ? rankByScore(sessionScores, { count }) : rankBlend(parts, count);
}

/** rankRelated's whole ranking, sorted as it is read: an answer shows a few of hundreds. Read once. */
export function rankRelatedLazily(
  sessionScores: ScoreLookup,
  copurchaseScores: ScoreLookup,
  setting: ViewedRelatedSetting,
): Iterable<number> {
  const parts = blendedParts(sessionScores, copurchaseScores, setting);
  return parts === null ? rankByScoreLazily(sessionScores) : rankBlendLazily(parts);
}

/** The parts to blend; null without bought-together: the session scores are ranked as they are (scaling one signal alone changes no order). */
function blendedParts(sessionScores: ScoreLookup, copurchaseScores: ScoreLookup, setting: ViewedRelatedSetting): WeightedScores[] | null {
  if (copurchaseScores.size === 0 || setting.copurchaseWeight === 0) return null;
  return [
    { scores: sessionScores, weight: 1 },
    { scores: copurchaseScores, weight: setting.copurchaseWeight },
  ];
}

/**
 * The shop's ranking after these views, and, when it has adopted a re-ranker,
 * the re-ranking of it (to be awaited). Each is sorted as it is read, and read
 * once: the re-ranking reads the ranking after its own candidates.
 */
export interface ViewedRelatedRanking {
  ranking: Iterable<number>;
  rerank: (() => Promise<Iterable<number>>) | null;
}

/**
 * Products to show after these views (product ids, oldest first), best first:
 * sessions that viewed the same products, blended with what is bought together
 * with the most recent ones, by the shop's tuned settings (the endpoint's:
 * `served`). `rerank` is set once the shop's tuning has adopted a learned
 * re-ranker for the setting; call it at once, if at all. `uuid` is the
 * viewing session itself, if stored.
 */
export function rankRelatedToViews(
  store: Store,
  merchant: MerchantId,
  viewedInOrder: readonly number[],
  uuid: string | null,
  mode: ViewedRelatedMode = "served",
): ViewedRelatedRanking {
  const tuning = store.viewedRelatedTuning.read(merchant);
  const setting = (tuning?.settings ?? DEFAULT_VIEWED_RELATED)[mode];
  const summary = tuning?.rerankers?.[mode];
  const sessions = storedSessions(store, merchant, uuid);
  const sessionScores: ScoreLookup = sessions === null ? new Map<number, number>() : scoreNextViewsIn(sessions, viewedInOrder, setting.knn);
  const reranker = sessions !== null && summary?.adopted === true ? summary : null;
  if (reranker === null) forgetReranker(store, merchant, mode);
  const copurchaseScores =
    setting.copurchaseWeight > 0 || reranker !== null
      ? boughtTogetherScores(store, merchant, copurchaseInputs(viewedInOrder))
      : new Map<number, number>();
  const ranking = rankRelatedLazily(sessionScores, copurchaseScores, setting);
  if (reranker === null || sessions === null) return { ranking, rerank: null };
  // Called at once (before anything awaits), rerank reads at the snapshot the tuning was read at: the model's bytes
  // and its record were written together. A caller that wants only the ranking pays for no candidate.
  const rerank = async () => {
    const candidates = rerankCandidates({
      prefix: viewedInOrder,
      knn: sessionScores,
      boughtTogether: copurchaseScores,
      source: sessions.source,
      self: sessions.self,
      remind: setting.knn.remind,
    });
    const model = await rerankerFor(store, merchant, mode, reranker);
    if (model === null || candidates.ids.length === 0) return ranking;
    try {
      return rerankedLazily(candidates.ids, await model.score(candidates.features, candidates.ids.length), ranking);
    } catch (error) {
      // The shop's ranking is a good answer; a failed run is the model's problem, not the request's.
      dropReranker(store, merchant, mode, `failed to score: ${String(error)}`);
      return ranking;
    }
  };
  return { ranking, rerank };
}

/** What viewed-related answers after these views, best first: the shop's ranking, re-ranked when it has a re-ranker. */
export async function relatedToViews(
  store: Store,
  merchant: MerchantId,
  viewedInOrder: readonly number[],
  uuid: string | null,
  mode: ViewedRelatedMode = "served",
): Promise<Iterable<number>> {
  const { ranking, rerank } = rankRelatedToViews(store, merchant, viewedInOrder, uuid, mode);
  return rerank === null ? ranking : rerank();
}
