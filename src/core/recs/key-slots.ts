// Per-query scratch for keys that are too sparse to index an array by: session
// arrival numbers grow without bound, product ids reach past 2³¹. A query
// gives each key it meets a dense slot (0, 1, … in the order met), and keeps
// what it computes per key in typed arrays indexed by slot. Forgetting every
// key for the next query is one increment of a stamp, not a clear.

const TWO_32 = 2 ** 32;

/** Non-negative integers below 2⁵³ → slots 0 … size − 1, in the order they were added. */
export class KeySlots {
  /** The key of each slot. */
  private keys = new Float64Array(512);
  /** Open addressing: at each position the slot of a key of the current stamp (linear probing). */
  private table = new Int32Array(1024);
  /** A position is in use when its mark equals the stamp. */
  private marks = new Int32Array(1024);
  private stamp = 1;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Forgets every key. */
  clear(): void {
    this.count = 0;
    if (++this.stamp === 2 ** 31 - 1) {
      this.marks.fill(0);
      this.stamp = 1;
    }
  }

  keyOf(slot: number): number {
    return this.keys[slot]!;
  }

  /** The slot of `key`, or -1 when it was not added since the last clear. */
  find(key: number): number {
    const mask = this.table.length - 1;
    for (let position = keyHash(key) & mask; ; position = (position + 1) & mask) {
      if (this.marks[position] !== this.stamp) return -1;
      const slot = this.table[position]!;
      if (this.keys[slot] === key) return slot;
    }
  }

  /** The slot of `key`, the next one if it was not added since the last clear (then `size` grows by one). */
  slotOf(key: number): number {
    if (2 * (this.count + 1) > this.table.length) this.grow();
    const mask = this.table.length - 1;
    let position = keyHash(key) & mask;
    for (; this.marks[position] === this.stamp; position = (position + 1) & mask) {
      const slot = this.table[position]!;
      if (this.keys[slot] === key) return slot;
    }
    const slot = this.count++;
    if (slot === this.keys.length) {
      const keys = new Float64Array(slot * 2);
      keys.set(this.keys);
      this.keys = keys;
    }
    this.keys[slot] = key;
    this.marks[position] = this.stamp;
    this.table[position] = slot;
    return slot;
  }

  private place(slot: number): void {
    const mask = this.table.length - 1;
    let position = keyHash(this.keys[slot]!) & mask;
    while (this.marks[position] === this.stamp) position = (position + 1) & mask;
    this.marks[position] = this.stamp;
    this.table[position] = slot;
  }

  private grow(): void {
    this.table = new Int32Array(this.table.length * 2);
    this.marks = new Int32Array(this.table.length);
    this.stamp = 1;
    for (let slot = 0; slot < this.count; slot++) this.place(slot);
  }
}

/** A key's hash: Murmur3's 32-bit finishing mix of both its 32-bit halves (product ids reach past 2³¹). */
export function keyHash(key: number): number {
  let h = (key | 0) ^ Math.imul(Math.floor(key / TWO_32), 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
