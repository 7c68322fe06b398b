import { blendScores } from "../core/recs/blend.js";
import { DEFAULT_SESSION_KNN, type SessionKnnConfig } from "../core/recs/session-knn.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { boughtTogetherScores } from "./copurchase-ranking.js";
import { scoreNextViews } from "./session-model.js";

/** Recent viewed products that seed the bought-together part of the blend. */
const MAX_COPURCHASE_INPUTS = 5;
/** How much bought-together counts beside session neighbours (each scaled to a best of 1). */
const COPURCHASE_WEIGHT = 0.3;

/**
 * Scores of products to show after these views (product ids, oldest first):
 * sessions that viewed the same products, blended with what is bought together
 * with the most recent ones. `uuid` is the viewing session itself, if stored.
 */
export function relatedToViews(
  store: Store,
  merchant: MerchantId,
  viewedInOrder: readonly number[],
  uuid: string | null,
  knn: SessionKnnConfig = DEFAULT_SESSION_KNN,
): Map<number, number> {
  const recent = [...new Set([...viewedInOrder].reverse())].slice(0, MAX_COPURCHASE_INPUTS);
  return blendScores([
    { scores: scoreNextViews(store, merchant, viewedInOrder, uuid, knn), weight: 1 },
    { scores: boughtTogetherScores(store, merchant, recent), weight: COPURCHASE_WEIGHT },
  ]);
}
