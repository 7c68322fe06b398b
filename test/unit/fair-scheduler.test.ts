import { describe, expect, it } from "vitest";
import { Abandonment } from "../../src/pool/abandonment.js";
import { FairScheduler } from "../../src/pool/fair-scheduler.js";
import { PoolSaturatedError, TaskAbandonedError } from "../../src/pool/protocol.js";

/** Fake work: each task records when it starts and runs until the test finishes it. */
function fakeWorkers() {
  const started: string[] = [];
  const finishers = new Map<string, (ok: boolean) => void>();
  const outcomes = new Map<string, "done" | "refused" | "failed" | "abandoned">();
  const work = (name: string) => () => {
    started.push(name);
    return new Promise<string>((resolve, reject) =>
      finishers.set(name, (ok) => (ok ? resolve(name) : reject(new Error(`${name} failed`)))),
    );
  };
  /** Submits a task that records how it ended. */
  const submit = (scheduler: FairScheduler, lane: string, name: string, abandoned?: Abandonment) =>
    scheduler.submit(lane, work(name), abandoned).then(
      () => outcomes.set(name, "done"),
      (error: unknown) =>
        outcomes.set(name, error instanceof PoolSaturatedError ? "refused" : error instanceof TaskAbandonedError ? "abandoned" : "failed"),
    );
  /** Ends a running task, then lets the scheduler hand out the next one. */
  const finish = async (name: string, ok = true) => {
    const finisher = finishers.get(name);
    if (!finisher) throw new Error(`${name} is not running`);
    finishers.delete(name);
    finisher(ok);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { started, outcomes, submit, finish };
}

/** Abandoned already, as a request whose client left before its task was submitted. */
function abandoned(): Abandonment {
  const gone = new Abandonment();
  gone.abandon();
  return gone;
}

const settledTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("FairScheduler", () => {
  it("lets merchants' queues take turns: one merchant's long queue delays another's task by one task", async () => {
    const scheduler = new FairScheduler({ slots: 1, maxQueued: 100 });
    const { started, submit, finish } = fakeWorkers();
    for (let i = 1; i <= 5; i++) void submit(scheduler, "a", `a${i}`);
    void submit(scheduler, "b", "b1");
    void submit(scheduler, "c", "c1");
    expect(started).toEqual(["a1"]);
    expect(scheduler.queued).toBe(6);
    for (const name of ["a1", "a2", "b1", "c1", "a3", "a4"]) await finish(name);
    expect(started).toEqual(["a1", "a2", "b1", "c1", "a3", "a4", "a5"]);
    expect(scheduler.queued).toBe(0);
  });

  it("drops a waiting task whose client went away, and lets a running one finish", async () => {
    const scheduler = new FairScheduler({ slots: 1, maxQueued: 100 });
    const { started, outcomes, submit, finish } = fakeWorkers();
    const running = new Abandonment();
    const waiting = new Abandonment();
    void submit(scheduler, "a", "a1", running);
    void submit(scheduler, "a", "a2", waiting);
    void submit(scheduler, "b", "b1");
    running.abandon();
    waiting.abandon();
    await settledTurn();
    expect(outcomes.get("a2")).toBe("abandoned");
    expect(scheduler.queued).toBe(1);
    await finish("a1");
    expect(outcomes.get("a1")).toBe("done");
    // The freed worker goes to the next task still waiting, never to the dropped one.
    expect(started).toEqual(["a1", "b1"]);
  });

  it("drops at once a task whose client went away before it was submitted", async () => {
    const scheduler = new FairScheduler({ slots: 1, maxQueued: 100 });
    const { started, outcomes, submit } = fakeWorkers();
    void submit(scheduler, "a", "a1");
    void submit(scheduler, "a", "a2", abandoned());
    await settledTurn();
    expect(outcomes.get("a2")).toBe("abandoned");
    expect(started).toEqual(["a1"]);
    expect(scheduler.queued).toBe(0);
  });

  it("runs at most `slots` tasks at once, and a failed task frees its slot", async () => {
    const scheduler = new FairScheduler({ slots: 2, maxQueued: 100 });
    const { started, outcomes, submit, finish } = fakeWorkers();
    for (const name of ["a1", "a2", "a3"]) void submit(scheduler, "a", name);
    expect(started).toEqual(["a1", "a2"]);
    await finish("a1", false);
    expect(outcomes.get("a1")).toBe("failed");
    expect(started).toEqual(["a1", "a2", "a3"]);
  });

  it("when full, refuses a task of the longest queue, and gives a shorter queue's task the place of the longest's newest", async () => {
    const scheduler = new FairScheduler({ slots: 1, maxQueued: 4 });
    const { started, outcomes, submit, finish } = fakeWorkers();
    for (let i = 1; i <= 6; i++) void submit(scheduler, "a", `a${i}`);
    await settledTurn();
    // a1 runs, a2-a5 fill the queue: a6 is refused.
    expect(outcomes.get("a6")).toBe("refused");
    void submit(scheduler, "b", "b1");
    void submit(scheduler, "b", "b2");
    void submit(scheduler, "b", "b3");
    await settledTurn();
    // b1 and b2 took the places of a5 and a4; with two queues of two, b3 is refused.
    expect([outcomes.get("a5"), outcomes.get("a4"), outcomes.get("b3")]).toEqual(["refused", "refused", "refused"]);
    expect(scheduler.queued).toBe(4);
    for (const name of ["a1", "a2", "b1", "a3", "b2"]) await finish(name);
    expect(started).toEqual(["a1", "a2", "b1", "a3", "b2"]);
    expect([...outcomes].filter(([, outcome]) => outcome === "done").map(([name]) => name)).toEqual(["a1", "a2", "b1", "a3", "b2"]);
  });

  it("on close, refuses the waiting tasks and any later one, and lets the running one finish", async () => {
    const scheduler = new FairScheduler({ slots: 1, maxQueued: 10 });
    const { started, outcomes, submit, finish } = fakeWorkers();
    for (const name of ["a1", "a2"]) void submit(scheduler, "a", name);
    void submit(scheduler, "b", "b1");
    const closed = new Error("closing");
    scheduler.close(closed);
    await expect(scheduler.submit("c", async () => "c1")).rejects.toBe(closed);
    await finish("a1");
    expect(started).toEqual(["a1"]);
    expect(Object.fromEntries(outcomes)).toEqual({ a1: "done", a2: "failed", b1: "failed" });
  });
});
