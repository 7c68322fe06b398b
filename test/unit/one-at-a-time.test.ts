import { describe, expect, it } from "vitest";
import { oneAtATime } from "../../src/pool/one-at-a-time.js";

/** A promise and the functions that settle it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** Lets every settled promise's callbacks run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("oneAtATime", () => {
  it("starts a call only once the one before it has ended, each with its own answer", async () => {
    const events: string[] = [];
    const gates = [deferred<void>(), deferred<void>()];
    const run = oneAtATime(async (n: number) => {
      events.push(`start ${n}`);
      await gates[n]!.promise;
      events.push(`end ${n}`);
      return n * 10;
    });
    const first = run(0);
    const second = run(1);
    await turn();
    // Both handed over at once, yet the second waits while the first is suspended at its await.
    expect(events).toEqual(["start 0"]);
    gates[1]!.resolve();
    await turn();
    expect(events).toEqual(["start 0"]);
    gates[0]!.resolve();
    expect(await first).toBe(0);
    expect(await second).toBe(10);
    expect(events).toEqual(["start 0", "end 0", "start 1", "end 1"]);
  });

  it("runs the next call after one that failed, and hands the failure to its own caller only", async () => {
    const gate = deferred<void>();
    const run = oneAtATime(async (n: number) => {
      await gate.promise;
      if (n === 0) throw new Error("the first fails");
      return n;
    });
    const first = run(0);
    const second = run(1);
    gate.resolve();
    await expect(first).rejects.toThrow("the first fails");
    expect(await second).toBe(1);
  });
});
