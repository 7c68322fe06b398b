// The composition root: opens the store, seeds the demo, joins the cluster
// (when configured), starts the worker pool and the HTTP front end, and shuts
// them down in order.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { ResponseCache } from "./cache/response-cache.js";
import { ClusterNode } from "./cluster/cluster-node.js";
import { ClusterSnapshots } from "./cluster/cluster-snapshots.js";
import type { Config } from "./config.js";
import { describeDemo, type DemoInfo } from "./demo/seed.js";
import { seedDemoInThread } from "./demo/seed-thread.js";
import { newSecret } from "./ingest/merchants.js";
import { forgetVerifiedKeys } from "./http/auth.js";
import { HttpServer } from "./http/server.js";
import { RateLimiting } from "./http/rate-limiting.js";
import { Router } from "./http/router.js";
import { adminRoutes, ADMIN_OPERATIONS } from "./http/routes/admin.js";
import { demoStorefrontRoutes } from "./http/routes/demo-storefront.js";
import { eventRoutes } from "./http/routes/events.js";
import { EventWriter } from "./ingest/event-writer.js";
import { localWrites } from "./ingest/write-commands.js";
import { metaRoutes } from "./http/routes/meta.js";
import { searchRoutes } from "./http/routes/search.js";
import { storefrontRoutes } from "./http/routes/storefront.js";
import { customSourceRoute } from "./http/routes/custom-source.js";
import { searchSettingsAdminRoutes } from "./http/routes/search-settings-admin.js";
import { sourceAdminRoutes } from "./http/routes/source-admin.js";
import { webhookRoutes, WEBHOOK_OPERATIONS } from "./http/routes/webhooks.js";
import type { Services } from "./http/services.js";
import { WorkerPool } from "./pool/pool.js";
import { SimilarModels } from "./similar/service.js";
import { InlineAnswers } from "./lists/inline-answers.js";
import { FbtTrainer } from "./recs/fbt-trainer.js";
import { ViewedRelatedTuner } from "./recs/viewed-related-tuner.js";
import { makeDataDir } from "./stores/environment.js";
import { lockDataDir } from "./stores/serve-lock.js";
import { Store } from "./stores/store.js";
import { VERSION } from "./version.js";

export interface RunningService {
  port: number;
  adminToken: string;
  /** Where the admin token came from: printed only when this start created it (logs are collected). */
  adminTokenSource: AdminTokenSource;
  /** The demo merchant, when the data dir has one (seeded now or before). */
  demo: DemoInfo | null;
  services: Services;
  /** The similar-products models (tests wait on `similar.idle()`). */
  similar: SimilarModels;
  close(): Promise<void>;
}

import type { Logger } from "./observability/logger.js";
import { ServiceMetrics } from "./observability/metrics.js";
export type { Logger } from "./observability/logger.js";

/** A read that names a stream sequence (X-Aisle-After-Seq) waits at most this long for this node to apply it, then is answered anyway. */
const AFTER_SEQ_WAIT_MS = 100;

export type AdminTokenSource = { kind: "environment" } | { kind: "created" | "kept"; file: string };

