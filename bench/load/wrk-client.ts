// Event ingest under wrk (Debian package `wrk`): one C thread with epoll posts
// the event URLs far faster than the autocannon client, whose own ceiling with
// these POSTs was 11-16k req/s here, below the 30k events/s being measured.
// wrk has no warm-up, so a scenario is two wrk runs: warm-up, then measured.
// The bench looks for wrk and falls back to autocannon when it is missing.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { outputOf, spawnTracked } from "../shared/children.js";
import type { LatencySummaryMs, LoadSettings } from "../shared/results.js";

/**
 * Posts the paths of the file in $AISLE_PATHS in turn (each request takes the
 * next; one thread, so one rotation), built once in init. done() prints one
 * JSON line; non-2xx/3xx answers are summary.errors.status, so 2xx = requests
 * minus those. No response() callback: defining one makes wrk parse every
 * answer in Lua and slows it down several times.
 */
const POST_SCRIPT = `
local requests = {}
local next = 0
function init(args)
  for line in io.lines(os.getenv("AISLE_PATHS")) do
    if #line > 0 then requests[#requests + 1] = wrk.format("POST", line) end
  end
  if #requests == 0 then error("no paths in " .. os.getenv("AISLE_PATHS")) end
end
function request()
  next = next % #requests + 1
  return requests[next]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_RESULT {"requests":%d,"durationUs":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"meanUs":%f,"p50Us":%d,"p90Us":%d,"p99Us":%d,"p999Us":%d,"maxUs":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout, latency.mean,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max))
end
`;

/** wrk's version line, or null when it is not installed. */
export function findWrk(): string | null {
  const probe = spawnSync("wrk", ["--version"], { encoding: "utf8" });
  if (probe.error) return null;
  // wrk --version prints its banner and exits 1.
  const line = `${probe.stdout}${probe.stderr}`.split("\n").find((l) => l.startsWith("wrk "));
  return line?.split(" [")[0] ?? null;
}

export interface WrkSpec extends LoadSettings {
  origin: string;
  pathsFile: string;
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

interface WrkResult {
  requests: number;
  durationUs: number;
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

async function runOnce(spec: WrkSpec, script: string, seconds: number): Promise<WrkResult> {
  // One thread: the server has one uWS thread and the machine two cores. wrk takes whole seconds.
  const args = [
    "-t1",
    `-c${spec.connections}`,
    `-d${Math.max(1, Math.round(seconds))}s`,
    `--timeout`,
    `${spec.timeoutS}s`,
    "-s",
    script,
    spec.origin,
  ];
  const child = spawnTracked("wrk", args, { env: { ...process.env, AISLE_PATHS: spec.pathsFile } });
  const { code, stdout, stderr } = await outputOf(child);
  const line = stdout.split("\n").find((l) => l.startsWith("WRK_RESULT "));
  if (code !== 0 || line === undefined) throw new Error(`wrk failed (${code}): ${(stderr || stdout).slice(-1000)}`);
  return JSON.parse(line.slice("WRK_RESULT ".length)) as WrkResult;
}

export async function runWrk(spec: WrkSpec): Promise<WrkOutcome> {
  const script = join(spec.scratch, "wrk-post.lua");
  writeFileSync(script, POST_SCRIPT);
  const warmup = spec.warmupS > 0 ? await runOnce(spec, script, spec.warmupS) : null;
  const run = await runOnce(spec, script, spec.durationS);
  const seconds = run.durationUs / 1e6;
  const ok = run.requests - run.status;
  const ms = (us: number) => us / 1000;
  return {
    reqPerSec: run.requests / seconds,
    okPerSec: ok / seconds,
    latencyMs: {
      count: run.requests,
      mean: ms(run.meanUs),
      p50: ms(run.p50Us),
      p90: ms(run.p90Us),
      p99: ms(run.p99Us),
      p999: ms(run.p999Us),
      max: ms(run.maxUs),
    },
    acknowledged: ok + (warmup ? warmup.requests - warmup.status : 0),
    socketErrors: run.connect + run.read + run.write + (warmup ? warmup.connect + warmup.read + warmup.write : 0),
    timeouts: run.timeout + (warmup?.timeout ?? 0),
    non2xx: run.status + (warmup?.status ?? 0),
  };
}
