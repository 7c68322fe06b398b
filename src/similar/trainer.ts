// Starts a full similar-model build on its own thread and reports its progress.
import { Worker } from "node:worker_threads";
import type { MerchantId } from "../core/types.js";
import { compiledWorkerFile } from "../pool/worker-file.js";
import type { ModelManifest } from "../stores/similar.js";
import type { BuildProgress } from "./build.js";

export interface TrainerRequest {
  dataDir: string;
  merchantId: MerchantId;
  useBehaviour: boolean;
}

export type TrainerMessage =
  | { type: "progress"; progress: BuildProgress }
  | { type: "done"; manifest: ModelManifest }
  | { type: "failed"; message: string };

export function trainInWorker(request: TrainerRequest, onProgress: (progress: BuildProgress) => void = () => {}): Promise<ModelManifest> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(compiledWorkerFile("workers/train-entry.js"), { workerData: request });
    let settled = false;
    worker.on("message", (message: TrainerMessage) => {
      if (message.type === "progress") onProgress(message.progress);
      else if (message.type === "done") {
        settled = true;
        resolve(message.manifest);
      } else {
        settled = true;
        reject(new Error(`similar-model build for ${request.merchantId} failed: ${message.message}`));
      }
    });
    worker.on("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.on("exit", (code) => {
      if (!settled) reject(new Error(`similar-model build for ${request.merchantId} stopped (exit ${code})`));
    });
  });
}
