// The memory suite's report: each run's series of samples as a table, and
// whether its anonymous RSS levelled off by the plateau rule, with the numbers
// the verdict is made of whatever it says.
import type { MemoryReport, MemoryRun, MemorySample } from "../shared/results.js";
import { count, machineLine, renderTable } from "./format.js";

const mb = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} MB` : "n/a");

/** The lowest anonymous RSS sampled over a span of requests, and where. */
export interface Floor {
  anonMB: number;
  requests: number;
  /** The span: samples after `after` requests, up to and with `upTo`. */
  after: number;
  upTo: number;
}

export interface Plateau {
  before: Floor;
  last: Floor;
  /** The last window's floor above the one before, as a share of the one before. */
  growth: number;
  plateaus: boolean;
}

function floorOf(samples: readonly MemorySample[], after: number, upTo: number): Floor | null {
  let lowest: MemorySample | null = null;
  for (const s of samples) if (s.requests > after && s.requests <= upTo && (lowest === null || s.anonMB < lowest.anonMB)) lowest = s;
  return lowest === null ? null : { anonMB: lowest.anonMB, requests: lowest.requests, after, upTo };
}

/**
 * The plateau rule: the lowest anonymous RSS sampled over the last `window`
 * requests is less than `maxGrowth` above the lowest over the `window` before
 * them. A heap swings between collections (the HTTP thread's by 80 MB under
 * event ingest), so two single samples compare wherever collections fell;
 * the lowest of several is what each window kept after them, and memory that
 * is really retained raises it. Null when the run has no sample in either
 * window or none at `total` (cut short).
 */
export function plateauOf(samples: readonly MemorySample[], total: number, window: number, maxGrowth: number): Plateau | null {
  if (!samples.some((s) => s.requests === total)) return null;
  const before = floorOf(samples, total - 2 * window, total - window);
  const last = floorOf(samples, total - window, total);
  if (before === null || last === null) return null;
  const growth = (last.anonMB - before.anonMB) / before.anonMB;
  return { before, last, growth, plateaus: growth < maxGrowth };
}

const percent = (share: number) => `${share >= 0 ? "+" : ""}${(share * 100).toFixed(1)}%`;

function sampleRow(label: string, s: MemorySample): string[] {
  return [
    label,
    `${s.atS.toFixed(1)} s`,
    mb(s.anonMB),
    mb(s.fileMB),
    `${mb(s.httpHeapMB)} / ${mb(s.httpExternalMB)}`,
    `${mb(s.workersHeapUsedMB)} / ${mb(s.workersHeapMB)} / ${mb(s.workersExternalMB)}`,
    mb(s.anonMB - s.httpHeapMB - s.httpExternalMB - s.workersHeapMB - s.workersExternalMB),
    mb(s.cacheMB),
    count(s.unappliedEvents),
  ];
}

function runSection(run: MemoryRun, report: MemoryReport, letter: string): string[] {
  const title = `(${letter}) ${count(report.total)} ${run.name}, ${run.connections} connections`;
  const out = [title];
  if (run.samples.length > 0) {
    const rows = run.samples.map((s) => sampleRow(count(s.requests), s));
    if (run.idle) rows.push(sampleRow("idle after", run.idle));
    out.push(
      renderTable(
        [
          "requests sent",
          "at",
          "anon RSS",
          "file RSS",
          "HTTP thread: V8 heap / external",
          "pool workers: V8 heap used / committed / external",
          "anon beyond those",
          "response cache",
          "events unapplied",
        ],
        rows,
      ),
    );
  }
  if (run.answered) {
    const a = run.answered;
    out.push(
      `  answered: ${count(a.requests)} at ${count(a.reqPerSec)} req/s, latency p50 ${a.latencyMs.p50.toFixed(2)} ms / p99 ${a.latencyMs.p99.toFixed(2)} ms; ${count(a.non2xx)} non-2xx, ${count(a.socketErrors)} socket errors or timeouts`,
    );
  }
  if (run.cacheLookups)
    out.push(`  response-cache lookups during the load: ${count(run.cacheLookups.hits)} hits, ${count(run.cacheLookups.misses)} misses`);
  const plateau = plateauOf(run.samples, report.total, report.plateauWindow, report.plateauGrowth);
  const first = run.samples[0];
  const last = run.samples.at(-1);
  const floor = (f: Floor) => `lowest over ${count(f.after)}-${count(f.upTo)}: ${mb(f.anonMB)} (at ${count(f.requests)})`;
  if (plateau && first && last) {
    out.push(
      `  plateau: anonymous RSS ${floor(plateau.before)} → ${floor(plateau.last)} (${percent(plateau.growth)}): ${plateau.plateaus ? "plateaus" : "DOES NOT PLATEAU"}; over the whole run ${mb(first.anonMB)} → ${mb(last.anonMB)} (${percent((last.anonMB - first.anonMB) / first.anonMB)})`,
    );
  } else out.push("  plateau: not measured (the run has no sample in one of the two windows, or none at its end)");
  out.push(`  requests: ${run.requestShape}`);
  if (run.error) out.push(`  NOT MEASURED in full: ${run.error}`);
  return out;
}

export function formatMemoryReport(report: MemoryReport | null, loadAtStart: number, quick: boolean, errors: string[]): string {
  const out = ["", machineLine(`aisle bench --memory${quick ? " --quick" : ""}`, loadAtStart), ""];
  if (report !== null) {
    const letters = "abc";
    report.runs.forEach((run, i) => out.push(...runSection(run, report, letters[i] ?? String(i + 1)), ""));
    const settings = Object.entries(report.settings)
      .map(([name, value]) => `${name} ${value}`)
      .join(", ");
    out.push(
      `Plateau: the lowest anonymous RSS sampled over the last ${count(report.plateauWindow)} of the ${count(report.total)} requests is less than ${(report.plateauGrowth * 100).toFixed(0)}% above the lowest over the ${count(report.plateauWindow)} before them. Heaps swing between collections (a sample can fall just before or after one), so single samples compare wherever collections fell; the lowest of each window's samples is what it kept after them, and retained memory raises it.`,
      `Runs: each on a fresh \`aisle serve\` of the demo (seeded into an empty data dir, sampled from after its similar-products model is trained), AISLE_TUNE_EVERY_S=off as in every bench, every AISLE_RATE_LIMIT_<CLASS>=off; ${settings}. Load: one ${report.generator} process, 1 thread, building each request in Lua, on the same cores as the server; a probe of a few hundred requests outside the run's own range checks they are answered 2xx first.`,
      `Samples: the server's /proc/<pid>/status at 0 and every ${count(report.every)} requests sent, while the load runs (answers lag by at most the connections): RssAnon (V8 heaps of every thread, the response cache, native buffers) and RssFile (pages of the LMDB map the process touched, and ~40 MB of the node binary and libraries, which the kernel may drop and read again), then /metrics for the HTTP thread's V8 heap (committed) and external memory (array buffers, the response cache's bodies among them), the response cache's bytes and the events acknowledged but not yet applied (held on the HTTP thread until the applier has them), and the pool workers' V8 heaps (in use, and committed) and external memory, added up, as each worker last reported them after a task (at most a second before). "Anon beyond those" is anon RSS less the HTTP thread's and the workers' committed heaps and external memory: the event applier's heap, thread stacks, V8's code and metadata outside the heaps, and native allocations (LMDB's, uWS's, the allocator's free lists). "idle after": once every event is applied, ${report.idleS} s after the load.`,
    );
  }
  for (const error of errors) out.push(`NOT MEASURED: ${error}`);
  out.push("Benchmarks are not tests: figures are reported as measured, and the exit code stays 0.", "");
  return out.join("\n");
}
