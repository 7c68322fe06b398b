// The operator's numbers, in Prometheus format (GET /metrics). One registry per
// running service, so two services in one process (tests) never share counts.
// Labels name routes and task kinds, never merchants or ids: bounded cardinality,
// and nothing of a tenant leaks to whoever scrapes.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { HotHistogram, type HistogramSeries } from "./hot-histogram.js";

/** Seconds: from a cache hit's ~50 µs to a slow recompute. */
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const BUILD_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export interface MetricSources {
  poolQueueDepth: () => number;
  /** Acknowledged events not yet applied to histories, counts and carts (absent: none tracked). */
  eventsUnapplied?: () => number;
  cacheStats: () => { hits: number; misses: number; bytes: number };
  /** The pool workers' V8 heaps and external memory, added up (absent: not reported). */
  workerHeaps?: () => { usedBytes: number; totalBytes: number; externalBytes: number };
  /** A cluster node's place in the write stream (absent on a single box: no cluster series at all). */
  cluster?: () => StreamPlace;
}

/** What a cluster node reports of its place in the write stream. */
export interface StreamPlace {
  applied: number;
  lagMessages: number;
  lagSeconds: number;
  appliedTotal: number;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requestSeconds: HotHistogram<"route" | "method" | "status">;
  /**
   * Series by route, method and status, looked up level by level: a route's
   * pattern is the same string every time (its hash kept), where a key
   * joined per request was a new string to build and hash on every answer.
   */
  private readonly requestSeries = new Map<string, Map<string, Map<number, HistogramSeries>>>();
  private readonly taskSeconds: Histogram<"kind" | "outcome">;
  private readonly inlineSeconds: HotHistogram<"kind">;
  /** Series by task kind: looked up once per kind. */
  private readonly inlineSeries = new Map<string, HistogramSeries>();
  private readonly eventAckSeconds: HistogramSeries;
  private readonly buildSeconds: Histogram<"what">;
  private publishSeconds: Histogram | null = null;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: "aisle_" });
    this.requestSeconds = new HotHistogram({
      name: "aisle_http_request_duration_seconds",
      help: "Time from receiving a request to writing its answer",
      labelNames: ["route", "method", "status"],
      buckets: LATENCY_BUCKETS,
      registry: this.registry,
    });
    this.requestSeconds.countAs("aisle_http_requests_total", "HTTP requests answered, by route pattern, method and status");
    new Counter({
      name: "aisle_response_cache_lookups_total",
      help: "Response cache lookups by result (hit: answered from bytes on the HTTP thread)",
      labelNames: ["result"],
      registers,
      collect() {
        const { hits, misses } = sources.cacheStats();
        this.reset();
        this.inc({ result: "hit" }, hits);
        this.inc({ result: "miss" }, misses);
      },
    });
    new Gauge({
      name: "aisle_response_cache_hit_ratio",
      help: "Share of response cache lookups answered from the cache since start",
      registers,
      collect() {
        const { hits, misses } = sources.cacheStats();
        this.set(hits + misses === 0 ? 0 : hits / (hits + misses));
      },
    });
    new Gauge({
      name: "aisle_response_cache_bytes",
      help: "Bytes held by the response cache",
      registers,
      collect() {
        this.set(sources.cacheStats().bytes);
      },
    });
    new Gauge({
      name: "aisle_pool_queue_depth",
      help: "Tasks waiting for their turn, not yet handed to a worker thread (each worker also holds the task it runs and the next)",
      registers,
      collect() {
        this.set(sources.poolQueueDepth());
      },
    });
    new Gauge({
      name: "aisle_events_unapplied",
      help: "Behaviour events logged and acknowledged but not yet applied to histories, add counts and carts",
      registers,
      collect() {
        this.set(sources.eventsUnapplied?.() ?? 0);
      },
    });
    new Gauge({
      name: "aisle_pool_workers_heap_bytes",
      help: "The pool workers' V8 heaps, added up, as each last reported after a task (used: live and not yet collected; committed: what the heaps hold)",
      labelNames: ["kind"],
      registers,
      collect() {
        const heaps = sources.workerHeaps?.() ?? { usedBytes: 0, totalBytes: 0 };
        this.set({ kind: "used" }, heaps.usedBytes);
        this.set({ kind: "committed" }, heaps.totalBytes);
      },
    });
    new Gauge({
      name: "aisle_pool_workers_external_memory_bytes",
      help: "The pool workers' memory outside their V8 heaps (array buffers), added up, as each last reported after a task",
      registers,
      collect() {
        this.set(sources.workerHeaps?.().externalBytes ?? 0);
      },
    });
    this.taskSeconds = new Histogram({
      name: "aisle_pool_task_duration_seconds",
      help: "Worker pool task latency (queue wait + work + transfer), by task kind",
      labelNames: ["kind", "outcome"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.inlineSeconds = new HotHistogram({
      name: "aisle_inline_answer_duration_seconds",
      help: "Product list misses the HTTP thread answered itself, without the pool, by task kind",
      labelNames: ["kind"],
      buckets: LATENCY_BUCKETS,
      registry: this.registry,
    });
    const eventAcks = new HotHistogram({
      name: "aisle_event_commit_duration_seconds",
      help: "Time from an event's validation to the commit that holds it (its wait in the group commit included)",
      labelNames: [],
      buckets: LATENCY_BUCKETS,
      registry: this.registry,
    });
    eventAcks.countAs("aisle_events_acknowledged_total", "Behaviour events acknowledged (committed to LMDB)");
    this.eventAckSeconds = eventAcks.labels({});
    this.buildSeconds = new Histogram({
      name: "aisle_build_duration_seconds",
      help: "Model builds: similar-products model training",
      labelNames: ["what"],
      buckets: BUILD_BUCKETS,
      registers,
    });
    const place = sources.cluster;
    if (place) this.clusterSeries(place, registers);
  }

  private clusterSeries(place: () => StreamPlace, registers: Registry[]): void {
    new Gauge({
      name: "aisle_cluster_applied_sequence",
      help: "The last write-stream sequence this node has applied",
      registers,
      collect() {
        this.set(place().applied);
      },
    });
    new Gauge({
      name: "aisle_cluster_lag_messages",
      help: "Write-stream messages past the last one this node applied, as far as it knows the stream's end",
      registers,
      collect() {
        this.set(place().lagMessages);
      },
    });
    new Gauge({
      name: "aisle_cluster_lag_seconds",
      help: "Seconds since this node was last level with the write stream's end (0: level now)",
      registers,
      collect() {
        this.set(place().lagSeconds);
      },
    });
    new Counter({
      name: "aisle_cluster_applied_messages_total",
      help: "Write-stream messages this node has applied since it started (its apply rate: rate() of this)",
      registers,
      collect() {
        this.reset();
        this.inc(place().appliedTotal);
      },
    });
    this.publishSeconds = new Histogram({
      name: "aisle_cluster_publish_duration_seconds",
      help: "Time from publishing a write (or a turn's events of one merchant) to the write stream's acknowledgement",
      buckets: LATENCY_BUCKETS,
      registers,
    });
  }

  request(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.requestSeries.get(route);
    if (byMethod === undefined) this.requestSeries.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) byStatus.set(status, (series = this.requestSeconds.labels({ route, method, status: String(status) })));
    series.observe(seconds);
  }

  task(kind: string, outcome: "ok" | "failed" | "abandoned", seconds: number): void {
    this.taskSeconds.observe({ kind, outcome }, seconds);
  }

  inlineAnswer(kind: string, seconds: number): void {
    let series = this.inlineSeries.get(kind);
    if (!series) {
      series = this.inlineSeconds.labels({ kind });
      this.inlineSeries.set(kind, series);
    }
    series.observe(seconds);
  }

  eventAcknowledged(seconds: number): void {
    this.eventAckSeconds.observe(seconds);
  }

  /** A publish the write stream acknowledged (cluster mode). */
  published(seconds: number): void {
    this.publishSeconds?.observe(seconds);
  }

  build(what: "similar_model", seconds: number): void {
    this.buildSeconds.observe({ what }, seconds);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
