// A one-shot thread that tunes a merchant's viewed-related on its sessions and
// stores the settings (src/recs/tune-thread.ts starts it), at the background
// threads' nice value: it yields the cores to requests and event apply.
import { parentPort, workerData } from "node:worker_threads";
import { runAsBackgroundThread } from "../src/pool/thread-priority.js";
import type { TuneThreadData, TuneThreadMessage } from "../src/recs/tune-thread.js";
import { DEFAULT_TUNE_OPTIONS, TuneCancelled, tuneViewedRelated } from "../src/recs/tune-viewed-related.js";
import { Store } from "../src/stores/store.js";

runAsBackgroundThread();
const { dataDir, merchantId, seed, stopFlag } = workerData as TuneThreadData;
const post = (message: TuneThreadMessage) => parentPort!.postMessage(message);

const store = Store.open(dataDir);
try {
  const tuned = tuneViewedRelated(store, merchantId, { ...DEFAULT_TUNE_OPTIONS, seed, stop: () => Atomics.load(stopFlag, 0) !== 0 });
  if (tuned !== null) await store.viewedRelatedTuning.write(merchantId, tuned.tuning, tuned.rerankers);
  post({ type: "done", tuning: tuned?.tuning ?? null });
} catch (error) {
  if (error instanceof TuneCancelled) post({ type: "cancelled" });
  else post({ type: "failed", message: String((error as Error)?.stack ?? error) });
} finally {
  await store.close();
}
