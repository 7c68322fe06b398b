// The typed boundary between the uWS thread and the worker pool: plain data in,
// bytes or an error code out. Errors travel as data because a thrown error loses
// its class and fields crossing threads.
import type { PurchasedTask, RecommendedTask, SalesListTask, StaticProductsTask, ViewedTask } from "../core/products/query.js";
import type { QuickViewTask } from "../core/search/request.js";

/** Products changed or deleted: embed them again and patch the similar-products lists they reach. */
export interface RefreshSimilarTask {
  kind: "refresh_similar";
  merchantId: string;
  productIds: number[];
}

/**
 * One step of a worker's warm-up of a merchant's in-memory index, so the first
 * shopper does not wait for its build: the search index. Works for about
 * `sliceMs`, then answers a WarmReply.
 */
export interface WarmTask {
  kind: "search_warm";
  merchantId: string;
  sliceMs: number;
}

/** Where a warm-up step left the index. */
export interface WarmStep {
  /** The index is complete and current. */
  done: boolean;
  /** When this step completed the build: the time spent building, over all steps. */
  buildSeconds: number | null;
}

/** The body of a warm-up step's answer: which worker, and where its index is. */
export interface WarmReply extends WarmStep {
  threadId: number;
}

export type Task =
  | StaticProductsTask
  | SalesListTask
  | RecommendedTask
  | ViewedTask
  | PurchasedTask
  | QuickViewTask
  | WarmTask
  | RefreshSimilarTask
  | { kind: "ping" };

export type TaskErrorCode = "merchant_not_found" | "bad_task";

/** The pool's queue is full: the task was refused at once rather than queued for seconds. */
export class PoolSaturatedError extends Error {}

/** The pool closed before the task's turn came: the service is stopping. */
export class PoolClosedError extends Error {}

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
  /**
   * Answered from an index still being built after a start, which covers
   * part of the catalogue or sales history: what the answer may lack, for the
   * X-Aisle-Partial header. Such an answer is not cached.
   */
  warming?: string;
}

/** What a worker's task handler returns: an answer, or an expected failure as data. */
export type TaskResult = ({ ok: true } & TaskAnswer) | { ok: false; code: TaskErrorCode; message: string };

/**
 * What actually crosses the thread boundary: Piscina transfers only a top-level
 * moved value, so a success is the bare body and a failure the error object;
 * the rare answer from a warming index travels as an object (its body copied).
 */
export type WireResult = Uint8Array | { warming: string; body: Uint8Array } | Extract<TaskResult, { ok: false }>;

export interface WorkerConfig {
  dataDir: string;
  /** The BroadcastChannel a worker posts its heap figures on (see worker-heaps.ts). */
  heapChannel: string;
}
