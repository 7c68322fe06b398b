// Search-index warm-up at start: every worker builds its own index of each
// merchant, so the first shoppers' keystrokes do not wait for it. Each step is
// a pool task that indexes for WARM_SLICE_MS and answers whether that worker's
// index is complete, so the steps queue with shoppers' requests instead of
// holding every worker for the whole build (about a minute at 1M products,
// during which no product endpoint could answer).
import type { MerchantId } from "../core/types.js";
import type { Logger } from "../observability/logger.js";
import type { ServiceMetrics } from "../observability/metrics.js";
import { PoolSaturatedError, type WorkerPool } from "../pool/pool.js";
import type { SearchWarmReply } from "../pool/protocol.js";

/** Indexing per step: short beside a request's budget, long beside a step's round trip. */
export const WARM_SLICE_MS = 50;
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
    const step = (): void => {
      pool.run({ kind: "search_warm", merchantId: merchant, sliceMs: WARM_SLICE_MS }).then(
        (result) => {
          if (!result.ok) return log.error("search index warm-up failed", { merchant, error: `${result.code}: ${result.message}` });
          const reply = JSON.parse(decoder.decode(result.body)) as SearchWarmReply;
          if (reply.buildSeconds !== null) metrics.build("search_index", reply.buildSeconds);
          const again = reply.done && finished.has(reply.threadId);
          if (reply.done) finished.add(reply.threadId);
          if (finished.size >= threads) return;
          if (again) setTimeout(step, AFTER_FINISHED_WORKER_MS);
          else step();
        },
        (error: unknown) => {
          if (error instanceof PoolSaturatedError) setTimeout(step, AFTER_SATURATED_MS);
          else log.error("search index warm-up failed", { merchant, error: String(error) });
        },
      );
    };
    // One chain of steps per worker, so all of them build side by side.
    for (let chain = 0; chain < threads; chain++) step();
  }
}
