import { threadId } from "node:worker_threads";
import type { TaskResult, WarmReply, WarmStep, WarmTask } from "../../src/pool/protocol.js";
import { warmSessions } from "../../src/recs/session-model.js";
import { warmSearchIndex } from "../../src/search/merchant-index.js";
import type { Store } from "../../src/stores/store.js";

const encoder = new TextEncoder();

/** One step of this worker's warm-up of an index (see src/pool/warm-up.ts); the answer says whether it is complete. */
export function warmUp(store: Store, task: WarmTask): TaskResult {
  const step: WarmStep = !store.merchant(task.merchantId)
    ? { done: true, buildSeconds: null }
    : task.kind === "search_warm"
      ? warmSearchIndex(store, task.merchantId, task.sliceMs)
      : warmSessions(store, task.merchantId, task.sliceMs);
  const reply: WarmReply = { threadId, ...step };
  return { ok: true, body: encoder.encode(JSON.stringify(reply)) };
}
