// How the in-process suites (micro.ts, hot-ops.ts, ranking.ts, search.ts,
// similar.ts) time their calls and turn the timings into MicroResults: the
// tinybench settings, a bench whose rows carry their budgets, and summaries of
// tinybench tasks or of samples timed by hand.
import { Bench, type Task } from "tinybench";
import type { MicroResult } from "../shared/results.js";

export interface SuiteTiming {
  /** Measured time per task, ms (tinybench `time`). */
  timeMs: number;
  warmupMs: number;
}

export function suiteTiming(quick: boolean): SuiteTiming {
  return quick ? { timeMs: 200, warmupMs: 50 } : { timeMs: 1_500, warmupMs: 300 };
}

/** A tinybench bench whose rows may each name the budget(s) they are judged against. */
export interface JudgedBench {
  add(name: string, fn: () => unknown, budget?: MicroResult["budget"]): void;
  /** Runs every row, one after another, and summarises each with its budget. */
  run(): Promise<MicroResult[]>;
}

export function judgedBench(timing: SuiteTiming): JudgedBench {
  // At least 64 samples even when a call takes tens of milliseconds, so p99 means something.
  const bench = new Bench({ time: timing.timeMs, warmupTime: timing.warmupMs, iterations: 64, timestampProvider: "hrtimeNow" });
  const budgets = new Map<string, MicroResult["budget"]>();
  return {
    add(name, fn, budget) {
      bench.add(name, fn);
      if (budget) budgets.set(name, budget);
    },
    async run() {
      await bench.run();
      return bench.tasks.map((task) => summarise(task, budgets.get(task.name)));
    },
  };
}

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
