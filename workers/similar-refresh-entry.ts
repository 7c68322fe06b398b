// The similar-products refresh thread (src/similar/refresh-thread.ts): the one
// writer of trained models' vectors and lists after their training. It runs
// one refresh at a time, in the order they come.
import { parentPort, workerData } from "node:worker_threads";
import { runAsBackgroundThread } from "../src/pool/thread-priority.js";
import { reconcileSimilar, refreshSimilar, type RefreshSummary } from "../src/similar/refresh.js";
import type { RefreshReply, RefreshRequest, RefreshThreadData } from "../src/similar/refresh-thread.js";
import { Store } from "../src/stores/store.js";

// Before the model runtime starts threads of its own: they inherit it.
runAsBackgroundThread();
const { dataDir } = workerData as RefreshThreadData;
const port = parentPort!;
const store = Store.open(dataDir);
// Let go of the snapshot opening read: held while idle, it pins pages freed after it.
store.refreshSnapshot();

let queue = Promise.resolve();

async function handle(request: RefreshRequest): Promise<void> {
  if (request.type === "close") {
    await store.close();
    process.exit(0);
  }
  store.refreshSnapshot();
  let reply: RefreshReply;
  try {
    reply = { id: request.id, summary: await refreshOrReconcile(request) };
  } catch (error) {
    reply = { id: request.id, failure: String((error as Error)?.stack ?? error) };
  } finally {
    store.refreshSnapshot();
  }
  port.postMessage(reply);
}

/** A refresh; with `reconcile`, of the products out of step too, and none at all (no model loaded) when nothing is. */
async function refreshOrReconcile({
  merchantId,
  productIds,
  reconcile,
}: Extract<RefreshRequest, { type: "refresh" }>): Promise<RefreshSummary> {
  return reconcile ? reconcileSimilar(store, dataDir, merchantId, productIds) : refreshSimilar(store, dataDir, merchantId, productIds);
}

port.on("message", (request: RefreshRequest) => {
  queue = queue.then(() => handle(request));
});
