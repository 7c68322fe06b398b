// The shapes the suites and load runs hand to the reports, in one module: a
// report reads these instead of importing the suite that fills them, and a
// suite never imports a report for a type. Types only, importing nothing of the
// bench but the budget names and the RSS sample shape, so every group can
// import it without closing an import circle.
import type { IngestKind } from "../../src/ingest/ingest.js";
import type { PoolTaskFigures } from "../load/pool-task-metrics.js";
import type { PageCacheShare } from "./page-cache.js";
import type { BudgetName } from "../report/budgets.js";
import type { RssSample } from "./exit-cause.js";

// ── In-process suites (tinybench and hand-timed samples) ────────────────────

export interface BudgetRef {
  name: BudgetName;
  stat: "p50" | "p99";
}

export interface MicroResult {
  name: string;
  p50Us: number;
  p99Us: number;
  opsPerSec: number;
  samples: number;
  error?: string;
  /** The budget(s) this figure is judged against, if any, and on which percentile. */
  budget?: BudgetRef | readonly BudgetRef[];
}

/** A titled group of results: one section of the report table. */
export interface MicroSuite {
  title: string;
  results: MicroResult[];
  /** Printed under the table: what the suite ran on. */
  note?: string;
}

export interface RankingFacts {
  productsWithNeighbours: number;
  productsWithoutNeighbours: number;
  /** One-input sets with fewer bought-together candidates than the list limit: they reach the fallbacks. */
  shortOneInputSets: number;
  oneInputSets: number;
}

// ── Load runs against a real server ──────────────────────────────────────────

export interface LoadSettings {
  /** Closed-loop connections: each holds one request in flight. */
  connections: number;
  /** Seconds measured, after warmupS seconds whose answers are not recorded. */
  durationS: number;
  warmupS: number;
  /** Seconds without an answer before the client counts a timeout (autocannon then reconnects). */
  timeoutS: number;
}

export interface ScenarioResult {
  name: string;
  /** "reference": a raw-uWS run with a scenario's own requests, shown but not part of the ceiling mean. */
  target: "aisle" | "ceiling" | "reference";
  /** Closed-loop connections of this run (the settings' count unless a scenario says otherwise). */
  connections: number;
  reqPerSec: number;
  /** 2xx responses per second (for event ingest: acknowledged, hence committed, events per second). */
  okPerSec: number;
  latencyMs: LatencySummaryMs;
  /** Connection errors, timeouts and non-2xx answers: a scenario with any is not a clean figure. */
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Budgets this scenario is judged against: latency p99 and/or req/s as a share of the ceiling. */
  budgets: ScenarioBudgets;
  /** Page mix: requests per page view, so the report can show page views/s. */
  pageRequests?: number;
  /** Event ingest only: the store's event count around the run, against the 2xx answers. */
  events?: EventCheck;
  /** The load generator, when not the autocannon client (event ingest, and the rows marked ", wrk", use wrk when installed). */
  generator?: string;
  /**
   * req/s (event ingest: 2xx/s) of a raw uWS server answering the same requests
   * with the same bytes (an event's receipt), same generator and connections,
   * measured beside it; the "vs ceiling" ratio uses it instead of the mean of
   * the ceiling runs.
   */
  sameRequestCeiling?: number;
}

export interface ScenarioBudgets {
  p99?: BudgetName;
  throughput?: BudgetName;
  /** An absolute floor on 2xx responses per second. */
  okRate?: BudgetName;
}

/** An acknowledged event must be stored: the store's event sequence must grow by at least the 2xx count. */
export interface EventCheck {
  /** store.eventSequence of the demo before and after the load client ran. */
  sequenceBefore: number;
  sequenceAfter: number;
  /** 2xx answers over the whole run, warm-up included (autocannon's "2xx"). */
  acknowledged: number;
  /**
   * CPU the aisle process used (every thread) per acknowledged event, from the
   * run's start until the applier had applied them all: what capacity costs,
   * independent of what else loads the machine.
   */
  serverCpuMicrosPerEvent: number;
  /** Acknowledged events not yet applied to histories and counts when the load stopped (aisle_events_unapplied). */
  unappliedAtEnd: number;
  /** How long the applier then took to apply them; null if it had not within load.ts's CATCH_UP_LIMIT_MS. */
  catchUpSeconds: number | null;
}

