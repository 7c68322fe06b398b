/**
 * A weighted sum of score maps, each first scaled so its best score is 1:
 * signals on different scales (session overlap, co-purchase) mix by weight.
 */
export function blendScores(parts: { scores: Map<number, number>; weight: number }[]): Map<number, number> {
  const blended = new Map<number, number>();
  for (const { scores, weight } of parts) {
    let best = 0;
    for (const score of scores.values()) best = Math.max(best, score);
    if (!(best > 0) || weight === 0) continue;
    for (const [id, score] of scores) blended.set(id, (blended.get(id) ?? 0) + (weight * score) / best);
  }
  return blended;
}
