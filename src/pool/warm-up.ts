// Index warm-up at start: every worker builds its own in-memory search index
// of each merchant, so the first shoppers do not wait for it. Each
// step is a background pool task that builds for WARM_SLICE_MS and answers
// whether that worker's index is complete: steps run only when no shopper's
// task is waiting, instead of holding every worker for the whole build (at 1M
// products about a minute, during which no product endpoint could answer).
import type { MerchantId } from "../core/types.js";
import type { Logger } from "../observability/logger.js";
import type { ServiceMetrics } from "../observability/metrics.js";
import type { WorkerPool } from "./pool.js";
import { PoolClosedError, PoolSaturatedError, type TaskAnswer, type WarmReply, type WarmTask } from "./protocol.js";

/**
 * Building per step: a shopper's task that arrives during a step waits for it,
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

/** What each kind of step builds, as metrics and logs name it. */
const INDEXES = {
  search_warm: { metric: "search_index", name: "search index" },
} as const;

/** Which warm-ups are under way: until none is, some answers may come from indexes still being read. */
export class WarmUpProgress {
  private readonly underway = new Set<string>();

  started(kind: WarmTask["kind"], merchant: MerchantId): () => void {
    const key = `${kind}\u0000${merchant}`;
    this.underway.add(key);
    return () => this.underway.delete(key);
  }

  get complete(): boolean {
    return this.underway.size === 0;
  }

  get count(): number {
    return this.underway.size;
  }
}

/** Warms the `kind` index of every merchant in every one of the pool's `threads` workers. */
export function warmIndexes(
  kind: WarmTask["kind"],
  merchants: readonly MerchantId[],
  pool: WorkerPool,
  threads: number,
  log: Logger,
  metrics: ServiceMetrics,
  /** Set for the warm-up at start, which readiness waits for; a merchant created later is warmed without it. */
  progress?: WarmUpProgress,
): void {
  const { metric, name } = INDEXES[kind];
  const decoder = new TextDecoder();
  for (const merchant of merchants) {
    const ended = progress?.started(kind, merchant) ?? (() => true);
    const finished = new Set<number>();
    let inFlight = 0;
    let stopped = false;
    // One step per worker in flight: handed out together, steps go to different
    // idle workers, so a worker still building gets one even when the pool's
    // choice of idle worker keeps falling on a finished one.
    const pump = (): void => {
      while (!stopped && !pool.closing && inFlight < threads && finished.size < threads) {
        inFlight++;
        pool.run({ kind, merchantId: merchant, sliceMs: WARM_SLICE_MS }, { background: true }).then(settled, failed);
      }
    };
    const settled = (result: TaskAnswer): void => {
      inFlight--;
      const reply = JSON.parse(decoder.decode(result.body)) as WarmReply;
      if (reply.buildSeconds !== null) metrics.build(metric, reply.buildSeconds);
      const again = reply.done && finished.has(reply.threadId);
      if (reply.done) finished.add(reply.threadId);
      if (finished.size >= threads) ended();
      if (again) setTimeout(pump, AFTER_FINISHED_WORKER_MS);
      else pump();
    };
    const failed = (error: unknown): void => {
      inFlight--;
      if (error instanceof PoolSaturatedError) return void setTimeout(pump, AFTER_SATURATED_MS);
      stopped = true;
      // Requests read on where the warm-up stopped: logged, and not waited for.
      ended();
      // A shutdown refuses the steps still queued: nothing went wrong.
      if (error instanceof PoolClosedError) return;
      log.error(`${name} warm-up failed`, { merchant, error: String(error) });
    };
    pump();
  }
}
