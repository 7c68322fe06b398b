import { getPriority } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { BACKGROUND_NICE } from "../../src/pool/thread-priority.js";
import { compiledWorkerFile } from "../../src/pool/worker-file.js";
import { niceOf } from "../helpers/threads.js";

/** Runs runAsBackgroundThread (the build's copy) in a new thread; answers that thread's id once it has. */
function backgroundThread(): Promise<{ thread: string; worker: Worker }> {
  const module = pathToFileURL(compiledWorkerFile("src/pool/thread-priority.js")).href;
  const source = `
    const { parentPort } = require("node:worker_threads");
    import(${JSON.stringify(module)}).then(({ runAsBackgroundThread }) => {
      runAsBackgroundThread();
      // Listening keeps the thread alive (and its /proc entry there) until the test terminates it.
      parentPort.on("message", () => {});
      parentPort.postMessage(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
    });`;
  const worker = new Worker(source, { eval: true });
  return new Promise((resolve, reject) => {
    worker.once("message", (thread: string) => resolve({ thread, worker }));
    worker.once("error", reject);
  });
}

describe("background thread priority", () => {
  it.runIf(process.platform === "linux")("lowers the calling thread alone, to the background nice", async () => {
    const ownPriority = getPriority();
    const { thread, worker } = await backgroundThread();
    try {
      expect(niceOf(thread)).toBe(Math.max(BACKGROUND_NICE, ownPriority));
      expect(getPriority()).toBe(ownPriority);
      expect(niceOf(String(process.pid))).toBe(ownPriority);
    } finally {
      await worker.terminate();
    }
  });
});
