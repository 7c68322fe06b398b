// Seeds the demo merchant on a thread of its own (workers/seed-entry.ts).
import { Worker } from "node:worker_threads";
import { compiledWorkerFile } from "../pool/worker-file.js";
import type { DemoInfo } from "./seed.js";

export interface SeedThreadData {
  dataDir: string;
}

export type SeedThreadReply = { type: "seeded"; demo: DemoInfo } | { type: "failed"; message: string };

/** Resolves with the seeded demo once the thread has written it and exited (its store closed). */
export function seedDemoInThread(dataDir: string): Promise<DemoInfo> {
  return new Promise((resolve, reject) => {
    const data: SeedThreadData = { dataDir };
    const worker = new Worker(compiledWorkerFile("workers/seed-entry.js"), { workerData: data });
    let outcome: (() => void) | null = null;
    worker.on("message", (reply: SeedThreadReply) => {
      outcome = reply.type === "seeded" ? () => resolve(reply.demo) : () => reject(new Error(`demo seed failed: ${reply.message}`));
    });
    worker.on("error", (error) => (outcome ??= () => reject(error)));
    worker.on("exit", (code) => (outcome ?? (() => reject(new Error(`the demo seed thread stopped (exit ${code})`))))());
  });
}
