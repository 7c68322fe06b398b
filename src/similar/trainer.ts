// Starts a full similar-model build on its own thread and reports its progress.
import type { MerchantId } from "../core/types.js";
import { runOneShotThread } from "../pool/one-shot-thread.js";
import type { ModelManifest } from "../stores/similar.js";
import type { BuildProgress } from "./build.js";
import { BuildCancelled } from "./cancellation.js";

export interface TrainerRequest {
  dataDir: string;
  merchantId: MerchantId;
  useBehaviour: boolean;
}

/** What the thread is given: the request, and the flag its owner sets to stop it (one Int32 in shared memory). */
export interface TrainerThreadData extends TrainerRequest {
  stopFlag: Int32Array;
}

export type TrainerMessage =
  | { type: "progress"; progress: BuildProgress }
  | { type: "done"; manifest: ModelManifest }
  | { type: "cancelled" }
  | { type: "failed"; message: string };

/**
 * Resolves with the new model's manifest once it is stored. Aborting `signal`
 * stops the build at its next step: it then rejects with BuildCancelled and
 * nothing was written (a build already writing its model finishes instead).
 */
export function trainInWorker(
  request: TrainerRequest,
  onProgress: (progress: BuildProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<ModelManifest> {
  if (signal?.aborted) return Promise.reject(new BuildCancelled());
  const stopFlag = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const stop = () => Atomics.store(stopFlag, 0, 1);
  signal?.addEventListener("abort", stop, { once: true });
  const data: TrainerThreadData = { ...request, stopFlag };
  const built = runOneShotThread<TrainerMessage, ModelManifest>(
    "workers/train-entry.js",
    data,
    `similar-model build for ${request.merchantId}`,
    (message) => {
      if (message.type === "progress") {
        onProgress(message.progress);
        return null;
      }
      if (message.type === "done") return { value: message.manifest };
      if (message.type === "cancelled") return { error: new BuildCancelled() };
      return { error: new Error(`similar-model build for ${request.merchantId} failed: ${message.message}`) };
    },
  );
  return built.finally(() => signal?.removeEventListener("abort", stop));
}
