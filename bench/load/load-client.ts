// The load generator, always run as its own process: in the server's process it
// would steal the event loop it is measuring. One scenario per invocation: one
// autocannon run of warm-up + measured seconds, recording only the responses
// that arrive after the warm-up (one run, not two: each autocannon run costs
// about half a second of start and stop on top of its duration).
//
// usage: node dist/bench/load/load-client.js '<LoadSpec as JSON>'
// prints: one JSON line, a LoadClientOutput.
import autocannon from "autocannon";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { LatencySummaryMs, LoadSettings } from "../shared/results.js";
import { runAsClientProcess } from "../shared/client-process.js";
import { MicrosecondHistogram } from "./microsecond-histogram.js";
import { methodAndPath } from "./request-line.js";

/** What one client process runs: the settings (connections, seconds, timeout) and the requests. */
export interface LoadSpec extends LoadSettings {
  /** Origin, e.g. http://127.0.0.1:8080. */
  origin: string;
  /** Paths with query, each optionally prefixed by its method ("POST /…"); several are cycled through by every connection. */
  paths: string[];
  /**
   * A file of paths, one per line, used instead of `paths`: the spec travels as one
   * argv string, which Linux caps at 128 KiB, so thousands of paths go by file.
   */
  pathsFile?: string;
  /** GET unless told; a POST carries its parameters in the query and no body. */
  method?: "GET" | "POST";
  /**
   * "per-connection" (default, autocannon's own): every connection cycles through
   * the paths from the first, so all connections send the same sequence.
   * "shared": one rotation for the whole client, each request takes the next path
   * whatever its connection, so concurrent requests carry different paths (and
   * each connection is not handed its own deep copy of thousands of requests).
   */
  rotation?: "per-connection" | "shared";
}

export interface LoadClientOutput {
  spec: LoadSpec;
  /**
   * autocannon's own result, warm-up included (its errors, timeouts and non-2xx
   * counts cover the whole run); its latency histogram has whole-millisecond resolution.
   */
  autocannon: autocannon.Result;
  /** Responses (any status) per second over the measured part only. */
  reqPerSec: number;
  /** 2xx responses per second over the measured part only. */
  okPerSec: number;
  /** Latency of 2xx responses at 1 µs resolution, recorded from autocannon's per-response event. */
  latencyMs: LatencySummaryMs;
}

function pathsOf(spec: LoadSpec): string[] {
  const paths =
    spec.pathsFile === undefined
      ? spec.paths
      : readFileSync(spec.pathsFile, "utf8")
          .split("\n")
          .filter((line) => line !== "");
  if (paths.length === 0) throw new Error("no paths to request");
  return paths;
}

function options(spec: LoadSpec, durationS: number): autocannon.Options {
  const base = { connections: spec.connections, duration: durationS, timeout: spec.timeoutS };
  const requests = pathsOf(spec).map((line) => methodAndPath(line, spec.method ?? "GET"));
  if (spec.rotation === "shared") {
    // One request whose path is set each time it is built (autocannon rebuilds a
    // request with setupRequest before every send); the counter is this process's.
    let next = 0;
    const setupRequest = (request: autocannon.Request): autocannon.Request => ({ ...request, ...requests[next++ % requests.length]! });
    return { ...base, url: spec.origin, requests: [{ method: requests[0]!.method, setupRequest }] };
  }
  if (requests.length === 1) return { ...base, url: `${spec.origin}${requests[0]!.path}`, method: requests[0]!.method };
  return { ...base, url: spec.origin, requests };
}

interface Measured {
  result: autocannon.Result;
  reqPerSec: number;
  okPerSec: number;
}

/** Runs warm-up + duration; responses count only from the end of the warm-up to the end of the run. */
function run(spec: LoadSpec, histogram: MicrosecondHistogram): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const measuredFrom = startedAt + spec.warmupS * 1000;
    // autocannon stops sending at the end of its duration; answers still in flight then are not counted.
    const measuredTo = measuredFrom + spec.durationS * 1000;
    let responses = 0;
    let ok = 0;
    const instance = autocannon(options(spec, spec.warmupS + spec.durationS), (error, result) => {
      if (error) {
        reject(error);
        return;
      }
      const seconds = (Math.min(measuredTo, performance.now()) - measuredFrom) / 1000;
      resolve({ result, reqPerSec: responses / seconds, okPerSec: ok / seconds });
    });
    instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
      const now = performance.now();
      if (now < measuredFrom || now > measuredTo) return;
      responses++;
      if (statusCode >= 200 && statusCode < 300) {
        ok++;
        histogram.record(responseTimeMs);
      }
    });
  });
}

runAsClientProcess(async (spec: LoadSpec): Promise<LoadClientOutput> => {
  const histogram = new MicrosecondHistogram();
  const { result, reqPerSec, okPerSec } = await run(spec, histogram);
  return { spec, autocannon: result, reqPerSec, okPerSec, latencyMs: histogram.summary() };
});
