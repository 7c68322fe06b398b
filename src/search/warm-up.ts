// Search-index warm-up at start: every worker builds its own index of each
// merchant, so the first shoppers' keystrokes do not wait for it. Each step is
// a background pool task that indexes for WARM_SLICE_MS and answers whether
// that worker's index is complete: steps run only when no shopper's task is
// waiting, instead of holding every worker for the whole build (about a
// minute at 1M products, during which no product endpoint could answer).
import type { MerchantId } from "../core/types.js";
import type { Logger } from "../observability/logger.js";
import type { ServiceMetrics } from "../observability/metrics.js";
import { PoolSaturatedError, type WorkerPool } from "../pool/pool.js";
import type { SearchWarmReply, TaskResult } from "../pool/protocol.js";

/**
 * Indexing per step: a shopper's task that arrives during a step waits for it,
 * so a step is kept within a request's budget; its round trip (~0.1 ms) is
 * small beside it.
 */
export const WARM_SLICE_MS = 5;
/**
 * The pool gives a step to any idle worker, also one whose index is complete;
 * the next step then waits this long, so an idle finished worker does not spin
 * through steps while the other one builds.
 */
const AFTER_FINISHED_WORKER_MS = 25;
/** A full pool queue (shoppers first): the step is tried again after this long. */
const AFTER_SATURATED_MS = 100;

export function warmSearchIndexes(merchants: readonly MerchantId[], pool: WorkerPool, threads: number, log: Logger, metrics: ServiceMetrics): void {
  const decoder = new TextDecoder();
  for (const merchant of merchants) {
    const finished = new Set<number>();
    let inFlight = 0;
    let stopped = false;
    // One step per worker in flight: handed out together, steps go to different
    // idle workers, so a worker still building gets one even when the pool's
    // choice of idle worker keeps falling on a finished one.
    const pump = (): void => {
      while (!stopped && inFlight < threads && finished.size < threads) {
        inFlight++;
        pool.run({ kind: "search_warm", merchantId: merchant, sliceMs: WARM_SLICE_MS }, { background: true }).then(settled, failed);
      }
    };
    const settled = (result: TaskResult): void => {
      inFlight--;
      if (!result.ok) {
        stopped = true;
        return log.error("search index warm-up failed", { merchant, error: `${result.code}: ${result.message}` });
      }
      const reply = JSON.parse(decoder.decode(result.body)) as SearchWarmReply;
      if (reply.buildSeconds !== null) metrics.build("search_index", reply.buildSeconds);
      const again = reply.done && finished.has(reply.threadId);
      if (reply.done) finished.add(reply.threadId);
      if (again) setTimeout(pump, AFTER_FINISHED_WORKER_MS);
      else pump();
    };
    const failed = (error: unknown): void => {
      inFlight--;
      if (error instanceof PoolSaturatedError) return void setTimeout(pump, AFTER_SATURATED_MS);
      stopped = true;
      log.error("search index warm-up failed", { merchant, error: String(error) });
    };
    pump();
  }
}
