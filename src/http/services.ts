import type { ResponseCache } from "../cache/response-cache.js";
import type { Config } from "../config.js";
import type { PendingSource } from "../ingest/pending-events.js";
import type { ServiceMetrics } from "../observability/metrics.js";
import type { WorkerPool } from "../pool/pool.js";
import type { Task } from "../pool/protocol.js";
import type { Store } from "../stores/store.js";

/** What route handlers are given: built once by the composition root (src/main.ts). */
export interface Services {
  store: Store;
  pool: WorkerPool;
  /**
   * A miss's answer computed on this thread when it is surely cheap
   * (src/lists/inline-answers.ts), as a view valid until this thread's next product list;
   * null: the pool computes it.
   */
  answerInline?: (task: Task) => Uint8Array | null;
  cache: ResponseCache;
  /** Acknowledged behaviour events not yet in the stored histories (the event writer's). */
  pendingEvents: PendingSource;
  /** Prometheus metrics (absent where routes run outside a service, e.g. in micro benchmarks). */
  metrics?: ServiceMetrics;
  config: Config;
  adminToken: string;
  version: string;
  now: () => number;
  /** What the service still waits for before it answers in full (GET /readyz); empty once ready. */
  waitingFor: () => string[];
}
