// The pool's queue: shoppers' tasks in arrival order, and background work
// (index warm-up steps) when no shopper's task is waiting, so warming
// up after a start makes a request wait for at most the one step a worker may
// be running. So that a pool that never drains still warms up, a background
// task also goes first once BACKGROUND_EVERY_MS have passed since the last
// one started: at ~5 ms a step, about a tenth of the worker's time.
import { Piscina, type PiscinaTask, type TaskQueue } from "piscina";

/** Queue options of a task that may wait for every shopper's task (set under Piscina.queueOptionsSymbol). */
export const BACKGROUND = Object.freeze({ background: true });

function isBackground(task: PiscinaTask): boolean {
  const options = task[Piscina.queueOptionsSymbol as keyof PiscinaTask] as { background?: boolean } | null;
  return options?.background === true;
}

/** Under sustained load, a background task is handed out at least this often. */
export const BACKGROUND_EVERY_MS = 50;

export class BackgroundLastQueue implements TaskQueue {
  private readonly foreground: PiscinaTask[] = [];
  private readonly background: PiscinaTask[] = [];
  private lastBackgroundAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  get size(): number {
    return this.foreground.length + this.background.length;
  }

  push(task: PiscinaTask): void {
    (isBackground(task) ? this.background : this.foreground).push(task);
  }

  shift(): PiscinaTask | null {
    const now = this.now();
    const backgroundDue = this.foreground.length === 0 || now - this.lastBackgroundAt >= BACKGROUND_EVERY_MS;
    if (this.background.length > 0 && backgroundDue) {
      this.lastBackgroundAt = now;
      return this.background.shift()!;
    }
    return this.foreground.shift() ?? null;
  }

  /**
   * Puts back a task piscina took but could not hand to a worker. Optional in
   * piscina's TaskQueue, but without it such a task goes to the tail (with
   * stricterFIFO), behind everything that arrived after it: p99 tripled.
   */
  unshift(task: PiscinaTask): void {
    if (isBackground(task)) {
      this.background.unshift(task);
      // It did not run: it stays due.
      this.lastBackgroundAt = Number.NEGATIVE_INFINITY;
    } else {
      this.foreground.unshift(task);
    }
  }

  remove(task: PiscinaTask): void {
    for (const list of [this.foreground, this.background]) {
      const index = list.indexOf(task);
      if (index !== -1) {
        list.splice(index, 1);
        return;
      }
    }
  }
}
