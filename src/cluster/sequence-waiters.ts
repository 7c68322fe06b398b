// Callers waiting for this node to have applied a stream sequence: a read
// after a write elsewhere (X-Aisle-After-Seq), bounded in time.

interface Waiter {
  seq: number;
  resolve: () => void;
  timer: NodeJS.Timeout;
}

export class SequenceWaiters {
  private waiters: Waiter[] = [];

  /** Null when `seq` is applied already; else a promise that resolves once it is, or after `withinMs` either way. */
  waitFor(applied: number, seq: number, withinMs: number): Promise<void> | null {
    if (seq <= applied) return null;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        seq,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((other) => other !== waiter);
          resolve();
        }, withinMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Resolves every waiter whose sequence is now applied. */
  reached(applied: number): void {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.seq > applied) {
        still.push(waiter);
        continue;
      }
      clearTimeout(waiter.timer);
      waiter.resolve();
    }
    this.waiters = still;
  }

  /** Lets every waiter go (the node is closing). */
  release(): void {
    this.reached(Number.POSITIVE_INFINITY);
  }
}
