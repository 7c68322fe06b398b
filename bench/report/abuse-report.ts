// The abuse suite's report: key B's latency alone and under key A's floods, a
// column per phase, the floods' refusals and where the CPU went, then the
// headline ratios and how to read them.
import { availableParallelism } from "node:os";
import type { AbusePhase, AbuseReport, WrkFigures } from "../shared/results.js";
import { count, machineLine, ms, renderTable } from "./format.js";

const cores = (value: number | null) => (value === null ? "—" : Number.isFinite(value) ? `${value.toFixed(2)} cores` : "n/a");
const share = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : "n/a");

function faults(f: WrkFigures): string {
  return f.non2xx + f.socketErrors === 0 ? "none" : `${count(f.non2xx)} non-2xx, ${count(f.socketErrors)} socket errors or timeouts`;
}

function keyBRows(label: string, phases: AbusePhase[], of: (phase: AbusePhase) => WrkFigures): string[][] {
  return [
    [label],
    ["  req/s", ...phases.map((p) => count(of(p).reqPerSec))],
    ["  latency p50 / p99", ...phases.map((p) => `${ms(of(p).latencyMs.p50)} / ${ms(of(p).latencyMs.p99)}`)],
    ["  latency max", ...phases.map((p) => ms(of(p).latencyMs.max))],
    ["  refused or failed", ...phases.map((p) => faults(of(p)))],
  ];
}

function floodRows(report: AbuseReport): string[][] {
  const cells = (cell: (flood: NonNullable<AbusePhase["flood"]>) => string) => report.phases.map((p) => (p.flood ? cell(p.flood) : "—"));
  const { keyA, productReadsLimit } = report;
  return [
    [`key A's flood (${keyA.connections} connections, lists of the "${keyA.merchant}" shop, over its whole run)`],
    ["  URLs it cycles through", ...cells((f) => count(f.urls))],
    ["  req/s answered", ...cells((f) => count(f.reqPerSec))],
    [
      `  2xx/s (its limit: ${count(productReadsLimit.perSecond)}/s, bursts of ${count(productReadsLimit.burst)})`,
      ...cells((f) => count(((f.requests - f.non2xx) / f.requests) * f.reqPerSec)),
    ],
    ["  refused (non-2xx), share of its answers", ...cells((f) => `${count(f.non2xx)} (${share(f.non2xx, f.requests)})`)],
    ["  429s counted by the server meanwhile", ...cells((f) => count(f.tooManyRequests))],
    ["  socket errors or timeouts", ...cells((f) => count(f.socketErrors))],
  ];
}

function cpuRows(phases: AbusePhase[]): string[][] {
  return [
    [`CPU over key B's measured seconds (the machine has ${availableParallelism()} cores)`],
    ["  aisle serve (every thread)", ...phases.map((p) => cores(p.cpu.server))],
    ["  key A's wrk", ...phases.map((p) => cores(p.cpu.floodGenerator))],
    ["  the whole machine (these, key B's wrk processes, anything else running)", ...phases.map((p) => cores(p.cpu.machine))],
  ];
}

/** Each flood's p99 ÷ the mean of the p99s alone before and after: the drift between the two shows beside it. */
function headline(report: AbuseReport, label: string, of: (phase: AbusePhase) => WrkFigures): string[] {
  const before = report.phases.at(0);
  const after = report.phases.at(-1);
  const floods = report.phases.filter((p) => p.flood !== null);
  if (!before || !after || before.flood !== null || after.flood !== null || floods.length === 0) return [`  ${label}: not measured`];
  const alone = (of(before).latencyMs.p99 + of(after).latencyMs.p99) / 2;
  return [
    `  ${label}: ${ms(alone)} alone (${ms(of(before).latencyMs.p99)} before, ${ms(of(after).latencyMs.p99)} after)`,
    ...floods.map((p) => `    vs ${ms(of(p).latencyMs.p99)} while ${p.name}: ${(of(p).latencyMs.p99 / alone).toFixed(2)}×`),
  ];
}

