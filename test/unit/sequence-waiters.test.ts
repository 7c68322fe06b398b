import { afterEach, describe, expect, it, vi } from "vitest";
import { SequenceWaiters } from "../../src/cluster/sequence-waiters.js";

afterEach(() => vi.useRealTimers());

describe("SequenceWaiters", () => {
  it("answers at once for an applied sequence, and lets a waiter go once its sequence is applied", async () => {
    const waiters = new SequenceWaiters();
    expect(waiters.waitFor(5, 5, 100)).toBeNull();
    let done = false;
    const waiting = waiters.waitFor(5, 7, 60_000)!.then(() => (done = true));
    waiters.reached(6);
    await Promise.resolve();
    expect(done).toBe(false);
    waiters.reached(7);
    await waiting;
    expect(done).toBe(true);
  });

  it("lets a waiter go when its time is up, applied or not", async () => {
    vi.useFakeTimers();
    const waiters = new SequenceWaiters();
    let done = false;
    const waiting = waiters.waitFor(0, 3, 100)!.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });
});
