// The pool's queue: shoppers' tasks in arrival order, and background work
// (search-index warm-up steps) only when no shopper's task is waiting, so
// warming up after a start never makes a request wait behind it for more than
// the one step a worker may already be running.
import { Piscina, type PiscinaTask, type TaskQueue } from "piscina";

/** Queue options of a task that may wait for every shopper's task (set under Piscina.queueOptionsSymbol). */
export const BACKGROUND = Object.freeze({ background: true });

function isBackground(task: PiscinaTask): boolean {
  const options = task[Piscina.queueOptionsSymbol as keyof PiscinaTask] as { background?: boolean } | null;
  return options?.background === true;
}

export class BackgroundLastQueue implements TaskQueue {
  private readonly foreground: PiscinaTask[] = [];
  private readonly background: PiscinaTask[] = [];

  get size(): number {
    return this.foreground.length + this.background.length;
  }

  push(task: PiscinaTask): void {
    (isBackground(task) ? this.background : this.foreground).push(task);
  }

  shift(): PiscinaTask | null {
    return this.foreground.shift() ?? this.background.shift() ?? null;
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
