// Seeds the demo merchant on a thread of its own (workers/seed-entry.ts).
import { runOneShotThread } from "../pool/one-shot-thread.js";
import type { DemoInfo } from "./seed.js";

export interface SeedThreadData {
  dataDir: string;
}

export type SeedThreadReply = { type: "seeded"; demo: DemoInfo } | { type: "failed"; message: string };

/** Resolves with the seeded demo once the thread has written it and exited (its store closed). */
export function seedDemoInThread(dataDir: string): Promise<DemoInfo> {
  const data: SeedThreadData = { dataDir };
  return runOneShotThread<SeedThreadReply, DemoInfo>("workers/seed-entry.js", data, "the demo seed thread", (reply) =>
    reply.type === "seeded" ? { value: reply.demo } : { error: new Error(`demo seed failed: ${reply.message}`) },
  );
}
