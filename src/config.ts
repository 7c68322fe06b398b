// The only reader of process.env. Every setting has a default, so `aisle serve`
// on a fresh machine needs no configuration at all.
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { LOG_LEVELS, type LogLevel } from "./observability/logger.js";
import type { SessionRetention } from "./stores/session-index.js";

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** null: generate one on first start and keep it in the data dir. */
  adminToken: string | null;
  demo: "auto" | "off";
  workers: number;
  poolMaxQueue: number;
  cacheMaxBytes: number;
  /** Age after which cached behaviour-driven lists (trending, top sellers) are recomputed. */
  behaviourCacheTtlMs: number;
  /** What the event applier prunes from viewed-related's session index. */
  sessionRetention: SessionRetention;
  maxBodyBytes: number;
  maxUrlBytes: number;
  shutdownGraceMs: number;
  logLevel: LogLevel;
}

export class ConfigError extends Error {}

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new ConfigError(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const demo = env.AISLE_DEMO ?? "auto";
  if (demo !== "auto" && demo !== "off") throw new ConfigError(`AISLE_DEMO must be auto or off, got "${demo}"`);
  const logLevel = env.AISLE_LOG_LEVEL ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    throw new ConfigError(`AISLE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  const config: Config = {
    host: env.HOST ?? "0.0.0.0",
    port: integerSetting(env, "PORT", 8080, 0),
    dataDir: resolve(env.AISLE_DATA_DIR ?? "./data"),
    adminToken: env.AISLE_ADMIN_TOKEN || null,
    demo,
    // One thread answers HTTP; the pool gets the rest of the machine, at least one.
    workers: integerSetting(env, "AISLE_WORKERS", Math.max(1, availableParallelism() - 1), 1),
    poolMaxQueue: integerSetting(env, "AISLE_POOL_MAX_QUEUE", 2_048, 1),
    cacheMaxBytes: integerSetting(env, "AISLE_CACHE_MB", 256, 0) * 1024 * 1024,
    behaviourCacheTtlMs: integerSetting(env, "AISLE_BEHAVIOUR_CACHE_TTL_S", 300, 0) * 1000,
    sessionRetention: {
      days: integerSetting(env, "AISLE_SESSION_RETENTION_DAYS", 90, 1),
      // Sessions further back than a million count little: the kNN's recency
      // fade weighs them below exp(−1M / 150k) ≈ 0.13% of the newest.
      maxSessions: integerSetting(env, "AISLE_SESSION_CAP", 1_000_000, 1),
    },
    maxBodyBytes: integerSetting(env, "AISLE_MAX_BODY_MB", 32, 1) * 1024 * 1024,
    maxUrlBytes: 8 * 1024,
    shutdownGraceMs: 10_000,
    logLevel: logLevel as LogLevel,
  };
  return { ...config, ...stripUndefined(overrides) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
