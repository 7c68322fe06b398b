import { Piscina } from "piscina";
import { compiledWorkerFile } from "./worker-file.js";
import type { Task, TaskResult, WireResult, WorkerConfig } from "./protocol.js";

export interface PoolOptions {
  dataDir: string;
  threads: number;
  /** Tasks waiting beyond this are refused at once rather than queued for seconds. */
  maxQueue: number;
}

export class PoolSaturatedError extends Error {}

export class WorkerPool {
  private readonly piscina: Piscina;

  constructor(options: PoolOptions) {
    const workerData: WorkerConfig = { dataDir: options.dataDir };
    this.piscina = new Piscina({
      filename: compiledWorkerFile("workers/entry.js"),
      workerData,
      minThreads: options.threads,
      maxThreads: options.threads,
      // Workers hold an open LMDB env and warm caches: never let them idle out.
      idleTimeout: Number.POSITIVE_INFINITY,
      maxQueue: options.maxQueue,
      concurrentTasksPerWorker: 1,
      // Without strict FIFO a busy pool lets later tasks overtake earlier ones,
      // and a request can wait seconds behind newer ones.
      stricterFIFO: true,
    });
  }

  async run(task: Task): Promise<TaskResult> {
    if (this.piscina.queueSize >= this.piscina.options.maxQueue) {
      throw new PoolSaturatedError("worker pool queue is full");
    }
    const wire = (await this.piscina.run(task)) as WireResult;
    return wire instanceof Uint8Array ? { ok: true, body: wire } : wire;
  }

  get queueSize(): number {
    return this.piscina.queueSize;
  }

  async close(): Promise<void> {
    await this.piscina.close();
  }
}
