import { Piscina } from "piscina";
import { compiledWorkerFile } from "./worker-file.js";
import { PoolSaturatedError, TaskFailedError, type Task, type TaskAnswer, type WireResult, type WorkerConfig } from "./protocol.js";

export interface PoolOptions {
  dataDir: string;
  threads: number;
  /** Tasks waiting beyond this are refused at once rather than queued for seconds. */
  maxQueue: number;
  /** Each worker's old-generation heap limit (see Config.workerHeapMb); absent: V8's default. */
  heapMb?: number;
  /** Told each task's kind, outcome and latency (queue wait included): for metrics. */
  onTask?: (kind: string, ok: boolean, seconds: number) => void;
}

export class WorkerPool {
  private readonly piscina: Piscina;
  private readonly onTask: PoolOptions["onTask"];
  /** Set by close(): tasks then fail because the service is stopping, not because of a fault. */
  closing = false;

  constructor(options: PoolOptions) {
    this.onTask = options.onTask;
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
      ...(options.heapMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: options.heapMb } }),
    });
  }

  /** The task's answer; a worker's expected failure rejects with TaskFailedError. */
  async run(task: Task): Promise<TaskAnswer> {
    if (this.piscina.queueSize >= this.piscina.options.maxQueue) {
      throw new PoolSaturatedError("worker pool queue is full");
    }
    const started = performance.now();
    let ok = false;
    try {
      const wire = (await this.piscina.run(task)) as WireResult;
      if (wire instanceof Uint8Array) {
        ok = true;
        return { body: wire };
      }
      throw new TaskFailedError(task.kind, wire.code, wire.message);
    } finally {
      this.onTask?.(task.kind, ok, (performance.now() - started) / 1000);
    }
  }

  get queueSize(): number {
    return this.piscina.queueSize;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.piscina.close();
  }
}