export interface LatencySummaryMs {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

export interface EventRotation {
  sessions: number;
  handles: number;
  paths: number;
  /** Share of the paths with verb=added (the rest are viewed). */
  addedShare: number;
}

export interface ServiceFigures {
  seedMs: number;
  startMs: number;
  coldStartMs: number;
  rssAfterStartMB: number;
  rssAfterLoadMB: number;
}

export interface LoadReport {
  settings: LoadSettings;
  service: ServiceFigures;
  /** Size of the static cache-hit body (5 products, full projection) that the ceiling also serves. */
  hitBodyBytes: number;
  /** Size of the recommended cache-hit body (5 products, reduced projection, cache_info). */
  recommendedHitBodyBytes: number;
  /** How many different URLs each rotating scenario cycles through. */
  rotations: { staticMiss: number; recommendedMiss: number; topSellersMiss: number; events: EventRotation; pageMixPages: number };
  scenarios: ScenarioResult[];
  /** Mean req/s of the ceiling runs before and after the aisle scenarios. */
  ceilingReqPerSec: number;
  /** What posted the events: "wrk …, 1 thread", or the autocannon client when wrk is missing. */
  eventGenerator: string;
}

// ── The scale suite and the scale curve ──────────────────────────────────────

export interface ScaleOptions {
  products: number;
  customers: number;
  /** The import stops after the chunk that crosses this many minutes. */
  maxImportMinutes: number;
  /** Objects per ingest batch (one transaction each); seedDemo uses MAX_BATCH_ITEMS. */
  chunk: number;
  /** Also time a full rebuild of the bought-together model (rebuildCopurchase). */
  rebuild: boolean;
}

export interface ChunkTiming {
  items: number;
  validateMs: number;
  writeMs: number;
}

export interface KindImport {
  kind: IngestKind;
  /** Objects generated of this kind; for streamed orders, those generated until the import stopped. */
  total: number;
  chunks: ChunkTiming[];
}

export interface ScaleReport {
  options: ScaleOptions;
  generateMs: number;
  volumes: {
    products: number;
    variants: number;
    collections: number;
    markets: number;
    marketPrices: number;
    customers: number;
    orders: number;
    orderLines: number;
  };
  imports: KindImport[];
  /** False when the import hit the time cap: the suites then ran on part of the orders. */
  importComplete: boolean;
  rssMB: { afterGenerate: number; afterImport: number; afterSuites: number };
  /** JS heap in use after the import and a full GC (RSS also counts the LMDB pages mapped so far). */
  heapAfterImportMB: number;
  /** Allocated size of the LMDB file after the import. */
  dataFileMB: number;
  facts: RankingFacts | null;
  suites: MicroSuite[];
  rebuildMs: number | null;
  /** Median of 5 store.marketsOf calls: the decode of every market's price table. */
  marketsDecodeMs: number | null;
  errors: string[];
}

/** What building one scale-curve shop measured (the shop-building child's report, less what only serving needs). */
export interface ShopOutcome {
  /**
   * Orders and events are counted as they stream into the import: when the
   * import stops at the time cap, these are what was generated by then (orders
   * up to the cap, no events).
   */
  volumes: { customers: number; orders: number; orderLines: number; events: number } | null;
  /** Catalogue and customers (with collections and markets); orders and events are generated as the import reads them. */
  generateMs: number;
  imports: KindImport[];
  importComplete: boolean;
  /** Events appended in batches of scale-shop.ts's EVENT_BATCH, one transaction each. */
  eventImport: { events: number; ms: number } | null;
  similarBuildMs: number | null;
  dataFileMB: number;
  /** In-process ranking p99s on the imported store (worker task functions). */
  ranking: MicroResult[];
  errors: string[];
}

export interface CurveOptions {
  sizes: number[];
  /** Per size: the import stops after the batch that crosses this many minutes. */
  maxImportMinutes: number;
  /** Sizes above this skip the similar-products build (the server then trains in the background). */
  similarUpTo: number;
  /**
   * Caps the customers (and with them orders and sessions) of every shop. The 1M shop
   * with the demo's proportions (667k customers, 4.5M orders, ~40M view events) was
   * generated in 6.5 min as 15.6 GB of live V8 heap, and its import then needed more
   * heap than V8 can map under the kernel's default vm.max_map_count (65,530 mappings of
   * 256 KB ≈ 16 GB): the child died 200k products into the import. That was measured
   * before orders and events were streamed into the import (scale-shop.ts), which no
   * longer holds them all. A capped run grows the catalogue alone past that.
   */
  maxCustomers: number | null;
  /**
   * A data dir a standalone scale-shop.ts run built and kept (with its
   * shop-report.json): its shop is served and loaded again, not built; the
   * dir is left in place. Building the 1M shop takes over an hour.
   */
  reuseShop: string | null;
}

export interface CurvePoint extends ShopOutcome {
  products: number;
  /** The shop-building child: its peak RSS and V8 heap limit (NaN when it reported nothing). */
  build: { peakRssMB: number; heapLimitMB: number };
  coldStartMs: number;
  /** The data dir's LMDB files in the page cache just before the server started; null: not known (no fincore). */
  pageCacheAtStart: PageCacheShare | null;
  rssAfterStartMB: number;
  /** The parts of rssAfterStartMB, as rssAfterLoadParts. */
  rssAfterStartParts: { anon: number; file: number };
  rssAfterLoadMB: number;
  /** The parts of rssAfterLoadMB: anonymous memory, and touched pages of the LMDB map (see rssPartsMB in aisle-process.ts). */
  rssAfterLoadParts: { anon: number; file: number };
  /** The server's RSS sampled every second from start to stop. */
  rssSamples: RssSample[];
  endpoints: ScenarioResult[];
  /**
   * Per endpoint (by rotation name): the first request after start, timed alone
   * before the load run. Per-worker state built on first use (the search index,
   * the session index read from the event log) is paid here, not in the p99.
   */
  firstRequestMs: Map<string, number>;
  /** Per endpoint (by rotation name): the answers pool workers computed during its load run, warm-up included; absent: none. */
  poolTasks: Map<string, PoolTaskFigures>;
  /** Why the server died during the run (exit status, stderr, RSS), or null when it did not. */
  serverDeath: string | null;
  /** What an extra pool worker holds; null: not measured (see WorkerMemory). */
  workerMemory: WorkerMemory | null;
  /** The server's warn/error and model-training log lines during the run. */
  serverNotes: string[];
}

/**
 * Anonymous memory of the server with two pool sizes (AISLE_WORKERS), each
 * started on the same shop and read after the same load of every endpoint
 * (which spreads tasks over the pool).
 */
export interface WorkerMemory {
  workers: readonly [number, number];
  anonMB: readonly [number, number];
  /** The load of each endpoint before the reading. */
  load: LoadSettings;
}

// ── Protection: an abusive key, and memory under many distinct requests ─────

/** What one wrk run answered. */
export interface WrkFigures {
  requests: number;
  reqPerSec: number;
  /** Answers with a status of 400 or more (wrk does not tell them apart). */
  non2xx: number;
  /** Connection errors and timeouts. */
  socketErrors: number;
  latencyMs: LatencySummaryMs;
}

/** Cores used over key B's measured seconds (CPU seconds per second; the machine has availableParallelism() of them). */
export interface PhaseCpu {
  server: number;
  /** The flood's wrk process (null: no flood in this phase). */
  floodGenerator: number | null;
  /** Every process of the machine together, these included (/proc/stat). */
  machine: number;
}

export interface AbusePhase {
  name: string;
  /** Key B's two paced loads over the measured seconds. */
  cached: WrkFigures;
  uncached: WrkFigures;
  /** Key A's flood over its whole run: the URLs it cycled through, and the 429s the server counted meanwhile (null: B alone). */
  flood: (WrkFigures & { urls: number; tooManyRequests: number }) | null;
  cpu: PhaseCpu;
}

export interface AbuseReport {
  /** AISLE_RATE_LIMIT_PRODUCT_READS of the server: per second / burst, for every key. */
  productReadsLimit: { perSecond: number; burst: number };
  keyB: { merchant: string; cachedUrls: number; uncachedUrls: number; connectionsPerLoad: number; pauseMs: number };
  /** `niceness`: that of A's wrk process (nice -n). */
  keyA: { merchant: string; products: number; connections: number; niceness: number };
  /** Seconds: B's warm-up and measured runs; the flood's lead before B starts and its tail after B ends. */
  timing: { warmupS: number; measuredS: number; floodLeadS: number; floodTailS: number };
  /** Key B alone (before), under each of key A's floods, alone (after), in the order run. */
  phases: AbusePhase[];
  generator: string;
}

/** One reading of the server while a memory run loads it. */
export interface MemorySample {
  /** Requests sent so far (answers lag by at most the connections). */
  requests: number;
  /** Seconds since the run's load started. */
  atS: number;
  anonMB: number;
  fileMB: number;
  /**
   * The HTTP thread's V8 heap (committed) and its external memory (array
   * buffers: the response cache's bodies), from /metrics; what anonMB holds
   * beyond them is the other threads' heaps (pool workers, applier) and native memory.
   */
  httpHeapMB: number;
  httpExternalMB: number;
  /**
   * The pool workers' V8 heaps (in use, and committed) and external memory,
   * added up, from /metrics (each worker's figures as it last reported them,
   * at most a second before).
   */
  workersHeapUsedMB: number;
  workersHeapMB: number;
  workersExternalMB: number;
  /** aisle_response_cache_bytes, in MB. */
  cacheMB: number;
  /** aisle_events_unapplied: acknowledged events still held for the applier. */
  unappliedEvents: number;
}

export interface MemoryRun {
  name: string;
  /** What each request was, for the notes. */
  requestShape: string;
  connections: number;
  /** Sampled at 0 and every MemoryReport.every requests. */
  samples: MemorySample[];
  /** After the load: once the applier has applied every event (or gave up waiting), plus a few idle seconds (null: not reached). */
  idle: MemorySample | null;
  answered: WrkFigures | null;
  /** Response-cache lookups during the load (aisle_response_cache_lookups_total): a run of new cache keys has no hits. */
  cacheLookups: { hits: number; misses: number } | null;
  /** Why the run stopped short or was not measured. */
  error: string | null;
}

export interface MemoryReport {
  /**
   * Requests per run, the sampling step, and the plateau rule: the lowest
   * anonymous RSS sampled over the last `plateauWindow` requests is less than
   * `plateauGrowth` above the lowest over the `plateauWindow` before them.
   */
  total: number;
  every: number;
  plateauWindow: number;
  plateauGrowth: number;
  /** Seconds the server is left idle after the load (and after the applier caught up) before the "idle after" sample. */
  idleS: number;
  /** The server's memory settings as the runs had them ("unset" where the service's default applied). */
  settings: Record<string, string>;
  runs: MemoryRun[];
  generator: string;
}

// ── The cluster bench (3 nats-servers, aisle nodes on them) ─────────────────

export type ClusterWriteKind = "events" | "orders";

/** Acknowledged writes per second through `nodes` nodes: one wrk process per node, all started together. */
export interface WriteThroughput {
  kind: ClusterWriteKind;
  nodes: number;
  /** Connections in all, split evenly between the nodes' wrk processes. */
  connections: number;
  /** 2xx answers (writes the stream acknowledged) per second over the measured seconds, summed over the nodes. */
  okPerSec: number;
  /** Every answer per second, summed. */
  reqPerSec: number;
  /** The highest of the nodes' wrk latencies, p50 and p99 of every answer. */
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers, socket errors and timeouts over warm-up and measured runs: a clean run has none. */
  failures: number;
}

/** What the lag client measured: single event writes through node A at a steady rate, and when node B had each. */
export interface LagMeasured {
  /** Writes sent over the measured seconds, and those A acknowledged (2xx with a sequence). */
  sent: number;
  acknowledged: number;
  /** Writes A refused or failed, warm-up included. */
  failed: number;
  /** Acknowledged writes per second over the measured seconds. */
  ackPerSec: number;
  /** A's answer time per write (send to answer). */
  ackLatencyMs: LatencySummaryMs;
  /** From A's answer to B having applied the write, per acknowledged write of the measured seconds. */
  lagMs: LatencySummaryMs;
  /** Probes B held for its whole 100 ms wait (then asked again): a write not applied within it. */
  heldOut: number;
  /** The probe alone, on a sequence B holds already: the lag figures' floor. */
  probeFloorMs: LatencySummaryMs;
}

/** Replication lag at a steady rate of single event writes through node A, seen on node B. */
export interface ReplicationLag extends LagMeasured {
  ratePerSec: number;
  warmupS: number;
  durationS: number;
}

/** A node catching up with the stream: from its spawn until it has applied the stream's end. */
export interface CatchUp {
  what: "restarted" | "fresh";
  /** Stream messages it applied to catch up. */
  messages: number;
  caughtUpMs: number;
  /** The same node's spawn to its first /healthz 200 when it has nothing to catch up. */
  levelStartMs: number;
  /** messages ÷ (caughtUpMs − levelStartMs). */
  messagesPerSec: number;
  /** messages ÷ caughtUpMs: the start included. */
  grossMessagesPerSec: number;
  /** It had caught up before it first answered: caughtUpMs is then an upper bound. */
  levelAtListen: boolean;
}

export interface ClusterReport {
  /** The load generator's version line. */
  generator: string;
  /** The shop every node serves, created through the admin API of node A. */
  shop: { products: number; eventPaths: number; orders: number };
  writeSettings: { warmupS: number; durationS: number };
  writes: WriteThroughput[];
  lag: ReplicationLag;
  /** What the killed node missed: events, then orders, written through A for these seconds at these rates while it was down. */
  missed: { eventsPerSec: number; ordersPerSec: number; eventsS: number; ordersS: number };
  catchUps: CatchUp[];
}
