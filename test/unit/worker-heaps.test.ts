import { randomUUID } from "node:crypto";
import { threadId } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { heapReporter, REPORT_EVERY_MS, WorkerHeaps } from "../../src/pool/worker-heaps.js";

const delivered = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("WorkerHeaps", () => {
  it("adds up what live workers report, at most once per REPORT_EVERY_MS each, and drops a worker that has ended", async () => {
    const channel = `test-${randomUUID()}`;
    const heaps = new WorkerHeaps(channel);
    let clock = 0;
    // Here the reporting "worker" is this thread: its figures arrive under its own thread id.
    const report = heapReporter(channel, () => clock);
    try {
      expect(heaps.total([threadId])).toEqual({ usedBytes: 0, totalBytes: 0, externalBytes: 0 });
      report();
      await delivered();
      const first = heaps.total([threadId]);
      expect(first.usedBytes).toBeGreaterThan(0);
      expect(first.totalBytes).toBeGreaterThanOrEqual(first.usedBytes);

      // Within REPORT_EVERY_MS nothing is posted: garbage made meanwhile does not show.
      const garbage = Array.from({ length: 200_000 }, (_, i) => ({ i }));
      clock += REPORT_EVERY_MS - 1;
      report();
      await delivered();
      expect(heaps.total([threadId])).toEqual(first);
      clock += 1;
      report();
      await delivered();
      expect(heaps.total([threadId]).usedBytes).not.toBe(first.usedBytes);
      expect(garbage).toHaveLength(200_000);

      // The thread is not among the live workers: its figures no longer count, nor come back.
      expect(heaps.total([])).toEqual({ usedBytes: 0, totalBytes: 0, externalBytes: 0 });
      expect(heaps.total([threadId])).toEqual({ usedBytes: 0, totalBytes: 0, externalBytes: 0 });
    } finally {
      heaps.close();
    }
  });
});
