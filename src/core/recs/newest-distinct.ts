// The n-th largest distinct number of a batch: session kNN's oldest sampled
// session (the sample is the most recent `sampleSize` of the sessions that
// share a prefix's products). Sorting the batch took most of a demo-shop
// query (V8's sort: about 47 µs for 5,000 session numbers, in runs); marking
// the numbers in a bitmap over their range and counting its bits down from the
// top takes a fraction of that. A range too wide for a bitmap of a few words
// per number is sorted instead.

/** Bitmap words per number beyond which the batch is sorted instead: a batch spread far apart. */
const WORDS_PER_NUMBER_AT_MOST = 4;

export class NewestDistinct {
  private bitmap = new Int32Array(1024);

  /**
   * The `n`-th largest distinct value among `numbers` (non-negative integers),
   * counting each value once; -Infinity when they hold fewer than `n` distinct
   * values. `numbers` may be reordered.
   */
  nthLargest(numbers: Int32Array, n: number): number {
    const length = numbers.length;
    if (length === 0 || n <= 0) return Number.NEGATIVE_INFINITY;
    let smallest = numbers[0]!;
    let largest = smallest;
    for (let i = 1; i < length; i++) {
      const value = numbers[i]!;
      if (value < smallest) smallest = value;
      else if (value > largest) largest = value;
    }
    const words = ((largest - smallest) >>> 5) + 1;
    if (words > WORDS_PER_NUMBER_AT_MOST * length + 64) return bySorting(numbers, n);
    if (words > this.bitmap.length) this.bitmap = new Int32Array(2 * words);
    const bitmap = this.bitmap;
    for (let i = 0; i < length; i++) {
      const offset = numbers[i]! - smallest;
      bitmap[offset >>> 5] = bitmap[offset >>> 5]! | (1 << (offset & 31));
    }
    let found = Number.NEGATIVE_INFINITY;
    let distinct = 0;
    for (let word = words - 1; word >= 0; word--) {
      const bits = bitmap[word]!;
      if (bits === 0) continue;
      const count = bitCount(bits);
      if (distinct + count < n) {
        distinct += count;
        continue;
      }
      // The value is in this word: its bits, from the highest, until the n-th.
      let left = n - distinct;
      for (let bit = 31; bit >= 0; bit--) {
        if ((bits & (1 << bit)) !== 0 && --left === 0) {
          found = smallest + word * 32 + bit;
          break;
        }
      }
      break;
    }
    bitmap.fill(0, 0, words);
    return found;
  }
}

function bySorting(numbers: Int32Array, n: number): number {
  numbers.sort();
  let distinct = 0;
  for (let k = numbers.length - 1; k >= 0; k--) {
    if (k === numbers.length - 1 || numbers[k] !== numbers[k + 1]) distinct++;
    if (distinct === n) return numbers[k]!;
  }
  return Number.NEGATIVE_INFINITY;
}

/** Set bits of a 32-bit word (the usual parallel count). */
function bitCount(word: number): number {
  let bits = word - ((word >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
