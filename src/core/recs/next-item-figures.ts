// The next-item protocol's figures: for each case, is the next view among the
// top NEXT_ITEM_K, and at which rank.

/** How many items a case's ranking is judged on (HR@20, MRR@20). */
export const NEXT_ITEM_K = 20;

/** HR@K and MRR@K in percent, over `cases`. */
export interface NextItemFigures {
  hr: number;
  mrr: number;
  cases: number;
}

/**
 * Where `target` ranks (0: first) among the positive scores, best first, ties
 * by the smaller id (rankByScore's order), `leftOut` items not counted,
 * without sorting them; -1 when it has no positive score or is left out.
 */
export function hitRank(scores: ReadonlyMap<number, number>, target: number, leftOut?: ReadonlySet<number>): number {
  const own = scores.get(target);
  if (own === undefined || !(own > 0) || leftOut?.has(target)) return -1;
  let rank = 0;
  for (const [item, score] of scores) if ((score > own || (score === own && item < target)) && !leftOut?.has(item)) rank++;
  return rank;
}

/** Sums cases' ranks into figures. */
export class FiguresTally {
  private cases = 0;
  private hits = 0;
  private reciprocal = 0;

  /** A case whose target ranked `rank` (0: first; -1 or beyond K: a miss). */
  add(rank: number): void {
    this.cases++;
    if (rank < 0 || rank >= NEXT_ITEM_K) return;
    this.hits++;
    this.reciprocal += 1 / (rank + 1);
  }

  figures(): NextItemFigures {
    const cases = Math.max(1, this.cases);
    return { hr: (100 * this.hits) / cases, mrr: (100 * this.reciprocal) / cases, cases: this.cases };
  }
}
