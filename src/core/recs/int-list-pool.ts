// Millions of short, growing int lists (a session's items, an item's sessions)
// as objects cost an object, a typed array and its buffer each: ~200 bytes
// before the first item, and millions of things for the garbage collector to
// trace. Here every list is a slot in one shared Int32Array, described by three
// ints. A full slot moves to the pool's end at twice its capacity; the hole it
// leaves is reclaimed when the pool itself has to grow.

import { grownTo } from "../typed-arrays.js";

/** Capacity of a list's first slot. */
const FIRST_CAPACITY = 4;

export class IntListPool {
  /** Every list's items, each list contiguous at its start. Read with start(); valid until the next push. */
  data = new Int32Array(1024);
  /** End of the used part of `data`. */
  private end = 0;
  /** Slots in the used part that no list owns any more. */
  private holes = 0;
  private starts = new Int32Array(256);
  private lengths = new Int32Array(256);
  private capacities = new Int32Array(256);
  private count = 0;

  /** Lists in the pool, numbered 0 … size − 1 in the order they were added. */
  get size(): number {
    return this.count;
  }

  /** Ints the pool holds, its bookkeeping included (what it costs in memory, ÷ 4 bytes). */
  get allocatedInts(): number {
    return this.data.length + 3 * this.starts.length;
  }

  /** Adds an empty list; returns its number. */
  add(): number {
    if (this.count === this.starts.length) {
      const size = this.count * 2;
      this.starts = grownTo(this.starts, size);
      this.lengths = grownTo(this.lengths, size);
      this.capacities = grownTo(this.capacities, size);
    }
    return this.count++;
  }

  length(list: number): number {
    return this.lengths[list]!;
  }

  /** Where the list's items begin in `data`. */
  start(list: number): number {
    return this.starts[list]!;
  }

  push(list: number, value: number): void {
    const length = this.lengths[list]!;
    if (length === this.capacities[list]!) this.move(list, Math.max(FIRST_CAPACITY, length * 2));
    this.data[this.starts[list]! + length] = value;
    this.lengths[list] = length + 1;
  }

  /** Moves the list to a slot of `capacity` at the pool's end. */
  private move(list: number, capacity: number): void {
    if (this.end + capacity > this.data.length) this.makeRoom(capacity);
    const from = this.starts[list]!;
    const length = this.lengths[list]!;
    this.data.copyWithin(this.end, from, from + length);
    this.holes += this.capacities[list]!;
    this.starts[list] = this.end;
    this.capacities[list] = capacity;
    this.end += capacity;
  }

  /**
   * Room for `needed` more ints at the end: every list copied to a new pool
   * half again the size of what is live, which also squeezes out the holes (so
   * they never outgrow the lists).
   */
  private makeRoom(needed: number): void {
    const live = this.end - this.holes;
    const target = new Int32Array(Math.max(1024, Math.ceil((live + needed) * 1.5)));
    const { data } = this;
    let at = 0;
    for (let list = 0; list < this.count; list++) {
      const from = this.starts[list]!;
      const length = this.lengths[list]!;
      // Element by element: most lists are a few ints, where a subarray per list costs more than the copy.
      for (let i = 0; i < length; i++) target[at + i] = data[from + i]!;
      this.starts[list] = at;
      at += this.capacities[list]!;
    }
    this.data = target;
    this.end = at;
    this.holes = 0;
  }
}
