import { Piscina, type PiscinaTask } from "piscina";
import { describe, expect, it } from "vitest";
import { BACKGROUND, BackgroundLastQueue } from "../../src/pool/background-last-queue.js";

/** A queued task as piscina hands it over: its queue options under Piscina.queueOptionsSymbol. */
const task = (name: string, background = false) => ({ name, [Piscina.queueOptionsSymbol]: background ? BACKGROUND : null }) as unknown as PiscinaTask;
const names = (queue: BackgroundLastQueue) => {
  const out: string[] = [];
  for (let next = queue.shift(); next !== null; next = queue.shift()) out.push(next.name);
  return out;
};

describe("BackgroundLastQueue", () => {
  it("hands out every shopper's task, in arrival order, before any background task", () => {
    const queue = new BackgroundLastQueue();
    for (const t of [task("warm-1", true), task("a"), task("warm-2", true), task("b"), task("c")]) queue.push(t);
    expect(queue.size).toBe(5);
    expect(names(queue)).toEqual(["a", "b", "c", "warm-1", "warm-2"]);
    expect(queue.size).toBe(0);
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
