// Starts a real `aisle serve` from the build as a child process and reads what
// its start-up says: the demo key, the seed time, startMs and the bound port.
// Cold start is timed from spawn to the first healthz answer, as an operator sees it.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { RATE_CLASSES } from "../../src/core/rate-limit.js";
import { spawnTracked } from "./children.js";
import { startScriptNodeFlags } from "./node-flags.js";
import { remember as keep, type ExitStatus } from "./exit-cause.js";

export interface AisleProcess {
  child: ChildProcess;
  pid: number;
  origin: string;
  apiKey: string;
  adminToken: string;
  /** Demo generation + import, as the banner reports it (NaN when the data dir already held the demo). */
  seedMs: number;
  /** startMs of the "listening" log line: process start work up to listen, seen from inside. */
  startMs: number;
  /** Spawn to the first 200 from /healthz, seen from outside (includes Node boot and the seed). */
  coldStartMs: number;
  /** Last lines of output, for error messages. */
  tail: string[];
  /** Last lines of stderr alone: where a crash (a V8 fatal error, an uncaught exception) is written. */
  stderrTail: string[];
  /** How the process ended, once it has (null while it runs); set after its output is read to the end. */
  exit: ExitStatus | null;
  /** Resolves with the exit status once the process has ended and its streams are closed. */
  exited: Promise<ExitStatus>;
  /** performance.now() at spawn. */
  spawnedAt: number;
  /** The server's own warn and error log lines, and its model-training lines: what it said about itself. */
  notable: string[];
  /** Resolves once the server logs that a merchant's similar-products model is trained (also if it did before the call). */
  untilTrained(merchant: string, timeoutMs: number): Promise<void>;
}

/**
 * Every rate-limit class off: the settings of a server whose runs measure throughput or memory.
 * The default limits (thousands of reads a second per key) would turn such a run into a run of 429s.
 */
export const RATE_LIMITS_OFF: Record<string, string> = Object.fromEntries(
  RATE_CLASSES.map((name) => [`AISLE_RATE_LIMIT_${name.toUpperCase()}`, "off"]),
);

const CLI = fileURLToPath(new URL("../../src/cli.js", import.meta.url));
/** The Node flags `npm start` gives the service: the bench measures it as it is started. */
const START_NODE_FLAGS = startScriptNodeFlags();
const START_TIMEOUT_MS = 120_000;

/** CPU time (user + system, every thread) a process has used so far, in µs, from /proc. */
export function cpuMicros(pid: number): number {
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the line.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / CLOCK_TICKS_PER_SECOND) * 1e6;
}

/** USER_HZ: 100 on Linux builds for every mainstream architecture. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Resident set size of a process in MB (MiB), from /proc; includes every thread, so the worker pool too. */
export function rssMB(pid: number): number {
  return rssPartsMB(pid).total;
}

/**
 * VmRSS and its parts: anonymous memory (heaps, indexes, native buffers) and
 * file-backed pages (LMDB's memory map as far as the process touched it, and
 * ~40 MB of the node binary and libraries), which the kernel can drop and read
 * again under memory pressure.
 */
export function rssPartsMB(pid: number): { total: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => {
    const kb = new RegExp(`${name}:\\s+(\\d+)\\s+kB`).exec(status)?.[1];
    if (kb === undefined) throw new Error(`no ${name} for pid ${pid}`);
    return Number(kb) / 1024;
  };
  return { total: field("VmRSS"), anon: field("RssAnon"), file: field("RssFile") };
}

/**
 * `expectSeed`: the data dir is empty and the start seeds the demo (the default);
 * false: the data dir already holds a merchant with the id "demo" (the scale curve's
 * imported shops), whose key the banner prints all the same.
 * `settings`: more environment for the server (rate limits, cache size), over the bench's own.
 */
export async function startAisle(
  dataDir: string,
  adminToken: string,
  expectSeed = true,
  settings: Record<string, string> = {},
): Promise<AisleProcess> {
  const aisle = await launchAisle(dataDir, adminToken, expectSeed ? "seeds" : "holds", settings);
  if (aisle.apiKey === null) throw new Error(`aisle serve printed no demo API key:\n${aisle.tail.join("\n")}`);
  // Assigned, not spread: a spread would read the `exit` getter once and keep its null for ever.
  return Object.assign(aisle, { apiKey: aisle.apiKey });
}

/**
 * A cluster node (`settings` name its nats-servers): it has no demo, as a node's data
 * comes from the write stream alone; its merchants are created through the admin API.
 */
export function startAisleNode(dataDir: string, adminToken: string, settings: Record<string, string>): Promise<AisleNode> {
  return launchAisle(dataDir, adminToken, "none", settings);
}

/** An `aisle serve` without the demo's figures: a cluster node. */
export type AisleNode = Omit<AisleProcess, "apiKey" | "seedMs">;

/** What the data dir holds of the demo at start: seeded now, held already, or none at all. */
type DemoAtStart = "seeds" | "holds" | "none";

