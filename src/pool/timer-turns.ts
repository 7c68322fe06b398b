// A pool worker waits for its next task in Atomics.wait (Piscina's default,
// its fastest hand-over), so its event loop does not turn between tasks and
// the timers set meanwhile never run. lmdb-js sets one for every read
// transaction it starts, and the worker starts one per task (it lets go of its
// snapshot after each): every task left its Timeout objects in the heap for
// good, ~130 bytes a task measured after full collections, until the worker
// reached its heap limit. Letting the loop turn for its timers once a second
// keeps what piles up to a second's worth, for about a millisecond of one task
// a second. Piscina's "async" waiting, which turns the loop after every task,
// cost 10-30% of the pool's tasks a second here.

/** A worker lets its event loop turn for its timers at least this often. */
export const TIMER_TURN_EVERY_MS = 1_000;

/**
 * Call before each task: a promise that resolves once the event loop has run
 * its due timers, when TIMER_TURN_EVERY_MS have passed since the last turn;
 * otherwise null, and the task starts at once.
 */
export function timerTurns(now: () => number = () => performance.now()): () => Promise<void> | null {
  let lastAt = now();
  return () => {
    if (now() - lastAt < TIMER_TURN_EVERY_MS) return null;
    lastAt = now();
    // A timer of its own: it runs in the loop's timers phase, with every timer already due.
    return new Promise((resolve) => setTimeout(resolve, 0));
  };
}
