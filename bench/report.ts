// Renders one table: each figure next to its budget and, for throughput, its
// share of the raw-uWS ceiling measured in the same run. Plus the notes a
// reader needs to trust the numbers (how the load was generated, on what).
import { availableParallelism, cpus, loadavg } from "node:os";
import { BUDGETS, describeBudget, verdict, type Budget } from "./budgets.js";
import type { LoadReport, ScenarioResult } from "./load.js";
import type { MicroResult } from "./micro.js";

interface Row {
  figure: string;
  value: string;
  budget: string;
  ceiling: string;
  result: string;
}

const section = (title: string): Row => ({ figure: title, value: "", budget: "", ceiling: "", result: "" });

function judged(budget: Budget, measured: number, prefix = ""): Pick<Row, "budget" | "result"> {
  return { budget: `${prefix}${describeBudget(budget)}`, result: Number.isFinite(measured) ? verdict(budget, measured) : "n/a" };
}

const unjudged = { budget: "—", result: "" };

function us(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} µs`;
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(3)} ms` : "n/a");
const count = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "n/a");

function microRows(results: MicroResult[]): Row[] {
  return results.map((r) => {
    const value = r.error ? `error: ${r.error}` : `p50 ${us(r.p50Us)} · p99 ${us(r.p99Us)} · ${count(r.opsPerSec)} ops/s`;
    const budget = r.name.startsWith("pool round trip") ? judged(BUDGETS.poolRoundTripP50, r.p50Us, "p50 ") : unjudged;
    return { figure: `  ${r.name}`, value, ceiling: "", ...budget };
  });
}

function scenarioRows(s: ScenarioResult, ceilingReqPerSec: number): Row[] {
  const ratio = s.reqPerSec / ceilingReqPerSec;
  const isHit = s.name === "static cache hit";
  const isMiss = s.name.startsWith("static cache miss");
  const faults = s.errors + s.timeouts + s.non2xx;
  const flag = faults > 0 ? ` (${s.errors} errors, ${s.timeouts} timeouts, ${s.non2xx} non-2xx)` : "";
  const throughputBudget = isHit ? judged(BUDGETS.staticHitThroughput, ratio, "req/s ") : unjudged;
  const latencyBudget = isHit ? judged(BUDGETS.staticHitP99, s.latencyMs.p99, "p99 ") : isMiss ? judged(BUDGETS.staticMissP99, s.latencyMs.p99, "p99 ") : unjudged;
  return [
    {
      figure: `  ${s.name}: req/s`,
      value: count(s.reqPerSec) + flag,
      ceiling: s.target === "aisle" ? `${ratio.toFixed(ratio < 0.1 ? 4 : 2)}×` : "",
      ...throughputBudget,
      result: faults > 0 ? "invalid" : throughputBudget.result,
    },
    {
      figure: `  ${s.name}: latency p50 / p99`,
      value: `${ms(s.latencyMs.p50)} / ${ms(s.latencyMs.p99)}`,
      ceiling: "",
      ...latencyBudget,
      result: faults > 0 && latencyBudget.result ? "invalid" : latencyBudget.result,
    },
  ];
}

function serviceRows(load: LoadReport): Row[] {
  const { service } = load;
  return [
    { figure: "  demo seed (generate + import, banner)", value: `${(service.seedMs / 1000).toFixed(2)} s`, ceiling: "", ...judged(BUDGETS.demoSeed, service.seedMs / 1000) },
    { figure: "  start-up inside the process (startMs)", value: `${(service.startMs / 1000).toFixed(2)} s`, ceiling: "", ...unjudged },
    { figure: "  cold start (spawn → healthz 200)", value: `${(service.coldStartMs / 1000).toFixed(2)} s`, ceiling: "", ...judged(BUDGETS.coldStart, service.coldStartMs / 1000) },
    { figure: "  RSS after start", value: `${service.rssAfterStartMB.toFixed(0)} MB`, ceiling: "", ...judged(BUDGETS.rssAfterStart, service.rssAfterStartMB) },
    { figure: "  RSS after load", value: `${service.rssAfterLoadMB.toFixed(0)} MB`, ceiling: "", ...unjudged },
  ];
}

