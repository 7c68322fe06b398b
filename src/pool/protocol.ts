// The typed boundary between the uWS thread and the worker pool: plain data in,
// bytes or an error code out. Errors travel as data because a thrown error loses
// its class and fields crossing threads.
import type { PurchasedTask, RecommendedTask, SalesListTask, StaticProductsTask, ViewedTask } from "../core/products/query.js";
import type { QuickViewTask } from "../core/search/request.js";
import type { CustomSourceTask } from "../core/sources/task.js";

export type Task =
  StaticProductsTask | SalesListTask | RecommendedTask | ViewedTask | PurchasedTask | CustomSourceTask | QuickViewTask | { kind: "ping" };

export type TaskErrorCode = "merchant_not_found" | "source_not_found" | "bad_task" | "abandoned";

/**
 * What the pool posts a worker: the task, and a flag the uWS thread sets to 1
 * once every client waiting for it has gone. A worker is handed its next task
 * while one still runs (TASKS_PER_WORKER), so a task whose flag is set by the
 * time its turn comes is answered "abandoned", unrun.
 */
export interface PoolMessage {
  task: Task;
  dropped: Int32Array;
}

/** Whether the message's clients have all gone. */
export function isDropped(message: PoolMessage): boolean {
  return Atomics.load(message.dropped, 0) === 1;
}

/** The pool's queue is full: the task was refused at once rather than queued for seconds. */
export class PoolSaturatedError extends Error {}

/** The pool closed before the task's turn came: the service is stopping. */
export class PoolClosedError extends Error {}

/** The task's client went away before its turn came, or before its worker started it: it was dropped, not run. */
export class TaskAbandonedError extends Error {}

/** A task the worker answered with an expected failure (`{ok: false}`), as an error on the calling thread. */
export class TaskFailedError extends Error {
  constructor(
    readonly kind: string,
    readonly code: TaskErrorCode,
    detail: string,
  ) {
    super(detail);
  }
}

/** A task's answer as the calling thread receives it. */
export interface TaskAnswer {
  body: Uint8Array;
}

/** What a worker's task handler returns: an answer, or an expected failure as data. */
export type TaskResult = ({ ok: true } & TaskAnswer) | { ok: false; code: TaskErrorCode; message: string };

/**
 * What actually crosses the thread boundary: Piscina transfers only a top-level
 * moved value, so a success is the bare body and a failure the error object.
 */
export type WireResult = Uint8Array | Extract<TaskResult, { ok: false }>;

export interface WorkerConfig {
  dataDir: string;
  /** The worker's cache of common search terms' postings, in bytes (Config.searchCacheBytes); absent: none. */
  searchCacheBytes?: number;
  /** The BroadcastChannel a worker posts its heap figures on (see worker-heaps.ts). */
  heapChannel: string;
}
