// A worker is handed its next task while one still runs (TASKS_PER_WORKER in
// src/pool/pool.ts). A handed task whose clients have all gone by its turn is
// dropped unrun, as one still waiting in the pool's queue is.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkerPool } from "../../src/pool/pool.js";
import { TaskAbandonedError } from "../../src/pool/protocol.js";
import { Store } from "../../src/stores/store.js";

let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "aisle-pool-handed-"));
  await Store.open(dataDir).close();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("a task handed to a worker", () => {
  it("is dropped unrun when its client goes away before the worker starts it, and the worker goes on", async () => {
    const pool = new WorkerPool({ dataDir, threads: 1, maxQueue: 4 });
    try {
      const gone = new AbortController();
      // The one worker is still starting: both tasks are handed to it at once, and wait there.
      const first = pool.run({ kind: "ping" });
      const second = pool.run({ kind: "ping" }, gone.signal);
      gone.abort();
      expect((await first).body).toHaveLength(0);
      await expect(second).rejects.toBeInstanceOf(TaskAbandonedError);
      expect((await pool.run({ kind: "ping" })).body).toHaveLength(0);
    } finally {
      await pool.close();
    }
  });
});