function render(rows: Row[]): string {
  const header: Row = { figure: "figure", value: "value", budget: "budget", ceiling: "vs ceiling", result: "result" };
  const columns = ["figure", "value", "budget", "ceiling", "result"] as const;
  const all = [header, ...rows];
  const widths = columns.map((c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r: Row) => columns.map((c, i) => r[c].padEnd(widths[i]!)).join("  ").trimEnd();
  const rule = widths.map((w) => "─".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/**
 * Closed-loop load saturates the cores, so latency there is mostly queueing:
 * say so when even the ceiling misses the cache-hit latency budget.
 */
function ceilingLatencyNote(load: LoadReport): string[] {
  const worst = Math.max(...load.scenarios.filter((s) => s.target === "ceiling").map((s) => s.latencyMs.p99));
  if (!(worst > BUDGETS.staticHitP99.limit)) return [];
  return [
    `  Note: the raw-uWS ceiling itself has a p99 of ${ms(worst)} here, over the ${describeBudget(BUDGETS.staticHitP99)} cache-hit budget: at saturation on shared cores, latency is mostly queueing behind the load generator.`,
  ];
}

function faultNote(load: LoadReport): string[] {
  const faulty = load.scenarios.filter((s) => s.errors + s.timeouts + s.non2xx > 0);
  if (faulty.length === 0) return [];
  return [
    `  "invalid": ${faulty.map((s) => s.name).join("; ")} had requests that failed or got no answer within ${load.settings.timeoutS} s; its figures cover only the answered requests, so they flatter the server.`,
  ];
}

export interface ReportInput {
  quick: boolean;
  /** 1-minute load average when the bench started: other work on the box skews every figure. */
  loadAtStart: number;
  micro: MicroResult[] | null;
  load: LoadReport | null;
  errors: string[];
}

export function formatReport({ quick, loadAtStart, micro, load, errors }: ReportInput): string {
  const cores = availableParallelism();
  const rows: Row[] = [];
  if (micro) rows.push(section("micro (tinybench, in the bench process)"), ...microRows(micro));
  if (load) {
    rows.push(section("load (autocannon in its own process, loopback)"));
    for (const s of load.scenarios) rows.push(...scenarioRows(s, load.ceilingReqPerSec));
    rows.push(section("service"), ...serviceRows(load));
  }

  const out = [
    "",
    `aisle bench${quick ? " (--quick)" : ""} — Node ${process.version}, ${cores} CPUs (${cpus()[0]?.model.trim() ?? "unknown"}), 1-min load average ${loadAtStart.toFixed(2)} at start, ${(loadavg()[0] ?? NaN).toFixed(2)} at report`,
    "",
    render(rows),
    "",
  ];
  if (load) {
    const { connections, durationS, warmupS, timeoutS } = load.settings;
    const ceilings = load.scenarios.filter((s) => s.target === "ceiling").map((s) => count(s.reqPerSec));
    out.push(
      `Load generator: autocannon 8 in a separate Node process per scenario (never in the server's process), ${connections} connections, HTTP/1.1 keep-alive, no pipelining, ${warmupS} s warm-up then ${durationS} s measured, ${timeoutS} s request timeout.`,
      `  Server, ceiling and load generator all run on the same ${cores} cores over 127.0.0.1, so every req/s figure is partly the client's limit: compare ratios, not absolutes.`,
      `Ceiling: a raw uWebSockets.js process answering the same ${count(load.hitBodyBytes)}-byte static cache-hit body with aisle's headers; "vs ceiling" = aisle req/s ÷ mean of the ceiling runs before and after (${ceilings.join(" and ")} req/s).`,
      "Latency: each 2xx response's duration at 1 µs resolution (autocannon's own histogram keeps whole milliseconds).",
      ...ceilingLatencyNote(load),
      ...faultNote(load),
      "Cache miss: bust_cache=yes forces a recompute in the worker pool, over 64 different sets of 5 ids. Cache hit: one URL, 5 products, full projection.",
      "Cold start: spawn of `aisle serve` on an empty data dir until /healthz answers 200, so it includes Node start-up and the demo seed. RSS: VmRSS of the server process (all threads), MiB.",
    );
  }
  if (micro) out.push("Micro: tinybench 6, hrtime timestamps, p50/p99 of per-call samples; ops/s = 1 / mean time per call.");
  for (const error of errors) out.push(`NOT MEASURED: ${error}`);
  out.push("Benchmarks are not tests: over-budget figures are reported, and the exit code stays 0.", "");
  return out.join("\n");
}
