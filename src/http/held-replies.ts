// Refusals held back before they are written. A client that ignores
// Retry-After and sends again the moment its 429 arrives gets answered as fast
// as this thread can refuse it: one key flooding over 256 connections took
// 87k refusals a second, the whole HTTP thread, and every other key's requests
// waited behind it (a cached answer's p99 went from 2.6 to 5.5 ms). Holding each
// refusal for a second bounds such a client to about one request per
// connection per second, whatever it does, and costs a well-behaved one
// nothing: it was told not to retry sooner.
//
// Every reply is held for the same delay, so they fall due in the order they
// came: a queue, and one timer for its head.

/** Replies held at most: beyond, a refusal is written at once (each holds its connection's response until then). */
export const MAX_HELD = 10_000;

interface Held {
  dueAt: number;
  send: () => void;
}

export class HeldReplies {
  /** Sent entries are cleared to undefined until the queue is compacted. */
  private readonly queue: (Held | undefined)[] = [];
  /** The queue's head: entries before it are sent (shifting a long array each time would be quadratic). */
  private head = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly delayMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Calls `send` after the delay; false when none applies (no delay, or MAX_HELD held): the caller sends now. */
  hold(send: () => void): boolean {
    if (this.delayMs <= 0 || this.size >= MAX_HELD) return false;
    this.queue.push({ dueAt: this.now() + this.delayMs, send });
    this.timer ??= setTimeout(() => this.sendDue(), this.delayMs).unref();
    return true;
  }

  get size(): number {
    return this.queue.length - this.head;
  }

  /** Sends every held reply now (the server drains: each is told to close its connection). */
  flush(): void {
    this.sendWhile(() => true);
  }

  private sendDue(): void {
    this.timer = null;
    const now = this.now();
    this.sendWhile((dueAt) => dueAt <= now);
    if (this.size > 0) this.timer = setTimeout(() => this.sendDue(), Math.max(1, this.queue[this.head]!.dueAt - now)).unref();
  }

  private sendWhile(due: (dueAt: number) => boolean): void {
    while (this.head < this.queue.length && due(this.queue[this.head]!.dueAt)) {
      const { send } = this.queue[this.head]!;
      this.queue[this.head++] = undefined;
      send();
    }
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }
}
