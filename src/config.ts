// The only reader of process.env. Every setting has a default, so `aisle serve`
// on a fresh machine needs no configuration at all.
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { DEFAULT_RATE_LIMITS, RATE_CLASSES, type RateLimit, type RateLimits } from "./core/rate-limit.js";
import { LOG_LEVELS, type LogLevel } from "./observability/logger.js";
import type { Retention } from "./stores/retention.js";

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** null: generate one on first start and keep it in the data dir. */
  adminToken: string | null;
  demo: "auto" | "off";
  workers: number;
  /**
   * Each pool worker's old-generation heap limit. A worker runs one task after
   * another and blocks between them, so V8 never collects while idle: without a
   * limit, garbage of finished tasks piles up to V8's default limit (GBs), at
   * about 0.4 KB a task.
   */
  workerHeapMb: number;
  /** Each pool worker's cache of common search terms' postings (posting-cache.ts), in bytes; 0: none. */
  searchCacheBytes: number;
  poolMaxQueue: number;
  cacheMaxBytes: number;
  /** Age after which cached behaviour-driven lists (trending, top sellers) are recomputed. */
  behaviourCacheTtlMs: number;
  /** While orders or add-to-cart events keep coming, the stored rankings (trending, top sellers) are refreshed at most this often. */
  rankingRefreshMs: number;
  /**
   * How often the background tuners look for a shop due a viewed-related tuning or a bought-together training; null:
   * never (`aisle tune` still tunes on demand). Either takes a core for a while, so a benchmark that measures latency
   * turns them off.
   */
  tuneEveryMs: number | null;
  /** How long the event applier keeps the event log, histories and sessions, and how many sessions per merchant. */
  retention: Retention;
  /** Admin and webhook bodies (bulk imports are large). */
  maxBodyBytes: number;
  /** Quick-view search bodies. */
  searchMaxBodyBytes: number;
  maxUrlBytes: number;
  shutdownGraceMs: number;
  logLevel: LogLevel;
  /** Per class of endpoint; a merchant may have its own (admin API). */
  rateLimits: RateLimits;
  /** How long a 429 is held before it is written, so that a client ignoring Retry-After cannot keep the HTTP thread busy refusing it. */
  refusalDelayMs: number;
  /** Where storefronts reach the service (e.g. https://recs.example.com behind a TLS proxy); null: as they called it, over plain HTTP. */
  publicUrl: URL | null;
  /** Cluster mode (every write through a NATS JetStream stream); null: a single box. */
  cluster: ClusterConfig | null;
}

export interface ClusterConfig {
  /** The nats-servers' URLs, comma-separated (AISLE_NATS_URL, or `aisle serve --nats`). */
  natsUrl: string;
  /** Replicas of the write stream: 3 on a 3-server cluster (AISLE_NATS_REPLICAS). */
  replicas: number;
  /** Further behind the stream than this many messages, a node answers 503 on /readyz (AISLE_CLUSTER_MAX_LAG). */
  maxLag: number;
  /** A node writes a snapshot to the cluster's bucket when the newest there is this old (AISLE_CLUSTER_SNAPSHOT_HOURS). */
  snapshotEveryMs: number;
}

export class ConfigError extends Error {}

/**
 * Pool workers by default: the cores the HTTP thread leaves, and at least two
 * where there are two cores.
 * With one worker, every task queues behind the one running, however idle the
 * other core: on two cores a second worker answered viewed-related 44% faster
 * (p99 8.3 → 6.4 ms at 10 connections, demo shop) and a freshly started
 * million-product shop's first keystrokes at 3,900–4,200 req/s instead of
 * 370–2,500 (p99 34 ms instead of 40–160).
 */
export function defaultWorkers(cores: number): number {
  // One core has no idle core for a second worker to use: it would only double the workers' memory.
  return cores <= 1 ? 1 : Math.max(2, cores - 1);
}

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new ConfigError(`${name} must be an integer ${range}, got "${raw}"`);
  }
  return value;
}

