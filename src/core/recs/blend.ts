// Blends of score maps: signals on different scales (session overlap,
// co-purchase) mix by weight once each is scaled so its best score is 1.
import { grownTo } from "../typed-arrays.js";
import { bestScore, flatOf, type ScoreLookup } from "./item-scores.js";
import { KeySlots } from "./key-slots.js";
import { rankFlat, rankFlatLazily } from "./ranking.js";

export interface WeightedScores {
  scores: ScoreLookup;
  weight: number;
}

/** The blend's scratch: a thread ranks one blend at a time. */
const slots = new KeySlots();
let sums = new Float64Array(1024);

/**
 * The ids of positive score in the weighted sum of `parts`, each scaled so
 * its best score is 1 (a part without a positive score, or weighed 0, adds
 * nothing), ranked as rankByScore ranks (higher first, ties by the smaller
 * id), the first `count` of them.
 */
export function rankBlend(parts: readonly WeightedScores[], count = Number.POSITIVE_INFINITY): number[] {
  const { ids, values, kept } = blended(parts);
  return rankFlat(ids, values, kept, count);
}

/** rankBlend's whole ranking, sorted as it is read (rankFlatLazily): for a list that reads a few of hundreds. Read once. */
export function rankBlendLazily(parts: readonly WeightedScores[]): Iterable<number> {
  const { ids, values, kept } = blended(parts);
  return rankFlatLazily(ids, values, kept);
}

/**
 * The weighted sum's positive entries as flat (ids, values), the first `kept`.
 * Summed into flat arrays, not a map: a viewed-related answer blends hundreds
 * of scores per request, and a map's entries were most of its garbage.
 */
function blended(parts: readonly WeightedScores[]): { ids: Float64Array; values: Float64Array; kept: number } {
  slots.clear();
  for (const { scores, weight } of parts) {
    const best = bestScore(scores);
    if (!(best > 0) || weight === 0) continue;
    const flat = flatOf(scores);
    for (let entry = 0; entry < flat.items.length; entry++) {
      const before = slots.size;
      const slot = slots.slotOf(flat.items[entry]!);
      if (slot === sums.length) sums = grownTo(sums, 2 * slot);
      sums[slot] = (slot === before ? 0 : sums[slot]!) + (weight * flat.scores[entry]!) / best;
    }
  }
  const ids = new Float64Array(slots.size);
  const values = new Float64Array(slots.size);
  let kept = 0;
  for (let slot = 0; slot < slots.size; slot++) {
    if (!(sums[slot]! > 0)) continue;
    ids[kept] = slots.keyOf(slot);
    values[kept++] = sums[slot]!;
  }
  return { ids, values, kept };
}
