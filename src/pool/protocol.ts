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

/** Builds a merchant's search index in the worker that runs it, so the first shopper does not wait. */
/** One step of a worker's search-index warm-up: index for about `sliceMs`, then answer a SearchWarmReply. */
export interface SearchWarmTask {
  kind: "search_warm";
  merchantId: string;
  sliceMs: number;
}

/** The body of a search_warm answer: which worker, and whether its index is complete. */
export interface SearchWarmReply {
  threadId: number;
  done: boolean;
  /** Set by the step that completed the build. */
  buildSeconds: number | null;
}

export type Task =
  | StaticProductsTask
  | SalesListTask
  | RecommendedTask
  | ViewedTask
  | PurchasedTask
  | QuickViewTask
  | SearchWarmTask
  | RefreshSimilarTask
  | { kind: "ping" };

export type TaskErrorCode = "merchant_not_found" | "bad_task";

export type TaskResult =
  | { ok: true; body: Uint8Array }
  | { ok: false; code: TaskErrorCode; message: string };

/**
 * What actually crosses the thread boundary: Piscina transfers only a top-level
 * moved value, so a success is the bare body and a failure the error object.
 */
export type WireResult = Uint8Array | Extract<TaskResult, { ok: false }>;

export interface WorkerConfig {
  dataDir: string;
}
