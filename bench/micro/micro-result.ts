// Turns timings into MicroResults, for every in-process suite (micro.ts,
// hot-ops.ts, ranking.ts, search.ts, similar.ts): a tinybench task's summary,
// or samples timed by hand.
import type { Task } from "tinybench";
import type { MicroResult } from "../shared/results.js";

export function summarise(task: Task, budget?: MicroResult["budget"]): MicroResult {
  const result = task.result;
  const judged = budget ? { budget } : {};
  if (result.state === "errored")
    return { name: task.name, p50Us: NaN, p99Us: NaN, opsPerSec: NaN, samples: 0, error: String(result.error), ...judged };
  if (result.state !== "completed" && result.state !== "aborted-with-statistics") {
    return { name: task.name, p50Us: NaN, p99Us: NaN, opsPerSec: NaN, samples: 0, error: result.state, ...judged };
  }
  return {
    name: task.name,
    p50Us: result.latency.p50 * 1000,
    p99Us: result.latency.p99 * 1000,
    // Mean period rather than mean of per-sample rates: the latter overweights the fastest samples.
    opsPerSec: 1000 / result.period,
    samples: result.latency.samplesCount,
    ...judged,
  };
}

/** A result from samples timed by hand (one pass over a replay, or a few long runs), in µs. */
export function fromSamples(name: string, samplesUs: readonly number[], budget?: MicroResult["budget"]): MicroResult {
  const sorted = Float64Array.from(samplesUs).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length);
  return { name, p50Us: at(0.5), p99Us: at(0.99), opsPerSec: 1e6 / mean, samples: sorted.length, ...(budget ? { budget } : {}) };
}
