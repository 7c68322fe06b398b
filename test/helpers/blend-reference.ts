// The blend as a map, the plain way: the reference that the ranking of a blend
// (rankBlend, rankRelated) and a tuning's ranks over typed arrays must equal.
import type { ViewedRelatedSetting } from "../../src/core/recs/viewed-related-settings.js";

/** A weighted sum of score maps, each first scaled so its best score is 1; a part with no positive score, or weighed 0, adds nothing. */
function blendReference(parts: { scores: ReadonlyMap<number, number>; weight: number }[]): Map<number, number> {
  const blended = new Map<number, number>();
  for (const { scores, weight } of parts) {
    const best = Math.max(0, ...scores.values());
    if (!(best > 0) || weight === 0) continue;
    for (const [id, score] of scores) blended.set(id, (blended.get(id) ?? 0) + (weight * score) / best);
  }
  return blended;
}

/** viewed-related's blend of session scores with bought-together's; without bought-together, the session scores as they are. */
export function blendRelatedReference(
  sessionScores: ReadonlyMap<number, number>,
  copurchaseScores: ReadonlyMap<number, number>,
  setting: ViewedRelatedSetting,
): ReadonlyMap<number, number> {
  if (copurchaseScores.size === 0 || setting.copurchaseWeight === 0) return sessionScores;
  return blendReference([
    { scores: sessionScores, weight: 1 },
    { scores: copurchaseScores, weight: setting.copurchaseWeight },
  ]);
}