async function launchAisle(
  dataDir: string,
  adminToken: string,
  demo: DemoAtStart,
  settings: Record<string, string>,
): Promise<AisleNode & { apiKey: string | null; seedMs: number }> {
  const spawnedAt = performance.now();
  const child = spawnTracked(process.execPath, [...START_NODE_FLAGS, CLI, "serve"], {
    env: {
      ...process.env,
      // A background tuning takes a core for a while at an unpredictable moment: what a bench measures must not include it.
      AISLE_TUNE_EVERY_S: "off",
      ...settings,
      AISLE_DATA_DIR: dataDir,
      AISLE_ADMIN_TOKEN: adminToken,
      AISLE_DEMO: demo === "none" ? "off" : "auto",
      // Port 0: the kernel picks a free port and the listening line says which, so runs never collide.
      PORT: "0",
      HOST: "127.0.0.1",
    },
  });
  if (child.pid === undefined) throw new Error("could not spawn aisle serve");
  const pid = child.pid;

  const tail: string[] = [];
  const stderrTail: string[] = [];
  const remember = (line: string) => keep(tail, line, 40);
  // 'close', not 'exit': the streams are read to the end, so the tail holds the last words.
  let exit: ExitStatus | null = null;
  const exited = new Promise<ExitStatus>((resolve) =>
    child.once("close", (code: number | null, signal: NodeJS.Signals | null) => {
      exit = { code, signal };
      resolve(exit);
    }),
  );
  // Keep reading both streams for the whole run: a full pipe would block the server's logging.
  createInterface({ input: child.stderr! }).on("line", (line) => {
    remember(line);
    keep(stderrTail, line);
  });
  const stdout = createInterface({ input: child.stdout! });
  const notable: string[] = [];
  const trained = new Set<string>();
  stdout.on("line", (line) => {
    if (/^\{.*"level":"(warn|error|fatal)"/.test(line) || /"message":"[^"]*(trained|training)/.test(line)) keep(notable, line, 100);
    if (line.includes('"similar-products model trained"')) trained.add((JSON.parse(line) as { merchant: string }).merchant);
  });
  const untilTrained = async (merchant: string, timeoutMs: number) => {
    const deadline = performance.now() + timeoutMs;
    while (!trained.has(merchant)) {
      if (exit !== null)
        throw new Error(`aisle serve exited before training the similar-products model of ${merchant}:\n${tail.join("\n")}`);
      if (performance.now() > deadline)
        throw new Error(`aisle serve did not train the similar-products model of ${merchant} within ${timeoutMs} ms:\n${tail.join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  // A server that failed to start is not left running beside the next one.
  const stopAndThrow = (error: unknown): never => {
    child.kill("SIGKILL");
    throw error;
  };
  const banner = await new Promise<{ apiKey: string | null; seedMs: number; port: number; startMs: number }>((resolve, reject) => {
    let apiKey: string | null = null;
    let seedMs: number | null = null;
    const timer = setTimeout(
      () => reject(new Error(`aisle serve did not start within ${START_TIMEOUT_MS} ms:\n${tail.join("\n")}`)),
      START_TIMEOUT_MS,
    );
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`aisle serve exited (${code ?? signal}) before listening:\n${tail.join("\n")}`));
    };
    child.once("exit", onExit);
    stdout.on("line", (line) => {
      remember(line);
      apiKey ??= /demo API key:\s+(pk_\S+)/.exec(line)?.[1] ?? null;
      const seeded = /^Seeded the demo merchant .* in (\d+) ms/.exec(line)?.[1];
      if (seeded !== undefined) seedMs = Number(seeded);
      if (!line.startsWith("{")) return;
      let log: { message?: string; port?: number; startMs?: number };
      try {
        log = JSON.parse(line) as typeof log;
      } catch {
        return;
      }
      if (!log.message?.startsWith("aisle listening on") || log.port === undefined) return;
      clearTimeout(timer);
      child.off("exit", onExit);
      if (demo !== "none" && (apiKey === null || (demo === "seeds" && seedMs === null))) {
        reject(new Error(`aisle serve did not seed the demo (is the data dir empty?):\n${tail.join("\n")}`));
      } else {
        resolve({ apiKey, seedMs: seedMs ?? NaN, port: log.port, startMs: log.startMs ?? NaN });
      }
    });
  }).catch(stopAndThrow);

  const origin = `http://127.0.0.1:${banner.port}`;
  await untilHealthy(origin, child).catch(stopAndThrow);
  const coldStartMs = performance.now() - spawnedAt;
  return {
    child,
    pid,
    origin,
    apiKey: banner.apiKey,
    adminToken,
    seedMs: banner.seedMs,
    startMs: banner.startMs,
    coldStartMs,
    tail,
    stderrTail,
    get exit() {
      return exit;
    },
    exited,
    spawnedAt,
    notable,
    untilTrained,
  };
}

async function untilHealthy(origin: string, child: ChildProcess): Promise<void> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error("aisle serve exited while starting");
    try {
      const response = await fetch(`${origin}/healthz`);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not accepting connections yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${origin}/healthz did not answer 200`);
}
