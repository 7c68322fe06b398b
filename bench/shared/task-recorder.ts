// The tasks the server's storefront routes hand the pool, built exactly as it
// builds them: for benchmarks and tests that call the task functions directly.
import { NO_PENDING } from "../../src/ingest/pending-events.js";
import { ResponseCache } from "../../src/cache/response-cache.js";
import { loadConfig } from "../../src/config.js";
import type { RequestInfo, Route } from "../../src/http/router.js";
import { storefrontRoutes } from "../../src/http/routes/storefront.js";
import type { WorkerPool } from "../../src/pool/pool.js";
import type { Task, TaskAnswer } from "../../src/pool/protocol.js";
import type { Store } from "../../src/stores/store.js";
import { VERSION } from "../../src/version.js";

const EMPTY_LIST = new TextEncoder().encode('{"data":[]}');

/**
 * Builds worker tasks exactly as the server does: the real storefront routes,
 * given a pool that only records the task it is handed.
 */
export class TaskRecorder {
  private recorded: Task | null = null;
  private readonly routes: Route[];

  constructor(store: Store) {
    const pool = {
      run: (task: Task): Promise<TaskAnswer> => {
        this.recorded = task;
        return Promise.resolve({ body: EMPTY_LIST });
      },
      queueSize: 0,
      close: () => Promise.resolve(),
    } as unknown as WorkerPool;
    this.routes = storefrontRoutes({
      store,
      pool,
      cache: new ResponseCache(0),
      pendingEvents: { pendingFor: () => NO_PENDING },
      config: loadConfig({}, { dataDir: "/nonexistent" }),
      adminToken: "bench",
      version: VERSION,
      now: Date.now,
      waitingFor: () => [],
    });
  }

  /** The task for GET path?query (with bust_cache=yes); `kind`: what it must be. */
  async task<T extends Task>(path: string, query: string, kind?: T["kind"]): Promise<T> {
    const route = this.routes.find((r) => r.method === "GET" && r.pattern === path);
    if (!route) throw new Error(`no route ${path}`);
    this.recorded = null;
    const request: RequestInfo = {
      method: "GET",
      path,
      rawQuery: `${query}&bust_cache=yes`,
      query: new URLSearchParams(`${query}&bust_cache=yes`),
      headers: {},
      body: null,
      params: {},
    };
    const reply = await route.handle(request);
    const task = this.recorded as Task | null;
    if (reply.status !== 200 || task === null) throw new Error(`GET ${path}?${query} did not reach the pool (status ${reply.status})`);
    if (kind !== undefined && task.kind !== kind) throw new Error(`GET ${path} built a ${task.kind} task, not ${kind}`);
    return task as T;
  }
}
