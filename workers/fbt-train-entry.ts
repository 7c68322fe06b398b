// A one-shot thread that trains a merchant's bought-together model on its
// orders and stores it (src/recs/fbt-train-thread.ts starts it), at the
// background threads' nice value: it yields the cores to requests and event apply.
import { parentPort, workerData } from "node:worker_threads";
import { runAsBackgroundThread } from "../src/pool/thread-priority.js";
import type { FbtTrainThreadData, FbtTrainThreadMessage } from "../src/recs/fbt-train-thread.js";
import { DEFAULT_FBT_TRAIN_OPTIONS, FbtTrainCancelled, trainFbt } from "../src/recs/train-fbt.js";
import { Store } from "../src/stores/store.js";

runAsBackgroundThread();
const { dataDir, merchantId, stopFlag } = workerData as FbtTrainThreadData;
const post = (message: FbtTrainThreadMessage) => parentPort!.postMessage(message);

const store = Store.open(dataDir);
try {
  const { manifest, lists } = trainFbt(store, merchantId, { ...DEFAULT_FBT_TRAIN_OPTIONS, stop: () => Atomics.load(stopFlag, 0) !== 0 });
  post({ type: "done", manifest: await store.fbtModel.replace(merchantId, manifest, lists) });
} catch (error) {
  if (error instanceof FbtTrainCancelled) post({ type: "cancelled" });
  else post({ type: "failed", message: String((error as Error)?.stack ?? error) });
} finally {
  await store.close();
}
