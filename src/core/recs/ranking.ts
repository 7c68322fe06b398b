// A ranking of products by score that sorts only as far as it is read. A list
// endpoint reads a few dozen ranks, but a shop-wide best-seller ranking of a
// big shop holds most of its catalogue (766k products at 1M): sorting all of
// them took about half a second, selecting the first ranks takes milliseconds.

/** The first ranks are sorted this many at a time, then twice as many each time the reader goes on. */
const FIRST_SORTED = 256;

export class Ranking implements Iterable<number> {
  /** Candidate slots; [0, sorted) is in rank order, the rest holds every lower-ranked slot in no order. */
  private readonly order: Int32Array;
  private sorted = 0;
  private readonly before: (a: number, b: number) => number;

  /**
   * `ids[slot]` is the product id of a slot and `scores[slot]` its score;
   * `slots` are the slots to rank (taken over, not copied). Higher scores rank
   * first, ties by product id, so a list is the same from one request to the next.
   */
  constructor(
    private readonly ids: ArrayLike<number>,
    scores: ArrayLike<number>,
    slots: Int32Array,
  ) {
    this.order = slots;
    this.before = (a, b) => scores[b]! - scores[a]! || ids[a]! - ids[b]!;
  }

  /** Ranks every slot with a score that `keep` accepts (by default, above zero). */
  static of(ids: ArrayLike<number>, scores: ArrayLike<number>, keep: (score: number) => boolean = (score) => score > 0): Ranking {
    let count = 0;
    for (let slot = 0; slot < scores.length; slot++) if (keep(scores[slot]!)) count++;
    const slots = new Int32Array(count);
    count = 0;
    for (let slot = 0; slot < scores.length; slot++) if (keep(scores[slot]!)) slots[count++] = slot;
    return new Ranking(ids, scores, slots);
  }

  get size(): number {
    return this.order.length;
  }

  *[Symbol.iterator](): Generator<number> {
    for (let rank = 0; rank < this.order.length; rank++) {
      if (rank === this.sorted) this.sortThrough(Math.max(FIRST_SORTED, 2 * this.sorted));
      yield this.ids[this.order[rank]!]!;
    }
  }

  /** Every ranked product id, in rank order. */
  all(): number[] {
    this.sortThrough(this.order.length);
    return Array.from(this.order, (slot) => this.ids[slot]!);
  }

  /** Sorts ranks up to `end`: selects the slots that belong there, then sorts only those. */
  private sortThrough(end: number): void {
    end = Math.min(end, this.order.length);
    if (end <= this.sorted) return;
    const rest = this.order.subarray(this.sorted);
    if (end < this.order.length) selectFirst(rest, end - this.sorted, this.before);
    rest.subarray(0, end - this.sorted).sort(this.before);
    this.sorted = end;
  }
}

/**
 * Reorders `items` so that its first `k` are the k that `before` puts first,
 * in no particular order (quickselect: linear time on average).
 */
export function selectFirst(items: Int32Array | number[], k: number, before: (a: number, b: number) => number): void {
  let low = 0;
  let high = items.length - 1;
  while (low < high) {
    // Median of three as the pivot: sorted or reversed input stays linear.
    const middle = (low + high) >>> 1;
    if (before(items[middle]!, items[low]!) < 0) swap(items, middle, low);
    if (before(items[high]!, items[low]!) < 0) swap(items, high, low);
    if (before(items[high]!, items[middle]!) < 0) swap(items, high, middle);
    const pivot = items[middle]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (before(items[i]!, pivot) < 0) i++;
      while (before(pivot, items[j]!) < 0) j--;
      if (i <= j) swap(items, i++, j--);
    }
    // [low, j] ranks at or before the pivot, [i, high] at or after it.
    if (k - 1 <= j) high = j;
    else if (k - 1 >= i) low = i;
    else return;
  }
}

function swap(items: Int32Array | number[], a: number, b: number): void {
  const item = items[a]!;
  items[a] = items[b]!;
  items[b] = item;
}
