// A bounded "keep the best N" heap whose subclasses hold their entries in
// columns (typed arrays) by position: the worst entry kept sits at position 0,
// so an offer is compared with it alone and, once the heap is full, replaces it.

export abstract class WorstFirstHeap {
  protected size = 0;

  constructor(protected readonly capacity: number) {}

  /** Whether the entry at position `a` ranks below the one at `b`. */
  protected abstract worseAt(a: number, b: number): boolean;
  /** Exchanges the entries at two positions, in every column. */
  protected abstract swap(a: number, b: number): void;

  protected get full(): boolean {
    return this.size === this.capacity;
  }

  /** Keeps the entry just written at position `size` (there is room). */
  protected pushed(): void {
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worseAt(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** Restores the order after a better entry was written over the worst, at position 0. */
  protected replacedWorst(): void {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      let worst = i;
      if (left < this.size && this.worseAt(left, worst)) worst = left;
      if (left + 1 < this.size && this.worseAt(left + 1, worst)) worst = left + 1;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }
}
