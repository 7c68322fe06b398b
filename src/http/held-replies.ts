// Refusals held back before they are written. A client that ignores
// Retry-After and sends again the moment its 429 arrives gets answered as fast
// as this thread can refuse it: one key flooding over 256 connections took
// 87k refusals a second, the whole HTTP thread, and every other key's requests
// waited behind it (a cached answer's p99 went from 2.6 to 5.5 ms). Holding each
// refusal for about a second bounds such a client to about one request per
// connection per second, whatever it does, and costs a well-behaved one
// nothing: it was told not to retry sooner.
//
// Each reply is held for a random time between three quarters of the delay
// and the delay: held for exactly the same time, a flood's refusals would fall
// due together, its connections would send again together, and every other
// request would wait behind those bursts. Replies wait in slots of TICK_MS.

/** Replies held at most: beyond, a refusal is written at once (each holds its connection's response until then). */
export const MAX_HELD = 10_000;
/** How finely due times are kept: one timer runs at this period while anything is held. */
const TICK_MS = 10;

export class HeldReplies {
  /** Tick number → the replies due then. */
  private readonly slots = new Map<number, (() => void)[]>();
  private held = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly delayMs: number,
    /** Monotonic: a step of the wall clock must not change how long replies are held. */
    private readonly now: () => number = performance.now.bind(performance),
    private readonly random: () => number = Math.random,
  ) {}

  /** Calls `send` (which must not throw) after about the delay; false when none applies (no delay, or MAX_HELD held): the caller sends now. */
  hold(send: () => void): boolean {
    if (this.delayMs <= 0 || this.held >= MAX_HELD) return false;
    const dueAt = this.now() + this.delayMs * (0.75 + 0.25 * this.random());
    const tick = Math.ceil(dueAt / TICK_MS);
    const slot = this.slots.get(tick);
    if (slot) slot.push(send);
    else this.slots.set(tick, [send]);
    this.held++;
    this.timer ??= setInterval(() => this.sendDue(), TICK_MS).unref();
    return true;
  }

  get size(): number {
    return this.held;
  }

  /** Sends every held reply now (the server drains: each is told to close its connection). */
  flush(): void {
    this.sendThrough(Number.POSITIVE_INFINITY);
  }

  private sendDue(): void {
    this.sendThrough(Math.floor(this.now() / TICK_MS));
  }

  private sendThrough(tick: number): void {
    for (const [due, sends] of this.slots) {
      if (due > tick) continue;
      this.slots.delete(due);
      this.held -= sends.length;
      for (const send of sends) send();
    }
    if (this.held === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
