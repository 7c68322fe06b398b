// wrk (Debian package `wrk`) as the bench's load generator for what the
// autocannon client cannot do: one C thread with epoll posts event URLs far
// faster (autocannon's own ceiling with these POSTs was 11-16k req/s here,
// below the 30k events/s being measured), loads hits and misses without
// holding raw uWS down (the rows marked ", wrk"), floods with hundreds of
// connections, paces a closed loop, and builds a URL per request in Lua. wrk
// has no warm-up, so a measured scenario is two wrk runs: warm-up, then
// measured. The bench looks for wrk and falls back to autocannon for event
// ingest when it is missing.
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { spawnTracked } from "../shared/children.js";
import type { LatencySummaryMs, LoadSettings, WrkFigures } from "../shared/results.js";
import { ROTATION_SCRIPT } from "./wrk-scripts.js";

/** wrk's version line, or null when it is not installed. */
export function findWrk(): string | null {
  const probe = spawnSync("wrk", ["--version"], { encoding: "utf8" });
  if (probe.error) return null;
  // wrk --version prints its banner and exits 1.
  const line = `${probe.stdout}${probe.stderr}`.split("\n").find((l) => l.startsWith("wrk "));
  return line?.split(" [")[0] ?? null;
}

/** The summary line every script of wrk-scripts.ts prints at the end. */
export interface WrkResult {
  requests: number;
  durationUs: number;
  /** Answers with a status of 400 or more. */
  status: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
  meanUs: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
}

export interface WrkProcessSpec {
  origin: string;
  connections: number;
  /** wrk takes whole seconds. */
  durationS: number;
  timeoutS: number;
  /** The Lua script file. */
  script: string;
  /** The script's inputs. */
  env: Record<string, string>;
  /** Called with every line the script prints while it runs. */
  onLine?: (line: string) => void;
  /** Run wrk at this niceness (`nice -n`), so it takes only the CPU the server leaves; absent: the bench's own. */
  niceness?: number;
}

export interface WrkProcess {
  pid: number;
  /** Ends the run now: wrk stops its threads and prints its summary as at the end of its duration. */
  interrupt(): void;
  result: Promise<WrkResult>;
}

/** One wrk process, one thread: the server has one HTTP thread and the machine two cores. */
export function startWrk(spec: WrkProcessSpec): WrkProcess {
  const args = [
    "-t1",
    `-c${spec.connections}`,
    `-d${Math.max(1, Math.round(spec.durationS))}s`,
    "--timeout",
    `${spec.timeoutS}s`,
    "-s",
    spec.script,
    spec.origin,
  ];
  // nice execs wrk in its own process: the pid is wrk's, for its CPU figures.
  const [command, commandArgs] = spec.niceness === undefined ? ["wrk", args] : ["nice", ["-n", String(spec.niceness), "wrk", ...args]];
  const child = spawnTracked(command, commandArgs, { env: { ...process.env, ...spec.env } });
  if (child.pid === undefined) throw new Error("could not spawn wrk");
  let summary: WrkResult | null = null;
  const output: string[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (line.startsWith("WRK_RESULT ")) summary = JSON.parse(line.slice("WRK_RESULT ".length)) as WrkResult;
    else output.push(line);
    spec.onLine?.(line);
  });
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const result = new Promise<WrkResult>((resolve, reject) =>
    child.once("close", (code: number | null) => {
      if (code === 0 && summary !== null) resolve(summary);
      else reject(new Error(`wrk failed (${code}): ${output.join("\n").slice(-1000)}`));
    }),
  );
  return { pid: child.pid, interrupt: () => child.kill("SIGINT"), result };
}

export function latencyOf(run: WrkResult): LatencySummaryMs {
  const ms = (us: number) => us / 1000;
  return {
    count: run.requests,
    mean: ms(run.meanUs),
    p50: ms(run.p50Us),
    p90: ms(run.p90Us),
    p99: ms(run.p99Us),
    p999: ms(run.p999Us),
    max: ms(run.maxUs),
  };
}

/** What a run answered: its requests and rate, failures, and latency. */
export function wrkFigures(run: WrkResult): WrkFigures {
  return {
    requests: run.requests,
    reqPerSec: run.requests / (run.durationUs / 1e6),
    non2xx: run.status,
    socketErrors: run.connect + run.read + run.write + run.timeout,
    latencyMs: latencyOf(run),
  };
}

export interface WrkRotationSpec {
  origin: string;
  /** A file of paths, one per line, sent in turn. */
  pathsFile: string;
  method: "GET" | "POST";
  connections: number;
  durationS: number;
  timeoutS: number;
  /** Each connection waits this long after an answer before its next request (0: none). */
  pauseMs: number;
  /** Where the Lua script is written. */
  scratch: string;
  /** See WrkProcessSpec. */
  niceness?: number;
}

/** A run of ROTATION_SCRIPT. */
export function startRotation(spec: WrkRotationSpec): WrkProcess {
  const script = join(spec.scratch, "wrk-rotation.lua");
  // Written once: rewriting it while a concurrent wrk loads it would hand that one a truncated file.
  if (!existsSync(script)) writeFileSync(script, ROTATION_SCRIPT);
  return startWrk({
    ...spec,
    script,
    env: { AISLE_PATHS: spec.pathsFile, AISLE_METHOD: spec.method, AISLE_PAUSE_MS: String(spec.pauseMs) },
  });
}

export interface WrkSpec extends LoadSettings {
  origin: string;
  pathsFile: string;
  /** Default: POST (event ingest and writes). */
  method?: "GET" | "POST";
  /** Where the Lua script is written. */
  scratch: string;
}

export interface WrkOutcome {
  reqPerSec: number;
  okPerSec: number;
  /** wrk's latency over the measured run (all answers: wrk does not split them by status). */
  latencyMs: LatencySummaryMs;
  /** 2xx answers over warm-up and measured runs together (the stored ≥ acknowledged check). */
  acknowledged: number;
  socketErrors: number;
  timeouts: number;
  non2xx: number;
}

/** The requests of the paths file at full speed (POSTs unless told: event ingest, writes), a warm-up run, then the measured one. */
export async function runWrk(spec: WrkSpec): Promise<WrkOutcome> {
  const once = (durationS: number) => startRotation({ ...spec, durationS, method: spec.method ?? "POST", pauseMs: 0 }).result;
  const warmup = spec.warmupS > 0 ? await once(spec.warmupS) : null;
  const run = await once(spec.durationS);
  const seconds = run.durationUs / 1e6;
  const ok = run.requests - run.status;
  return {
    reqPerSec: run.requests / seconds,
    okPerSec: ok / seconds,
    latencyMs: latencyOf(run),
    acknowledged: ok + (warmup ? warmup.requests - warmup.status : 0),
    socketErrors: run.connect + run.read + run.write + (warmup ? warmup.connect + warmup.read + warmup.write : 0),
    timeouts: run.timeout + (warmup?.timeout ?? 0),
    non2xx: run.status + (warmup?.status ?? 0),
  };
}
