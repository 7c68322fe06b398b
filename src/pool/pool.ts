import { randomUUID } from "node:crypto";
import { Piscina } from "piscina";
import type { Abandonment } from "./abandonment.js";
import { FairScheduler } from "./fair-scheduler.js";
import { compiledWorkerFile } from "./worker-file.js";
import { WorkerHeaps, type WorkerHeap } from "./worker-heaps.js";
import { WorkerStarts } from "./worker-starts.js";
import {
  PoolClosedError,
  TaskAbandonedError,
  TaskFailedError,
  type PoolMessage,
  type Task,
  type TaskAnswer,
  type WireResult,
  type WorkerConfig,
} from "./protocol.js";

/**
 * Tasks handed to a worker at once: the one it runs and the next, which it
 * starts as soon as the first ends (the worker runs them in turn: one-at-a-time.ts). With
 * one, a worker waits between tasks for the uWS thread to hear of the end and
 * post the next, and on two cores that thread is often not running: at 10
 * connections of viewed-related, the workers sat about half idle.
 */
export const TASKS_PER_WORKER = 2;

/**
 * How long closing waits for a worker still starting (loading modules, opening
 * the store: well under a second, seconds on a loaded machine) before stopping it anyway.
 */
const WORKER_START_WAIT_MS = 30_000;

/** How a task ended: answered, failed (or refused), or dropped unrun because its client went away. */
export type TaskOutcome = "ok" | "failed" | "abandoned";

export interface PoolOptions {
  dataDir: string;
  threads: number;
  /** Tasks waiting beyond this are refused at once rather than queued for seconds (see FairScheduler). */
  maxQueue: number;
  /** Each worker's old-generation heap limit (see Config.workerHeapMb); absent: V8's default. */
  heapMb?: number;
  /** Each worker's cache of common search terms' postings (see Config.searchCacheBytes); absent: none. */
  searchCacheBytes?: number;
  /** Told of a worker's failure outside any task (a task's own failure rejects its run instead); by default written to stderr. */
  onWorkerError?: (error: unknown) => void;
  /** Told each task's kind, outcome and latency (queue wait included): for metrics. */
  onTask?: (kind: string, outcome: TaskOutcome, seconds: number) => void;
}

function reportWorkerError(error: unknown): void {
  console.error(`a pool worker failed outside a task: ${String((error as Error)?.stack ?? error)}`);
}

/** The queue a task waits in: its merchant's (see FairScheduler); a task of no merchant shares one. */
function laneOf(task: Task): string {
  return "merchantId" in task ? task.merchantId : "";
}

export class WorkerPool {
  private readonly piscina: Piscina;
  /** Decides which task a worker runs next: Piscina is handed at most TASKS_PER_WORKER tasks per worker. */
  private readonly scheduler: FairScheduler;
  private readonly onTask: PoolOptions["onTask"];
  private readonly heaps: WorkerHeaps;
  private readonly starts = new WorkerStarts();
  /** Set by close(): tasks then fail because the service is stopping, not because of a fault. */
  closing = false;
  private closed: Promise<void> | null = null;

  constructor(options: PoolOptions) {
    this.onTask = options.onTask;
    const workerData: WorkerConfig = {
      dataDir: options.dataDir,
      heapChannel: `aisle-worker-heaps-${randomUUID()}`,
      searchCacheBytes: options.searchCacheBytes,
    };
    this.heaps = new WorkerHeaps(workerData.heapChannel);
    this.piscina = new Piscina({
      filename: compiledWorkerFile("workers/entry.js"),
      workerData,
      minThreads: options.threads,
      maxThreads: options.threads,
      // Workers hold an open LMDB env and warm caches: never let them idle out.
      idleTimeout: Number.POSITIVE_INFINITY,
      concurrentTasksPerWorker: TASKS_PER_WORKER,
      ...(options.heapMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: options.heapMb } }),
    });
    this.piscina.on("message", (message: unknown) => this.starts.onMessage(message));
    // A worker that fails while it runs no task (or a close that times out) is reported here: unheard, Node would end the process.
    this.piscina.on("error", (error: unknown) => (options.onWorkerError ?? reportWorkerError)(error));
    this.scheduler = new FairScheduler({ slots: options.threads * TASKS_PER_WORKER, maxQueued: options.maxQueue });
  }

  /**
   * The task's answer; a worker's expected failure rejects with TaskFailedError, a full queue with
   * PoolSaturatedError, and `abandoned` before the task's turn (its client went away) with TaskAbandonedError.
   */
  async run(task: Task, abandoned?: Abandonment): Promise<TaskAnswer> {
    const started = performance.now();
    let outcome: TaskOutcome = "failed";
    // Handed to a worker, a task may still wait there behind the one it runs: the flag tells the worker to drop it.
    const message: PoolMessage = { task, dropped: new Int32Array(new SharedArrayBuffer(4)) };
    const stopListening = abandoned?.onAbandon(() => Atomics.store(message.dropped, 0, 1));
    try {
      const wire = (await this.scheduler.submit(laneOf(task), () => this.piscina.run(message), abandoned)) as WireResult;
      if (wire instanceof Uint8Array) {
        outcome = "ok";
        return { body: wire };
      }
      if (wire.code === "abandoned") throw new TaskAbandonedError(wire.message);
      throw new TaskFailedError(task.kind, wire.code, wire.message);
    } catch (error) {
      // Dropped unrun because its client went away: expected, and not a failure of the pool.
      if (error instanceof TaskAbandonedError) outcome = "abandoned";
      throw error;
    } finally {
      stopListening?.();
      this.onTask?.(task.kind, outcome, (performance.now() - started) / 1000);
    }
  }

  /** Tasks waiting for their turn, not yet handed to a worker (each holds at most TASKS_PER_WORKER). */
  get queueSize(): number {
    return this.scheduler.queued;
  }

  /** The workers' V8 heaps and external memory added up, as they last reported them. */
  get workerHeaps(): WorkerHeap {
    return this.heaps.total(this.piscina.threads.map((worker) => worker.threadId));
  }

  /** Workers that finished starting over the pool's life, a replaced one too (see worker-starts.ts). */
  get startedWorkers(): number {
    return this.starts.count;
  }

  /**
   * Refuses the tasks still waiting and any later one, then lets the running
   * ones finish and stops the workers, once each has finished starting. Once:
   * a second call waits for the first.
   */
  close(): Promise<void> {
    this.closed ??= (async () => {
      this.closing = true;
      this.scheduler.close(new PoolClosedError("the worker pool is closing"));
      await this.starts.allStarted(() => this.piscina.threads, WORKER_START_WAIT_MS);
      await this.piscina.close();
      this.heaps.close();
    })();
    return this.closed;
  }
}