export function formatAbuseReport(report: AbuseReport | null, loadAtStart: number, quick: boolean, errors: string[]): string {
  const out = ["", machineLine(`aisle bench --abuse${quick ? " --quick" : ""}`, loadAtStart), ""];
  if (report !== null) {
    const { keyB, keyA, timing, productReadsLimit } = report;
    const cachedLabel = `key B, recommended answered from the cache (${keyB.cachedUrls} URLs)`;
    const uncachedLabel = `key B, recommended with bust_cache: a pool task each (${keyB.uncachedUrls} URLs)`;
    out.push(
      "key B p99 alone vs under a flood by key A",
      ...headline(report, cachedLabel, (p) => p.cached),
      ...headline(report, uncachedLabel, (p) => p.uncached),
      "",
      renderTable(
        ["figure", ...report.phases.map((p) => p.name)],
        [
          ...keyBRows(cachedLabel, report.phases, (p) => p.cached),
          ...keyBRows(uncachedLabel, report.phases, (p) => p.uncached),
          ...floodRows(report),
          ...cpuRows(report.phases),
        ],
      ),
      "",
      `Server: one \`aisle serve\` on a fresh data dir (the demo seeded, its similar-products model trained before any load, background tuning off as in every bench: AISLE_TUNE_EVERY_S=off), every key limited by AISLE_RATE_LIMIT_PRODUCT_READS=${productReadsLimit.perSecond}/${productReadsLimit.burst} (per second / burst), each 429 held a second before it is written (AISLE_RATE_LIMIT_DELAY_MS=1000, the default). Key B is the demo's key; key A a second merchant created through the admin API with ${keyA.products} products.`,
      `Key B: two ${report.generator} processes (1 thread each), one per row group, ${keyB.connectionsPerLoad} connections each, every connection pausing ${keyB.pauseMs} ms after each answer (a closed loop of a few hundred req/s in all, under B's own limit); ${timing.warmupS} s warm-up then ${timing.measuredS} s measured, per phase. Cached: recommendations for products with a bought-together list, each requested (and checked cached) before. Uncached: the default bench's recommended cache-miss rotation (bust_cache=yes). wrk times a request from its sending, so the pause is not in the latency; wrk's latency counts every answer.`,
      `Key A: one ${report.generator} process per flood at nice ${keyA.niceness} (an abuser's client is remote in real life: at the lowest priority it takes only the CPU the server leaves, so the rows measure the server's isolation, not how 2 cores are split between client and server), 1 thread, ${keyA.connections} connections with no pause, cycling through static lists of two of its own products: first lists answered from the cache (what gets past the limit is a cache hit), then the same lists and each again with bust_cache=yes (half of what gets past the limit is a task for the pool, in A's own queue: the merchants' queues take turns at the workers). Each flood starts ${timing.floodLeadS} s before key B's warm-up (its burst is spent by then) and ends ${timing.floodTailS} s after B's measured seconds; its figures cover its whole run. Its answers over the limit are 429s (the server's count of 429s over the same span is beside them).`,
      `Cores: the server, B's two generators and A's generator all run on this machine's ${availableParallelism()} cores, with whatever else runs on it. A refused request still costs the server's HTTP thread (the one thread that also answers B's cache hits) its parsing, key lookup and the 429's writing, though held refusals let each of A's connections send about one request a second once its burst is spent; the flood's generator, though at the lowest priority, takes the CPU left idle (its row above): B's latency under the flood shows the limiter's price and the machine's contention together. The ratios compare B's p99 under each flood with the mean of its p99 alone before and after, which show how much the machine drifted meanwhile.`,
    );
  }
  for (const error of errors) out.push(`NOT MEASURED: ${error}`);
  out.push("Benchmarks are not tests: figures are reported as measured, and the exit code stays 0.", "");
  return out.join("\n");
}
