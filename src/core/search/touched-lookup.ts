// Finding a query's touched docs in a common word's postings. Once the rarer
// words of a query have brought its candidates, a common word only adds its
// score to them: a few thousand docs among the hundreds of thousands of
// postings that "the", or the completions of one typed letter, hold in a big
// shop. Two ways, whichever reads less:
// - few candidates: each is looked up by galloping from the last one found,
//   doubling the stride until it is passed, then halving back: a few
//   postings read per candidate, whatever the word's length;
// - many: every posting is read and checked against a bitset of the
//   candidates, which at an eighth of a byte per doc stays in the core's
//   cache where a per-doc array of a million-product shop would not.
import type { PostingBlock } from "./postings.js";

export class TouchedLookup {
  private sorted = new Int32Array(0);
  private bits = new Uint32Array(0);
  private size = 0;
  private sortedReady = false;
  private bitsReady = false;
  /** The next sorted doc to look for: those before it lie before the blocks read so far. */
  private next = 0;

  /**
   * Looks up the first `count` of `docs` (in any order, each once), all below
   * `capacity`, until `release`; the sorted copy and the bitset are made on
   * first use.
   */
  take(docs: Int32Array, count: number, capacity: number): void {
    this.release();
    if (this.sorted.length < count) this.sorted = new Int32Array(Math.max(1024, count * 2));
    this.sorted.set(docs.subarray(0, count));
    const words = (capacity >>> 5) + 1;
    if (this.bits.length < words) this.bits = new Uint32Array(words);
    this.size = count;
  }

  /** Clears the bitset (docs only: the rest is zero already). */
  release(): void {
    if (this.bitsReady) {
      const { sorted, bits } = this;
      for (let i = 0; i < this.size; i++) bits[sorted[i]! >>> 5] = 0;
    }
    this.size = 0;
    this.sortedReady = false;
    this.bitsReady = false;
  }

  /**
   * Whether galloping through `postings` postings reads fewer than a scan:
   * each doc costs about the logarithm of the stride between docs, and a
   * step of a gallop about four of a scan.
   */
  gallopPays(postings: number): boolean {
    return 4 * this.size * (Math.log2(postings / Math.max(1, this.size) + 1) + 2) < postings;
  }

  /** The bitset: bit doc & 31 of word doc >>> 5 is set for each doc looked up. */
  bitset(): Uint32Array {
    if (!this.bitsReady) {
      const { sorted, bits } = this;
      for (let i = 0; i < this.size; i++) bits[sorted[i]! >>> 5]! |= 1 << (sorted[i]! & 31);
      this.bitsReady = true;
    }
    return this.bits;
  }

  /** Starts a term's blocks: they must then come in doc order. */
  rewind(): void {
    if (!this.sortedReady) {
      this.sorted.subarray(0, this.size).sort();
      this.sortedReady = true;
    }
    this.next = 0;
  }

  /** Calls `found` with the position in `block` of each doc looked up that it holds. */
  findIn(block: PostingBlock, found: (position: number) => void): void {
    const { sorted, size } = this;
    const { count, docs } = block;
    if (count === 0) return;
    const last = docs[count - 1]!;
    let low = 0;
    let at = this.next;
    for (; at < size && sorted[at]! <= last; at++) {
      const doc = sorted[at]!;
      // Every position before low holds a lower doc; gallop until one at or past doc, then search back.
      let stride = 1;
      let high = low;
      while (high < count && docs[high]! < doc) {
        low = high + 1;
        high += stride;
        stride *= 2;
      }
      if (high > count) high = count;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (docs[mid]! < doc) low = mid + 1;
        else high = mid;
      }
      if (low < count && docs[low] === doc) found(low);
    }
    this.next = at;
  }
}
