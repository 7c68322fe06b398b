// A validation case as a tuning ranks it under dozens of settings. Ranking it
// through maps (SessionKnn.score, the blend with bought-together, hitRank)
// costs more than the vote itself, so the case keeps what its rank needs in
// its neighbourhood's local item numbers, and each setting's rank is a pass
// over the vote's typed arrays. It counts exactly as hitRank of the blend
// does: the same scores, the same operations, the same ties.
import type { KnnVote, Neighbourhood } from "./session-knn.js";

export class TuningCase {
  /** The next view's local item (-1: none of the neighbourhood's items) and its bought-together score. */
  private readonly target: number;
  private readonly targetCopurchase: number | undefined;
  private readonly targetViewed: boolean;
  /** Per local item: viewed in the prefix (left out in the served setting). */
  private readonly viewedLocal: Uint8Array;
  /** Bought-together's items: local item (-1: not in the neighbourhood), product id, score, viewed in the prefix. */
  private readonly copurchaseLocal: Int32Array;
  private readonly copurchaseIds: Float64Array;
  private readonly copurchaseScores: Float64Array;
  private readonly copurchaseViewed: Uint8Array;
  private readonly copurchaseBest: number;

  constructor(
    readonly hood: Neighbourhood,
    private readonly targetId: number,
    viewed: ReadonlySet<number>,
    copurchase: ReadonlyMap<number, number>,
  ) {
    const local = new Map<number, number>();
    hood.items.forEach((item, at) => local.set(item, at));
    this.target = local.get(targetId) ?? -1;
    this.targetCopurchase = copurchase.get(targetId);
    this.targetViewed = viewed.has(targetId);
    this.viewedLocal = Uint8Array.from(hood.items, (item) => (viewed.has(item) ? 1 : 0));
    const ids = [...copurchase.keys()];
    this.copurchaseIds = Float64Array.from(ids);
    this.copurchaseLocal = Int32Array.from(ids, (item) => local.get(item) ?? -1);
    this.copurchaseScores = Float64Array.from(copurchase.values());
    this.copurchaseViewed = Uint8Array.from(ids, (item) => (viewed.has(item) ? 1 : 0));
    let best = 0;
    for (const score of this.copurchaseScores) best = Math.max(best, score);
    this.copurchaseBest = best;
  }

  /**
   * Where the next view ranks (0: first; -1: unranked) among the vote's
   * scores blended with bought-together at `copurchaseWeight` as
   * viewed-related blends them (rankRelated), viewed products left out or
   * not. `scratch` has room for every local item and is zero on entry and on
   * return.
   */
  rank(vote: KnnVote, copurchaseWeight: number, leaveOutViewed: boolean, scratch: Int32Array): number {
    if (this.copurchaseIds.length === 0 || copurchaseWeight === 0) return this.rankOfVote(vote, leaveOutViewed);
    const { count, items, scores, scored } = vote;
    const itemIds = this.hood.items;
    const leftOut = (local: number) => leaveOutViewed && this.viewedLocal[local] === 1;
    let firstBest = 0;
    for (let k = 0; k < count; k++) firstBest = Math.max(firstBest, scores[items[k]!]!);
    const withFirst = firstBest > 0;
    const withSecond = this.copurchaseBest > 0;
    const secondBest = this.copurchaseBest;
    const inFirst = (local: number) => withFirst && local >= 0 && scored[local] === 1;

    const one = inFirst(this.target) ? scores[this.target]! : undefined;
    const other = withSecond ? this.targetCopurchase : undefined;
    if (one === undefined && other === undefined) return -1;
    const start = one === undefined ? 0 : one / firstBest;
    const own = other === undefined ? start : start + (copurchaseWeight * other) / secondBest;
    if (!(own > 0) || (leaveOutViewed && this.targetViewed)) return -1;

    const targetId = this.targetId;
    const beats = (id: number, score: number) => score > own || (score === own && id < targetId);
    let rank = 0;
    if (withFirst) {
      // Each local item's bought-together entry, plus one (0: none), cleared below.
      if (withSecond)
        for (let e = 0; e < this.copurchaseLocal.length; e++) if (this.copurchaseLocal[e]! >= 0) scratch[this.copurchaseLocal[e]!] = e + 1;
      for (let k = 0; k < count; k++) {
        const local = items[k]!;
        const entry = scratch[local]! - 1;
        const first = scores[local]! / firstBest;
        const score = entry < 0 ? first : first + (copurchaseWeight * this.copurchaseScores[entry]!) / secondBest;
        if (beats(itemIds[local]!, score) && !leftOut(local)) rank++;
      }
      if (withSecond)
        for (let e = 0; e < this.copurchaseLocal.length; e++) if (this.copurchaseLocal[e]! >= 0) scratch[this.copurchaseLocal[e]!] = 0;
    }
    if (withSecond)
      for (let e = 0; e < this.copurchaseLocal.length; e++) {
        const local = this.copurchaseLocal[e]!;
        if (inFirst(local)) continue;
        const score = (copurchaseWeight * this.copurchaseScores[e]!) / secondBest;
        const viewed = leaveOutViewed && this.copurchaseViewed[e] === 1;
        if (beats(this.copurchaseIds[e]!, score) && !viewed) rank++;
      }
    return rank;
  }

  /** hitRank over the vote's scores alone. */
  private rankOfVote(vote: KnnVote, leaveOutViewed: boolean): number {
    const { count, items, scores, scored } = vote;
    const target = this.target;
    if (target < 0 || scored[target] === 0) return -1;
    const own = scores[target]!;
    if (!(own > 0) || (leaveOutViewed && this.viewedLocal[target] === 1)) return -1;
    const itemIds = this.hood.items;
    let rank = 0;
    for (let k = 0; k < count; k++) {
      const local = items[k]!;
      const score = scores[local]!;
      if ((score > own || (score === own && itemIds[local]! < this.targetId)) && !(leaveOutViewed && this.viewedLocal[local] === 1)) rank++;
    }
    return rank;
  }
}