/** `natsUrl`: `aisle serve --nats`, which takes the place of AISLE_NATS_URL. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  { natsUrl, ...overrides }: Partial<Config> & { natsUrl?: string } = {},
): Config {
  const demo = env.AISLE_DEMO ?? "auto";
  if (demo !== "auto" && demo !== "off") throw new ConfigError(`AISLE_DEMO must be auto or off, got "${demo}"`);
  const logLevel = env.AISLE_LOG_LEVEL ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    throw new ConfigError(`AISLE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  const eventDays = integerSetting(env, "AISLE_EVENT_RETENTION_DAYS", 90, 1);
  const config: Config = {
    host: env.HOST ?? "0.0.0.0",
    port: integerSetting(env, "PORT", 8080, 0),
    dataDir: resolve(env.AISLE_DATA_DIR ?? "./data"),
    adminToken: env.AISLE_ADMIN_TOKEN || null,
    demo,
    // One thread answers HTTP; the pool gets the rest of the machine, and at least two workers (see defaultWorkers).
    workers: integerSetting(env, "AISLE_WORKERS", defaultWorkers(availableParallelism()), 1),
    workerHeapMb: integerSetting(env, "AISLE_WORKER_HEAP_MB", 256, 64),
    // Off unless asked: on the kept million-product shop, 32 MB made a cold keystroke's ranking about a
    // fifth cheaper in one process, but the scale bench's keystroke row was no better with it, and each
    // extra worker held about 84 MB more anonymous memory (README, AISLE_SEARCH_CACHE_MB).
    searchCacheBytes: integerSetting(env, "AISLE_SEARCH_CACHE_MB", 0, 0) * 1024 * 1024,
    poolMaxQueue: integerSetting(env, "AISLE_POOL_MAX_QUEUE", 2_048, 1),
    cacheMaxBytes: integerSetting(env, "AISLE_CACHE_MB", 256, 0) * 1024 * 1024,
    behaviourCacheTtlMs: integerSetting(env, "AISLE_BEHAVIOUR_CACHE_TTL_S", 300, 0) * 1000,
    rankingRefreshMs: integerSetting(env, "AISLE_RANKING_REFRESH_S", 30, 1) * 1000,
    tuneEveryMs: optionalSeconds(env, "AISLE_TUNE_EVERY_S", 60),
    retention: {
      days: eventDays,
      sessionDays: integerSetting(env, "AISLE_SESSION_RETENTION_DAYS", eventDays, 1),
      // Sessions further back than a million count little: the kNN's recency
      // fade weighs them below exp(−1M / 150k) ≈ 0.13% of the newest.
      maxSessions: integerSetting(env, "AISLE_SESSION_CAP", 1_000_000, 1),
    },
    maxBodyBytes: integerSetting(env, "AISLE_MAX_BODY_MB", 32, 1) * 1024 * 1024,
    searchMaxBodyBytes: integerSetting(env, "AISLE_SEARCH_MAX_BODY_KB", 64, 1) * 1024,
    maxUrlBytes: 8 * 1024,
    shutdownGraceMs: 10_000,
    logLevel: logLevel as LogLevel,
    rateLimits: rateLimits(env),
    // A pending response is never timed out by uWS: a held refusal keeps its connection that long.
    refusalDelayMs: integerSetting(env, "AISLE_RATE_LIMIT_DELAY_MS", 1_000, 0, 10_000),
    publicUrl: publicUrl(env.AISLE_PUBLIC_URL),
    cluster: clusterConfig(env, natsUrl ?? env.AISLE_NATS_URL, eventDays),
  };
  return { ...config, ...stripUndefined(overrides) };
}

/** A period in seconds (1 to a day: timers take at most 2³¹ − 1 ms) as milliseconds, or "off" as null. */
function optionalSeconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number | null {
  if (env[name] === "off") return null;
  return integerSetting(env, name, fallback, 1, 86_400) * 1000;
}

/** nats://host:port, comma-separated, as the NATS client takes a list of servers. */
function clusterConfig(env: NodeJS.ProcessEnv, natsUrl: string | undefined, eventDays: number): ClusterConfig | null {
  if (natsUrl === undefined || natsUrl === "") return null;
  for (const url of natsUrl.split(",")) {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (!parsed || (parsed.protocol !== "nats:" && parsed.protocol !== "tls:") || parsed.hostname === "" || parsed.pathname !== "") {
      throw new ConfigError(`AISLE_NATS_URL (or --nats) must be nats://host:port URLs separated by commas, got "${natsUrl}"`);
    }
  }
  return {
    natsUrl,
    // Each replica is another server's copy: more than 5 only slows every write.
    replicas: integerSetting(env, "AISLE_NATS_REPLICAS", 3, 1, 5),
    // About a second of writes on a busy node: past it, a node answers from a state clients would notice is old.
    maxLag: integerSetting(env, "AISLE_CLUSTER_MAX_LAG", 1_000, 1, 10_000_000),
    snapshotEveryMs: snapshotHours(env, eventDays) * 3_600_000,
  };
}

/**
 * At most half the stream's retention (the event retention): the newest
 * snapshot must still reach the stream's first message when one write of it
 * fails, or a node is restored from the one before.
 */
function snapshotHours(env: NodeJS.ProcessEnv, eventDays: number): number {
  const most = eventDays * 12;
  const hours = integerSetting(env, "AISLE_CLUSTER_SNAPSHOT_HOURS", Math.min(24, most), 1);
  if (hours > most) {
    throw new ConfigError(
      `AISLE_CLUSTER_SNAPSHOT_HOURS must be at most half the event retention (AISLE_EVENT_RETENTION_DAYS ${eventDays}: ${most} hours), ` +
        `got "${env.AISLE_CLUSTER_SNAPSHOT_HOURS}": a snapshot older than the write stream's first message cannot start a node`,
    );
  }
  return hours;
}

function publicUrl(raw: string | undefined): URL | null {
  if (raw === undefined || raw === "") return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.pathname !== "/" || url.search !== "") {
    throw new ConfigError(`AISLE_PUBLIC_URL must be an http or https origin like https://recs.example.com, got "${raw}"`);
  }
  return url;
}

/** `AISLE_RATE_LIMIT_<CLASS>`: "<per second>" (burst twice that), "<per second>/<burst>", or "off". */
function rateLimits(env: NodeJS.ProcessEnv): RateLimits {
  const limits = { ...DEFAULT_RATE_LIMITS };
  for (const rateClass of RATE_CLASSES) {
    const name = `AISLE_RATE_LIMIT_${rateClass.toUpperCase()}`;
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    limits[rateClass] = parseRateLimit(name, raw);
  }
  return limits;
}

function parseRateLimit(name: string, raw: string): RateLimit | null {
  if (raw === "off") return null;
  const match = /^(\d+)(?:\/(\d+))?$/.exec(raw);
  const perSecond = Number(match?.[1]);
  const burst = match?.[2] === undefined ? perSecond * 2 : Number(match[2]);
  if (!match || perSecond < 1 || burst < 1)
    throw new ConfigError(`${name} must be <per second>, <per second>/<burst> or off, got "${raw}"`);
  return { perSecond, burst };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
