// A dedicated thread for a full similar-model build: seconds of CPU that must
// not sit in front of requests in the pool. Reports progress as it goes and
// writes the model itself (LMDB takes writes from any thread). Its owner can
// stop it through a flag in shared memory: the build checks it between steps
// and stops before writing anything (see src/similar/cancellation.ts).
import { parentPort, workerData } from "node:worker_threads";
import { runAsBackgroundThread } from "../src/pool/thread-priority.js";
import { buildSimilarModel, DEFAULT_BUILD, type BuildProgress } from "../src/similar/build.js";
import { BuildCancelled, checkpointOn } from "../src/similar/cancellation.js";
import { Store } from "../src/stores/store.js";
import type { TrainerMessage, TrainerThreadData } from "../src/similar/trainer.js";

// Before the model runtime starts threads of its own: they inherit it.
runAsBackgroundThread();
const request = workerData as TrainerThreadData;
const post = (message: TrainerMessage) => parentPort!.postMessage(message);

const store = Store.open(request.dataDir);
try {
  const options = { ...DEFAULT_BUILD, useBehaviour: request.useBehaviour };
  const onProgress = (progress: BuildProgress) => post({ type: "progress", progress });
  const manifest = await buildSimilarModel(store, request.dataDir, request.merchantId, options, onProgress, checkpointOn(request.stopFlag));
  post({ type: "done", manifest });
} catch (error) {
  if (error instanceof BuildCancelled) post({ type: "cancelled" });
  else post({ type: "failed", message: String((error as Error)?.stack ?? error) });
} finally {
  await store.close();
}
