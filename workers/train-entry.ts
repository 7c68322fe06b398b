// A dedicated thread for a full similar-model build: seconds of CPU that must
// not sit in front of requests in the pool. Reports progress as it goes and
// writes the model itself (LMDB takes writes from any thread).
import { parentPort, workerData } from "node:worker_threads";
import { buildSimilarModel, DEFAULT_BUILD, type BuildProgress } from "../src/similar/build.js";
import { Store } from "../src/stores/store.js";
import type { TrainerMessage, TrainerRequest } from "../src/similar/trainer.js";

const request = workerData as TrainerRequest;
const post = (message: TrainerMessage) => parentPort!.postMessage(message);

const store = Store.open(request.dataDir);
try {
  const options = { ...DEFAULT_BUILD, useBehaviour: request.useBehaviour };
  const manifest = await buildSimilarModel(store, request.dataDir, request.merchantId, options, (progress: BuildProgress) => post({ type: "progress", progress }));
  post({ type: "done", manifest });
} catch (error) {
  post({ type: "failed", message: String((error as Error)?.stack ?? error) });
} finally {
  await store.close();
}
