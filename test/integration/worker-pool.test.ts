// The real worker pool on an empty store. Closing it right after it was made
// (a service stopped as it starts, as tests and restart loops do) waits for
// its workers to finish starting: a worker terminated while it loads its
// modules or opens the store can abort the whole process (see
// src/pool/worker-starts.ts). A worker is handed its next task while one still
// runs (TASKS_PER_WORKER in src/pool/pool.ts): a handed task whose clients
// have all gone by its turn is dropped unrun, as one still waiting in the
// pool's queue is.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Abandonment } from "../../src/pool/abandonment.js";
import { WorkerPool } from "../../src/pool/pool.js";
import { TaskAbandonedError } from "../../src/pool/protocol.js";
import { Store } from "../../src/stores/store.js";

let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "aisle-worker-pool-"));
  await Store.open(dataDir).close();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("closing the worker pool", () => {
  it("stops its workers only after each has started, however soon it is closed", async () => {
    const pool = new WorkerPool({ dataDir, threads: 2, maxQueue: 4 });
    await pool.close();
    expect(pool.startedWorkers).toBe(2);
  });

  it("still answers tasks until it is closed", async () => {
    const pool = new WorkerPool({ dataDir, threads: 1, maxQueue: 4 });
    const answer = await pool.run({ kind: "ping" });
    expect(answer.body).toHaveLength(0);
    // Closed twice, as a service stopping on two signals may: the second waits for the first.
    await Promise.all([pool.close(), pool.close()]);
    expect(pool.startedWorkers).toBe(1);
  });

  it("reports a worker that fails outside a task instead of ending the process, and still closes", async () => {
    // A data dir under a file: the worker's store cannot open, and it fails while starting, before any task.
    const file = join(dataDir, "not-a-dir");
    writeFileSync(file, "");
    const failures: unknown[] = [];
    const pool = new WorkerPool({ dataDir: join(file, "data"), threads: 1, maxQueue: 4, onWorkerError: (error) => failures.push(error) });
    await expect.poll(() => failures.length, { timeout: 20_000 }).toBeGreaterThan(0);
    await pool.close();
    expect(pool.startedWorkers).toBe(0);
  });
});

describe("a task handed to a worker", () => {
  it("is dropped unrun when its client goes away before the worker starts it, and the worker goes on", async () => {
    const pool = new WorkerPool({ dataDir, threads: 1, maxQueue: 4 });
    try {
      const gone = new Abandonment();
      // The one worker is still starting: both tasks are handed to it at once, and wait there.
      const first = pool.run({ kind: "ping" });
      const second = pool.run({ kind: "ping" }, gone);
      gone.abandon();
      expect((await first).body).toHaveLength(0);
      await expect(second).rejects.toBeInstanceOf(TaskAbandonedError);
      expect((await pool.run({ kind: "ping" })).body).toHaveLength(0);
    } finally {
      await pool.close();
    }
  });
});
