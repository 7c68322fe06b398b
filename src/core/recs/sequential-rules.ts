// Sequential rules for viewed-related's re-ranker: what sessions viewed
// shortly after, right after, or shortly before one product.
import { grownTo } from "../typed-arrays.js";
import { KeySlots } from "./key-slots.js";
import { rankFlat } from "./ranking.js";
import type { SessionSource } from "./session-knn.js";

/**
 * What sessions viewed near one product, each product's votes summed as
 * 1/steps, by slot in typed arrays: a query tallies thousands of votes, and
 * the boxed sums of a map were most of its garbage. One instance serves any
 * number of products, one at a time.
 */
export class RuleVotes {
  private readonly slots = new KeySlots();
  private afterVotes = new Float64Array(256);
  private beforeVotes = new Float64Array(256);
  private rightAfterVotes = new Float64Array(256);
  sessionsRead = 0;

  /**
   * Reads up to `maxSessions` of a product's most recent sessions, and counts
   * what each viewed up to `window` steps from it.
   */
  constructor(
    private readonly maxSessions: number,
    private readonly window: number,
  ) {}

  /** Tallies the rules of `product` from its most recent sessions but `self`. */
  read(source: SessionSource, product: number, self: number): this {
    this.slots.clear();
    this.sessionsRead = 0;
    // A copy: the source's arrays do not outlive its next read, and each session's views are read below.
    const sessions = source.recentSessionsWith(product)?.slice(-(this.maxSessions + 1));
    if (sessions === undefined) return this;
    for (let k = sessions.length - 1; k >= 0 && this.sessionsRead < this.maxSessions; k--) {
      if (sessions[k] === self) continue;
      const views = source.viewsOf(sessions[k]!);
      if (views === null) continue;
      this.sessionsRead++;
      for (let i = 0; i < views.length; i++) {
        if (views[i] !== product) continue;
        for (let steps = 1; steps <= this.window; steps++) {
          const after = views[i + steps];
          if (after !== undefined && after !== product) this.voteAfter(after, 1 / steps);
          const before = views[i - steps];
          if (before !== undefined && before !== product) this.voteBefore(before, 1 / steps);
        }
        const next = views[i + 1];
        if (next !== undefined && next !== product) this.voteRightAfter(next);
      }
    }
    return this;
  }

  after(item: number): number {
    const slot = this.slots.find(item);
    return slot < 0 ? 0 : this.afterVotes[slot]!;
  }

  before(item: number): number {
    const slot = this.slots.find(item);
    return slot < 0 ? 0 : this.beforeVotes[slot]!;
  }

  rightAfter(item: number): number {
    const slot = this.slots.find(item);
    return slot < 0 ? 0 : this.rightAfterVotes[slot]!;
  }

  /** The `count` products most viewed after it (ties: the smaller id first). */
  bestAfter(count: number): number[] {
    const ids = new Float64Array(this.slots.size);
    const votes = new Float64Array(this.slots.size);
    let kept = 0;
    for (let slot = 0; slot < this.slots.size; slot++) {
      if (!(this.afterVotes[slot]! > 0)) continue;
      ids[kept] = this.slots.keyOf(slot);
      votes[kept++] = this.afterVotes[slot]!;
    }
    return rankFlat(ids, votes, kept, count);
  }

  // Each takes the slot first: a new one may grow the arrays.
  private voteAfter(item: number, vote: number): void {
    const slot = this.slotOf(item);
    this.afterVotes[slot] = this.afterVotes[slot]! + vote;
  }

  private voteBefore(item: number, vote: number): void {
    const slot = this.slotOf(item);
    this.beforeVotes[slot] = this.beforeVotes[slot]! + vote;
  }

  private voteRightAfter(item: number): void {
    const slot = this.slotOf(item);
    this.rightAfterVotes[slot] = this.rightAfterVotes[slot]! + 1;
  }

  /** The item's slot, its votes zero when new. */
  private slotOf(item: number): number {
    const before = this.slots.size;
    const slot = this.slots.slotOf(item);
    if (slot < before) return slot;
    if (slot === this.afterVotes.length) {
      this.afterVotes = grownTo(this.afterVotes, 2 * slot);
      this.beforeVotes = grownTo(this.beforeVotes, 2 * slot);
      this.rightAfterVotes = grownTo(this.rightAfterVotes, 2 * slot);
    }
    this.afterVotes[slot] = 0;
    this.beforeVotes[slot] = 0;
    this.rightAfterVotes[slot] = 0;
    return slot;
  }
}
