// Runs a merchant's bought-together training on a thread of its own
// (workers/fbt-train-entry.ts, at the background threads' nice value): fits of
// tens of seconds that must not sit in front of requests, event apply or the
// pool. The thread writes the model itself, in one transaction at its end;
// its owner can stop it through a flag in shared memory, checked every few
// hundred pivots of a fit.
import type { MerchantId } from "../core/types.js";
import { runOneShotThread } from "../pool/one-shot-thread.js";
import type { FbtManifest } from "../stores/fbt-model.js";
import { FbtTrainCancelled } from "./train-fbt.js";

export interface FbtTrainThreadData {
  dataDir: string;
  merchantId: MerchantId;
  stopFlag: Int32Array;
}

export type FbtTrainThreadMessage = { type: "done"; manifest: FbtManifest } | { type: "cancelled" } | { type: "failed"; message: string };

/**
 * Resolves with the stored manifest once the thread has exited. Aborting
 * `signal` stops it within a few hundred pivots: it then rejects with
 * FbtTrainCancelled, having written nothing.
 */
export function trainFbtInThread(dataDir: string, merchantId: MerchantId, signal?: AbortSignal): Promise<FbtManifest> {
  if (signal?.aborted) return Promise.reject(new FbtTrainCancelled());
  const stopFlag = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const stop = () => Atomics.store(stopFlag, 0, 1);
  signal?.addEventListener("abort", stop, { once: true });
  const data: FbtTrainThreadData = { dataDir, merchantId, stopFlag };
  const trained = runOneShotThread<FbtTrainThreadMessage, FbtManifest>(
    "workers/fbt-train-entry.js",
    data,
    `bought-together training of ${merchantId}`,
    (message) => {
      if (message.type === "done") return { value: message.manifest };
      if (message.type === "cancelled") return { error: new FbtTrainCancelled() };
      return { error: new Error(`bought-together training of ${merchantId} failed: ${message.message}`) };
    },
  );
  return trained.finally(() => signal?.removeEventListener("abort", stop));
}