/** The admin token from the environment, or one generated on first start and kept in the data dir. */
function adminTokenFor(config: Config): { token: string; source: AdminTokenSource } {
  if (config.adminToken) return { token: config.adminToken, source: { kind: "environment" } };
  const file = join(config.dataDir, "admin-token");
  if (existsSync(file)) return { token: readFileSync(file, "utf8").trim(), source: { kind: "kept", file } };
  const token = `adm_${newSecret()}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, source: { kind: "created", file } };
}

export async function startService(config: Config, log: Logger): Promise<RunningService> {
  // The response cache keeps answers alive, so V8 learns to allocate what
  // builds them straight into the old generation, which then fills at the
  // rate of misses: under a 10-connection miss load of the demo, a full
  // collection ran every 30 ms. Allocated young, most of it dies cheaply in
  // scavenges: static misses/s rose from 11.5k to 15.4k.
  setFlagsFromString("--no-allocation-site-pretenuring");
  makeDataDir(config.dataDir);
  const unlock = lockDataDir(config.dataDir);
  try {
    return await startLocked(config, log, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

async function startLocked(config: Config, log: Logger, unlock: () => void): Promise<RunningService> {
  const snapshots =
    config.cluster === null
      ? null
      : await ClusterSnapshots.open(
          {
            urls: config.cluster.natsUrl,
            replicas: config.cluster.replicas,
            retentionDays: config.retention.days,
            everyMs: config.cluster.snapshotEveryMs,
          },
          log,
        );
  try {
    return await startWithSnapshots(config, log, unlock, snapshots);
  } catch (error) {
    await snapshots?.close();
    throw error;
  }
}

async function startWithSnapshots(
  config: Config,
  log: Logger,
  unlock: () => void,
  snapshots: ClusterSnapshots | null,
): Promise<RunningService> {
  // Before the store opens: a cluster node too far behind the stream starts from a snapshot in the cluster's bucket.
  await snapshots?.restoreIfBehind(config.dataDir);
  const store = Store.open(config.dataDir);
  const { token: adminToken, source: adminTokenSource } = adminTokenFor(config);
  // A cluster node's data comes from the write stream alone: a demo seeded on one node would be on that node only.
  const seeding = config.cluster === null && config.demo === "auto" && store.catalogue.isEmpty();
  const demo = seeding ? await seedDemoInThread(config.dataDir) : describeDemo(store);
  // The seed was written by another thread: read from the latest state.
  if (seeding) store.refreshSnapshot();
  const cache = new ResponseCache(config.cacheMaxBytes);
  let cluster: ClusterNode | null = null;
  let queueDepth = () => 0;
  let eventsUnapplied = () => 0;
  let workerHeaps = () => ({ usedBytes: 0, totalBytes: 0, externalBytes: 0 });
  const metrics = new ServiceMetrics({
    poolQueueDepth: () => queueDepth(),
    workerHeaps: () => workerHeaps(),
    eventsUnapplied: () => eventsUnapplied(),
    cacheStats: () => ({ hits: cache.hits, misses: cache.misses, bytes: cache.totalBytes }),
    ...(config.cluster === null ? {} : { cluster: () => cluster!.progress }),
  });
  if (config.cluster !== null) {
    const settings = { urls: config.cluster.natsUrl, replicas: config.cluster.replicas, retentionDays: config.retention.days };
    cluster = await ClusterNode.connect({ ...settings, maxLag: config.cluster.maxLag }, store, log, (seconds) =>
      metrics.published(seconds),
    );
  }
  const pool = new WorkerPool({
    dataDir: config.dataDir,
    threads: config.workers,
    heapMb: config.workerHeapMb,
    searchCacheBytes: config.searchCacheBytes,
    maxQueue: config.poolMaxQueue,
    onTask: (kind, outcome, seconds) => metrics.task(kind, outcome, seconds),
    onWorkerError: (error) => log.error("a pool worker failed outside a task", { error: String((error as Error)?.stack ?? error) }),
  });
  queueDepth = () => pool.queueSize;
  workerHeaps = () => pool.workerHeaps;
  const similar = new SimilarModels(store, config.dataDir, log, (seconds) => metrics.build("similar_model", seconds));
  // A shop without a model, the demo just seeded included, gets one trained in
  // the background (~10 s for the demo): listening first keeps a first start
  // within seconds, and until then context=similar is answered as README says.
  similar.reconcile();
  // Each shop's viewed-related is tuned on its own sessions once it has enough, and again as they grow.
  const tuner = config.tuneEveryMs === null ? null : new ViewedRelatedTuner(store, config.dataDir, log, config.tuneEveryMs);
  // And its bought-together model is trained on its own orders once it has enough, and again as they grow.
  const fbtTrainer = config.tuneEveryMs === null ? null : new FbtTrainer(store, config.dataDir, log, config.tuneEveryMs);
  // Renewing the HTTP thread's read snapshot first: what was acknowledged is visible to it at once.
  const events = new EventWriter(
    store.events,
    { dataDir: config.dataDir, rankingRefreshMs: config.rankingRefreshMs, retention: config.retention },
    () => store.refreshSnapshot(),
    (thread, error) =>
      log.error("the event applier died and was started again (it applies what was logged meanwhile)", { thread, error: String(error) }),
    cluster,
  );
  eventsUnapplied = () => events.pendingCount;
  const recovered = await events.started();
  if (recovered > 0) log.info("applied behaviour events an earlier run had logged but not applied", { events: recovered });
  // Another node's change of a merchant's limits reaches this node's key checks as the write is applied.
  cluster?.startApplying(events, (write) => write.kind === "rate-limits" && forgetVerifiedKeys(store));
  snapshots?.keep(config.dataDir, () => cluster!.progress.applied);
  const writes = cluster ?? localWrites(store);
  const inlineAnswers = new InlineAnswers(store);
  const services: Services = {
    store,
    pool,
    answerInline: (task) => inlineAnswers.answer(task),
    cache,
    pendingEvents: events,
    metrics,
    config,
    adminToken,
    version: VERSION,
    now: Date.now,
    // A merchant created later does not count: a new, empty shop must not take a busy instance out of service.
    waitingFor: () => (cluster === null ? events.waitingFor : [...events.waitingFor, ...cluster.waitingFor]),
  };
  const router = new Router([
    ...storefrontRoutes(services),
    customSourceRoute(services),
    ...searchRoutes(services),
    ...eventRoutes(services, events),
    // Before the admin routes of record kinds, whose /:kind pattern would take /sources and /search-settings too.
    ...sourceAdminRoutes(services, writes),
    ...searchSettingsAdminRoutes(services, writes),
    ...adminRoutes(services, writes),
    ...webhookRoutes(services, writes),
    ...metaRoutes(services, [...ADMIN_OPERATIONS, ...WEBHOOK_OPERATIONS]),
    ...demoStorefrontRoutes(services, demo?.merchantId ?? null),
  ]);
  const accessLog = config.logLevel === "debug";
  const server = new HttpServer(router, {
    host: config.host,
    port: config.port,
    maxBodyBytes: config.maxBodyBytes,
    maxUrlBytes: config.maxUrlBytes,
    rateLimiting: new RateLimiting(config.rateLimits),
    refusalDelayMs: config.refusalDelayMs,
    onInternalError: (error, request, requestId) =>
      log.error("request failed", {
        requestId,
        method: request.method,
        path: request.path,
        error: String((error as Error)?.stack ?? error),
      }),
    onResponse: ({ route, method, path, status, seconds, requestId }) => {
      metrics.request(route, method, status, seconds);
      // Checked here so the default level builds no access-log object per request.
      if (accessLog) log.debug("request", { requestId, method, path, status, ms: Math.round(seconds * 1e5) / 100 });
    },
    ...(cluster === null ? {} : { appliedSeq: (seq: number) => cluster!.waitFor(seq, AFTER_SEQ_WAIT_MS) }),
  });
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      // Background jobs stop looking (and a training or snapshot upload under way is asked to stop) before the drain, not after it.
      const backgroundClosed = Promise.all([tuner?.close(), fbtTrainer?.close(), snapshots?.close()]);
      await server.drain(config.shutdownGraceMs);
      // What the stream delivered is applied first; events.close() then needs the connection for its last publishes.
      await cluster?.stopApplying();
      await events.close();
      await cluster?.close();
      await similar.close();
      await backgroundClosed;
      await pool.close();
      await store.close();
      unlock();
    })();
    return closing;
  };
  let port: number;
  try {
    port = await server.listen();
  } catch (error) {
    // The pool's workers and the applier would keep the process alive, saying nothing. (A failure earlier in
    // start-up leaves them running still: the listen is what an operator's setting makes fail.) The listen's
    // error is the one to report, whatever closing says.
    await close().catch((closeError: unknown) => log.error("closing after a failed start failed", { error: String(closeError) }));
    throw error;
  }
  return { port, adminToken, adminTokenSource, demo, services, similar, close };
}
