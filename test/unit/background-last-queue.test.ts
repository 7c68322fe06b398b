import { Piscina, type PiscinaTask } from "piscina";
import { describe, expect, it } from "vitest";
import { BACKGROUND, BackgroundLastQueue } from "../../src/pool/background-last-queue.js";

/** A queued task as piscina hands it over: its queue options under Piscina.queueOptionsSymbol. */
const task = (name: string, background = false) =>
  ({ name, [Piscina.queueOptionsSymbol]: background ? BACKGROUND : null }) as unknown as PiscinaTask;
const names = (queue: BackgroundLastQueue) => {
  const out: string[] = [];
  for (let next = queue.shift(); next !== null; next = queue.shift()) out.push(next.name);
  return out;
};

describe("BackgroundLastQueue", () => {
  it("hands out every shopper's task, in arrival order, before any background task", () => {
    // One background task ran just now: none is due before BACKGROUND_EVERY_MS.
    const queue = new BackgroundLastQueue(() => 1_000);
    queue.push(task("warm-0", true));
    expect(queue.shift()?.name).toBe("warm-0");
    for (const t of [task("warm-1", true), task("a"), task("warm-2", true), task("b"), task("c")]) queue.push(t);
    expect(queue.size).toBe(5);
    expect(names(queue)).toEqual(["a", "b", "c", "warm-1", "warm-2"]);
    expect(queue.size).toBe(0);
  });

  it("still hands out a background task every BACKGROUND_EVERY_MS while shoppers' tasks keep coming", () => {
    let clock = 0;
    const queue = new BackgroundLastQueue(() => clock);
    for (const t of [task("warm-1", true), task("warm-2", true)]) queue.push(t);
    for (let i = 0; i < 20; i++) queue.push(task(`s${i}`));
    const order: string[] = [];
    for (let next = queue.shift(); next !== null; next = queue.shift()) {
      order.push(next.name);
      clock += 10; // each task takes 10 ms
    }
    // The first background task is due at once, the next one 50 ms later.
    expect(order.slice(0, 8)).toEqual(["warm-1", "s0", "s1", "s2", "s3", "warm-2", "s4", "s5"]);
    expect(order).toHaveLength(22);
  });

  it("puts a task piscina could not hand out back at the front of its list", () => {
    const queue = new BackgroundLastQueue(() => 1_000);
    queue.push(task("warm-0", true));
    expect(queue.shift()?.name).toBe("warm-0");
    const [a, b] = [task("a"), task("b")];
    queue.push(a);
    queue.push(b);
    expect(queue.shift()).toBe(a);
    queue.unshift(a);
    expect(names(queue)).toEqual(["a", "b"]);
  });

  it("removes a task from whichever list holds it", () => {
    const queue = new BackgroundLastQueue();
    const [a, warm, b] = [task("a"), task("warm", true), task("b")];
    for (const t of [a, warm, b]) queue.push(t);
    queue.remove(warm);
    queue.remove(a);
    expect(queue.size).toBe(1);
    expect(names(queue)).toEqual(["b"]);
  });
});
