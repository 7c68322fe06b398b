import { threadId } from "node:worker_threads";
import type { TaskResult, WarmReply, WarmStep, WarmTask } from "./protocol.js";
import { warmSessions } from "../recs/session-model.js";
import type { Store } from "../stores/store.js";

const encoder = new TextEncoder();

/** One step of a worker's warm-up of an index (scheduled by src/pool/warm-up.ts); the answer says whether it is complete. */
export function warmUp(store: Store, task: WarmTask): TaskResult {
  const step: WarmStep = store.merchant(task.merchantId) ? warmStep(store, task) : { done: true, buildSeconds: null };
  const reply: WarmReply = { threadId, ...step };
  return { ok: true, body: encoder.encode(JSON.stringify(reply)) };
}

function warmStep(store: Store, task: WarmTask): WarmStep {
  switch (task.kind) {
    case "sessions_warm":
      return warmSessions(store, task.merchantId, task.sliceMs);
  }
}
