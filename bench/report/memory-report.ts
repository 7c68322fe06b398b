// The memory suite's report: each run's series of samples as a table, and
// whether its anonymous RSS levelled off by the plateau rule, with the numbers
// the verdict is made of whatever it says.
import type { MemoryReport, MemoryRun, MemorySample } from "../shared/results.js";
import { count, machineLine, renderTable } from "./format.js";

const mb = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} MB` : "n/a");

export interface Plateau {
  from: MemorySample;
  to: MemorySample;
  /** Anonymous RSS growth over the window, as a share of where it started. */
  growth: number;
  plateaus: boolean;
}

/**
 * The plateau rule: anonymous RSS grew by less than `maxGrowth` over the last
 * `window` requests, from the sample at total − window to the last one. Null
 * when the run has no sample at either end.
 */
export function plateauOf(samples: readonly MemorySample[], total: number, window: number, maxGrowth: number): Plateau | null {
  const from = samples.find((s) => s.requests === total - window);
  const to = samples.find((s) => s.requests === total);
  if (from === undefined || to === undefined) return null;
  const growth = (to.anonMB - from.anonMB) / from.anonMB;
  return { from, to, growth, plateaus: growth < maxGrowth };
}

const percent = (share: number) => `${share >= 0 ? "+" : ""}${(share * 100).toFixed(1)}%`;

function sampleRow(label: string, s: MemorySample): string[] {
  return [
    label,
    `${s.atS.toFixed(1)} s`,
    mb(s.anonMB),
    mb(s.fileMB),
    `${mb(s.httpHeapMB)} / ${mb(s.httpExternalMB)}`,
    mb(s.anonMB - s.httpHeapMB - s.httpExternalMB),
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
          "anon beyond the HTTP thread's",
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
  if (plateau && first) {
    out.push(
      `  plateau: anonymous RSS ${mb(plateau.from.anonMB)} at ${count(plateau.from.requests)} → ${mb(plateau.to.anonMB)} at ${count(plateau.to.requests)} (${percent(plateau.growth)}): ${plateau.plateaus ? "plateaus" : "DOES NOT PLATEAU"}; over the whole run ${mb(first.anonMB)} → ${mb(plateau.to.anonMB)} (${percent((plateau.to.anonMB - first.anonMB) / first.anonMB)})`,
    );
  } else out.push("  plateau: not measured (the run has no sample at one end of the window)");
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
      `Plateau: anonymous RSS grew by less than ${(report.plateauGrowth * 100).toFixed(0)}% over the last ${count(report.plateauWindow)} of the ${count(report.total)} requests (the sample at ${count(report.total - report.plateauWindow)} against the last).`,
      `Runs: each on a fresh \`aisle serve\` of the demo (seeded into an empty data dir, sampled from after its similar-products model is trained), every AISLE_RATE_LIMIT_<CLASS>=off; ${settings}. Load: one ${report.generator} process, 1 thread, building each request in Lua, on the same cores as the server; a probe of a few hundred requests outside the run's own range checks they are answered 2xx first.`,
      `Samples: the server's /proc/<pid>/status at 0 and every ${count(report.every)} requests sent, while the load runs (answers lag by at most the connections): RssAnon (V8 heaps of every thread, the response cache, native buffers) and RssFile (pages of the LMDB map the process touched, and ~40 MB of the node binary and libraries, which the kernel may drop and read again), then /metrics for the HTTP thread's V8 heap (committed) and external memory (array buffers, the response cache's bodies among them), the response cache's bytes and the events acknowledged but not yet applied (held on the HTTP thread until the applier has them). "Anon beyond the HTTP thread's" is anon RSS less that heap and external memory: the pool workers' and the applier's heaps, thread stacks and native allocations (LMDB's, uWS's). "idle after": once every event is applied, ${report.idleS} s after the load.`,
    );
  }
  for (const error of errors) out.push(`NOT MEASURED: ${error}`);
  out.push("Benchmarks are not tests: figures are reported as measured, and the exit code stays 0.", "");
  return out.join("\n");
}
