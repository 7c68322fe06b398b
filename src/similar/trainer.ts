// Starts a full similar-model build on its own thread and reports its progress.
import { Worker } from "node:worker_threads";
import type { MerchantId } from "../core/types.js";
import { compiledWorkerFile } from "../pool/worker-file.js";
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
export function trainInWorker(request: TrainerRequest, onProgress: (progress: BuildProgress) => void = () => {}, signal?: AbortSignal): Promise<ModelManifest> {
  if (signal?.aborted) return Promise.reject(new BuildCancelled());
  return new Promise((resolve, reject) => {
    const stopFlag = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const stop = () => Atomics.store(stopFlag, 0, 1);
    signal?.addEventListener("abort", stop, { once: true });
    const data: TrainerThreadData = { ...request, stopFlag };
    const worker = new Worker(compiledWorkerFile("workers/train-entry.js"), { workerData: data });
    // Settled once the thread has exited, its store closed: a shutdown that awaits this can close the data dir next.
    let outcome: (() => void) | null = null;
    worker.on("message", (message: TrainerMessage) => {
      if (message.type === "progress") onProgress(message.progress);
      else if (message.type === "done") outcome = () => resolve(message.manifest);
      else if (message.type === "cancelled") outcome = () => reject(new BuildCancelled());
      else outcome = () => reject(new Error(`similar-model build for ${request.merchantId} failed: ${message.message}`));
    });
    worker.on("error", (error) => (outcome ??= () => reject(error)));
    worker.on("exit", (code) => {
      signal?.removeEventListener("abort", stop);
      (outcome ?? (() => reject(new Error(`similar-model build for ${request.merchantId} stopped (exit ${code})`))))();
    });
  });
}
