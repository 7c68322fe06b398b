// Runs a merchant's viewed-related tuning on a thread of its own
// (workers/tune-entry.ts, at the background threads' nice value): a minute of
// CPU that must not sit in front of requests, event apply or the pool. The
// thread writes the tuning itself; its owner can stop it through a flag in
// shared memory, checked before each setting is scored.
import type { MerchantId } from "../core/types.js";
import { runOneShotThread } from "../pool/one-shot-thread.js";
import type { ViewedRelatedTuning } from "../stores/viewed-related-tuning.js";
import { TuneCancelled } from "./tune-viewed-related.js";

export interface TuneThreadData {
  dataDir: string;
  merchantId: MerchantId;
  seed: number;
  stopFlag: Int32Array;
}

export type TuneThreadMessage =
  { type: "done"; tuning: ViewedRelatedTuning | null } | { type: "cancelled" } | { type: "failed"; message: string };

/**
 * Resolves with the stored tuning (null: the merchant has no session to tune
 * on) once the thread has exited. Aborting `signal` stops it before its next
 * setting: it then rejects with TuneCancelled, having written nothing.
 */
export function tuneInThread(
  dataDir: string,
  merchantId: MerchantId,
  seed: number,
  signal?: AbortSignal,
): Promise<ViewedRelatedTuning | null> {
  if (signal?.aborted) return Promise.reject(new TuneCancelled());
  const stopFlag = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const stop = () => Atomics.store(stopFlag, 0, 1);
  signal?.addEventListener("abort", stop, { once: true });
  const data: TuneThreadData = { dataDir, merchantId, seed, stopFlag };
  const tuned = runOneShotThread<TuneThreadMessage, ViewedRelatedTuning | null>(
    "workers/tune-entry.js",
    data,
    `viewed-related tuning of ${merchantId}`,
    (message) => {
      if (message.type === "done") return { value: message.tuning };
      if (message.type === "cancelled") return { error: new TuneCancelled() };
      return { error: new Error(`viewed-related tuning of ${merchantId} failed: ${message.message}`) };
    },
  );
  return tuned.finally(() => signal?.removeEventListener("abort", stop));
}
