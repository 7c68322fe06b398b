// The order in which tasks reach the workers. Tasks wait in one queue per
// merchant, and the queues take turns: a merchant with hundreds of tasks
// waiting delays another merchant's task by at most one task of its own
// beyond those already handed to the workers, where one shared
// first-in-first-out queue made it wait for all of them.
// Only `slots` tasks (TASKS_PER_WORKER per worker, see pool.ts) are handed on
// at a time, so everything else that waits, waits here, where the order is
// decided; a handed task waits in its worker for at most the one it runs.
//
// At most `maxQueued` tasks wait in all. When that is reached, a task takes
// the place of the newest task of the longest queue, which is refused,
// provided that queue is longer than the newcomer's own: a merchant flooding
// the pool meets the refusals first, and cannot push the others' tasks out.
//
// A waiting task whose client has gone away is dropped: a slow task kind whose
// clients time out would otherwise leave a backlog of answers nobody reads, and
// every other task would wait behind it (measured on a 1M-product shop: a
// request waited 12 s behind twenty abandoned ones).
import type { Abandonment } from "./abandonment.js";
import { PoolSaturatedError, TaskAbandonedError } from "./protocol.js";

export interface SchedulerOptions {
  /** Tasks handed on at once: TASKS_PER_WORKER per worker (see pool.ts). */
  slots: number;
  /** Tasks waiting at most, all queues together. */
  maxQueued: number;
}

interface Waiting {
  start: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class FairScheduler {
  /** Queues by merchant, in the order they take turns (a queue that was served goes last). */
  private readonly turns = new Map<string, Waiting[]>();
  private waiting = 0;
  private running = 0;
  private closedWith: Error | null = null;

  constructor(private readonly options: SchedulerOptions) {}

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting;
  }

  /**
   * Runs `start` once it is `lane`'s turn and a slot is free; settles as its
   * promise does, or rejects with PoolSaturatedError when the task is refused
   * (at once, or later when a shorter queue takes its place), or with
   * TaskAbandonedError when it is `abandoned` before its turn.
   */
  submit<T>(lane: string, start: () => Promise<T>, abandoned?: Abandonment): Promise<T> {
    if (this.closedWith !== null) return Promise.reject(this.closedWith);
    // Before any room is made for it: a task nobody waits for must not push out another's.
    if (abandoned?.abandoned) return Promise.reject(new TaskAbandonedError("the client went away before the task was submitted"));
    return new Promise<T>((resolve, reject) => {
      const task: Waiting = { start, resolve: resolve as (value: unknown) => void, reject };
      const queue = this.turns.get(lane);
      if (this.waiting >= this.options.maxQueued && !this.makeRoom(queue?.length ?? 0)) {
        reject(new PoolSaturatedError("worker pool queue is full"));
        return;
      }
      if (queue) queue.push(task);
      else this.turns.set(lane, [task]);
      this.waiting++;
      if (abandoned) this.dropWhenAbandoned(lane, task, abandoned);
      this.dispatch();
    });
  }

  /** Refuses every waiting task, and every later one, with `error` (the pool is closing); tasks already running finish. */
  close(error: Error): void {
    this.closedWith = error;
    for (const queue of this.turns.values()) for (const task of queue) task.reject(error);
    this.turns.clear();
    this.waiting = 0;
  }

  /** Takes the task out of its queue if it is `abandoned` while it still waits there. */
  private dropWhenAbandoned(lane: string, task: Waiting, abandoned: Abandonment): void {
    const drop = () => {
      const queue = this.turns.get(lane);
      const at = queue?.indexOf(task) ?? -1;
      if (at === -1) return; // started, refused or closed meanwhile
      queue!.splice(at, 1);
      if (queue!.length === 0) this.turns.delete(lane);
      this.waiting--;
      task.reject(new TaskAbandonedError("the client went away before the task's turn"));
    };
    const stopListening = abandoned.onAbandon(drop);
    // Once handed on, the task leaves this queue; the pool drops it unrun if its client goes before its worker starts it (pool.ts).
    const start = task.start;
    task.start = () => {
      stopListening();
      return start();
    };
  }

  /** Whether a task of a queue holding `ownLength` may wait, the newest task of a longer queue being refused for it. */
  private makeRoom(ownLength: number): boolean {
    let longest: Waiting[] = [];
    let longestLane = "";
    for (const [lane, queue] of this.turns) {
      if (queue.length > longest.length) {
        longest = queue;
        longestLane = lane;
      }
    }
    if (longest.length <= ownLength) return false;
    longest.pop()!.reject(new PoolSaturatedError("worker pool queue is full, and this merchant has the most tasks waiting"));
    this.waiting--;
    if (longest.length === 0) this.turns.delete(longestLane);
    return true;
  }

  private dispatch(): void {
    while (this.running < this.options.slots && this.waiting > 0) {
      const task = this.next();
      this.waiting--;
      this.running++;
      let started: Promise<unknown>;
      try {
        started = task.start();
      } catch (error) {
        started = Promise.reject(error);
      }
      started.then(
        (value) => this.settled(task.resolve, value),
        (error: unknown) => this.settled(task.reject, error),
      );
    }
  }

  private settled(settle: (outcome: unknown) => void, outcome: unknown): void {
    this.running--;
    // The freed worker gets its next task before anyone hears of this one.
    this.dispatch();
    settle(outcome);
  }

  private next(): Waiting {
    const [lane, queue] = this.turns.entries().next().value!;
    const task = queue.shift()!;
    // Served: the queue's next task waits for every other queue's turn.
    this.turns.delete(lane);
    if (queue.length > 0) this.turns.set(lane, queue);
    return task;
  }
}
