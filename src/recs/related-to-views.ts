import { blendScores } from "../core/recs/blend.js";
import type { ViewedRelatedMode, ViewedRelatedSetting } from "../core/recs/viewed-related-settings.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { boughtTogetherScores } from "./copurchase-ranking.js";
import { scoreNextViews } from "./session-model.js";

/** Recent viewed products that seed the bought-together part of the blend. */
const MAX_COPURCHASE_INPUTS = 5;

/** The most recent distinct viewed products (views oldest first), which bought-together starts from. */
export function copurchaseInputs(viewedInOrder: readonly number[]): number[] {
  return [...new Set([...viewedInOrder].reverse())].slice(0, MAX_COPURCHASE_INPUTS);
}

/** Session neighbours' scores blended with bought-together's as the setting weighs them. */
export function blendRelated(
  sessionScores: Map<number, number>,
  copurchaseScores: Map<number, number>,
  setting: ViewedRelatedSetting,
): Map<number, number> {
  return blendScores([
    { scores: sessionScores, weight: 1 },
    { scores: copurchaseScores, weight: setting.copurchaseWeight },
  ]);
}

/**
 * Scores of products to show after these views (product ids, oldest first):
 * sessions that viewed the same products, blended with what is bought together
 * with the most recent ones, by the shop's tuned settings (the endpoint's:
 * `served`). `uuid` is the viewing session itself, if stored.
 */
export function relatedToViews(
  store: Store,
  merchant: MerchantId,
  viewedInOrder: readonly number[],
  uuid: string | null,
  mode: ViewedRelatedMode = "served",
): Map<number, number> {
  const setting = store.viewedRelatedTuning.settings(merchant)[mode];
  const sessionScores = scoreNextViews(store, merchant, viewedInOrder, uuid, setting.knn);
  const copurchaseScores =
    setting.copurchaseWeight > 0 ? boughtTogetherScores(store, merchant, copurchaseInputs(viewedInOrder)) : new Map();
  return blendRelated(sessionScores, copurchaseScores, setting);
}
