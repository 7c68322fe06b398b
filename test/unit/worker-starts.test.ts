// The pool stops its workers only once each has started or exited (worker-starts.ts): the wait, with workers faked.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { WORKER_STARTED, WorkerStarts } from "../../src/pool/worker-starts.js";

class FakeWorker extends EventEmitter {
  constructor(public threadId: number) {
    super();
  }
  exit(): void {
    this.threadId = -1;
    this.emit("exit");
  }
}

/** Whether `promise` has settled once pending callbacks have run. */
async function isSettled(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe("WorkerStarts", () => {
  it("waits until every worker has said it started", async () => {
    const starts = new WorkerStarts();
    const workers = [new FakeWorker(1), new FakeWorker(2)];
    const settled = starts.settled(workers, 60_000);
    starts.onMessage({ [WORKER_STARTED]: 1 });
    expect(await isSettled(settled)).toBe(false);
    starts.onMessage({ [WORKER_STARTED]: 2 });
    expect(await isSettled(settled)).toBe(true);
    expect(starts.count).toBe(2);
  });

  it("counts a worker that exited while starting as settled", async () => {
    const starts = new WorkerStarts();
    const workers = [new FakeWorker(1), new FakeWorker(2)];
    starts.onMessage({ [WORKER_STARTED]: 1 });
    const settled = starts.settled(workers, 60_000);
    expect(await isSettled(settled)).toBe(false);
    workers[1]!.exit();
    expect(await isSettled(settled)).toBe(true);
    expect(workers[1]!.listenerCount("exit")).toBe(0);
  });

  it("does not wait for workers that started or exited before, and ignores other messages", async () => {
    const starts = new WorkerStarts();
    starts.onMessage({ [WORKER_STARTED]: 3 });
    starts.onMessage({ other: 4 });
    starts.onMessage("started");
    starts.onMessage(null);
    expect(await isSettled(starts.settled([new FakeWorker(3), new FakeWorker(-1)], 60_000))).toBe(true);
    const unstarted = starts.settled([new FakeWorker(4)], 30);
    expect(await isSettled(unstarted)).toBe(false);
    await unstarted;
  });

  it("waits for a worker that replaced one that exited during the wait", async () => {
    const starts = new WorkerStarts();
    const first = new FakeWorker(1);
    let workers: FakeWorker[] = [first];
    const all = starts.allStarted(() => workers, 60_000);
    // The pool replaces the worker that failed while starting: the replacement is starting now.
    workers = [new FakeWorker(2)];
    first.exit();
    expect(await isSettled(all)).toBe(false);
    starts.onMessage({ [WORKER_STARTED]: 2 });
    expect(await isSettled(all)).toBe(true);
  });

  it("waits for replacements only until the one deadline", async () => {
    const starts = new WorkerStarts();
    let next = 1;
    let worker = new FakeWorker(next);
    // Each worker exits as soon as it is waited for, and is replaced: only the deadline ends the wait.
    const replaceOnWait = () => {
      const current = worker;
      setImmediate(() => {
        worker = new FakeWorker(++next);
        current.exit();
      });
      return [current];
    };
    const started = performance.now();
    await starts.allStarted(replaceOnWait, 50);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(next).toBeGreaterThan(2);
  });

  it("gives up on a worker stuck in its start after the timeout", async () => {
    const starts = new WorkerStarts();
    const worker = new FakeWorker(5);
    const settled = starts.settled([worker], 20);
    expect(await isSettled(settled)).toBe(false);
    await settled;
    expect(worker.listenerCount("exit")).toBe(0);
  });
});
