// Renders one table: each figure next to its budget and, for throughput, its
// share of the raw-uWS ceiling measured in the same run. Plus the notes a
// reader needs to trust the numbers (how the load was generated, on what).
import { availableParallelism } from "node:os";
import { BUDGETS, describeBudget, verdict, type Budget, type Unit } from "./budgets.js";
import { count, machineLine, ms, ratioText, renderTable, seconds, us } from "./format.js";
import type { KindImport, LoadReport, MicroResult, MicroSuite, ScaleReport, ScenarioResult } from "../shared/results.js";

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

/** A time in µs expressed in a budget's unit. */
function fromMicroseconds(value: number, unit: Unit): number {
  return unit === "ms" ? value / 1000 : unit === "s" ? value / 1_000_000 : value;
}

function microRows(results: MicroResult[]): Row[] {
  return results.map((r) => {
    const value = r.error ? `error: ${r.error}` : `p50 ${us(r.p50Us)} · p99 ${us(r.p99Us)} · ${count(r.opsPerSec)} ops/s`;
    const refs = r.budget === undefined ? [] : "name" in r.budget ? [r.budget] : r.budget;
    // Several budgets (a p50 and a p99) share the row: each is shown, and the row is over if any is.
    const verdicts = refs.map((ref) => {
      const limit = BUDGETS[ref.name];
      return judged(limit, fromMicroseconds(ref.stat === "p50" ? r.p50Us : r.p99Us, limit.unit), `${ref.stat} `);
    });
    const budget: Pick<Row, "budget" | "result"> =
      verdicts.length === 0
        ? unjudged
        : { budget: verdicts.map((v) => v.budget).join("; "), result: verdicts.map((v) => v.result).join(" / ") };
    return { figure: `  ${r.name}`, value, ceiling: "", ...budget };
  });
}

function suiteRows(suites: MicroSuite[]): Row[] {
  return suites.flatMap((suite) => [section(suite.title), ...microRows(suite.results)]);
}

function scenarioRows(s: ScenarioResult, ceilingReqPerSec: number, connections: number): Row[] {
  // Event ingest answers acknowledged events: its throughput is the 2xx rate.
  const rate = s.events ? s.okPerSec : s.reqPerSec;
  // Event ingest is compared with raw uWS answering the same POSTs, when that was measured.
  const ratio = rate / (s.sameRequestCeiling ?? ceilingReqPerSec);
  // A run with fewer connections is not comparable with the saturated ceiling; event
  // ingest and its raw-uWS references run more connections than the ceiling and
  // show the ratio anyway (see the notes).
  // A paired reference row is itself the ceiling of the row above it: no ratio of its own.
  const comparable = (s.target === "aisle" && s.connections === connections) || s.events !== undefined;
  const faults = s.errors + s.timeouts + s.non2xx;
  const flag = faults > 0 ? ` (${s.errors} errors, ${s.timeouts} timeouts, ${s.non2xx} non-2xx)` : "";
  let throughputBudget: Pick<Row, "budget" | "result"> = unjudged;
  if (s.budgets.throughput) throughputBudget = judged(BUDGETS[s.budgets.throughput], ratio, "req/s ");
  else if (s.budgets.okRate) throughputBudget = judged(BUDGETS[s.budgets.okRate], s.okPerSec);
  const latencyBudget = s.budgets.p99 ? judged(BUDGETS[s.budgets.p99], s.latencyMs.p99, "p99 ") : unjudged;
  const rows: Row[] = [
    {
      figure: `  ${s.name}: ${s.events ? "acknowledged events/s" : "req/s"}`,
      value: count(rate) + (s.pageRequests ? ` (${count(rate / s.pageRequests)} page views/s)` : "") + flag,
      ceiling: comparable ? ratioText(ratio) : "",
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
  if (s.events) {
    const { sequenceBefore, sequenceAfter, acknowledged } = s.events;
    const stored = sequenceAfter - sequenceBefore;
    rows.push({
      figure: `  ${s.name}: stored vs acknowledged`,
      value: `${count(stored)} stored (sequence ${count(sequenceBefore)} → ${count(sequenceAfter)}) ≥ ${count(acknowledged)} 2xx, warm-up included`,
      ceiling: "",
      budget: "stored ≥ 2xx",
      result: stored >= acknowledged ? "ok" : `LOST ${count(acknowledged - stored)}`,
    });
    rows.push({
      figure: `  ${s.name}: aisle CPU per acknowledged event`,
      value: `${s.events.serverCpuMicrosPerEvent.toFixed(1)} µs (every thread, warm-up and the applier's catch-up included)`,
      ceiling: "",
      budget: "",
      result: "",
    });
    const { unappliedAtEnd, catchUpSeconds } = s.events;
    rows.push({
      figure: `  ${s.name}: unapplied when the load stopped`,
      value: `${count(unappliedAtEnd)} events, ${catchUpSeconds === null ? "NOT applied within 2 min" : `applied ${catchUpSeconds.toFixed(1)} s later`}`,
      ceiling: "",
      budget: "",
      result: catchUpSeconds === null ? "BEHIND" : "",
    });
  }
  return rows;
}

function serviceRows(load: LoadReport): Row[] {
  const { service } = load;
  return [
    {
      figure: "  demo seed (generate + import, banner)",
      value: `${(service.seedMs / 1000).toFixed(2)} s`,
      ceiling: "",
      ...judged(BUDGETS.demoSeed, service.seedMs / 1000),
    },
    { figure: "  start-up inside the process (startMs)", value: `${(service.startMs / 1000).toFixed(2)} s`, ceiling: "", ...unjudged },
    {
      figure: "  cold start (spawn → healthz 200)",
      value: `${(service.coldStartMs / 1000).toFixed(2)} s`,
      ceiling: "",
      ...judged(BUDGETS.coldStart, service.coldStartMs / 1000),
    },
    {
      figure: "  RSS after start (once the demo model is trained)",
      value: `${service.rssAfterStartMB.toFixed(0)} MB`,
      ceiling: "",
      ...judged(BUDGETS.rssAfterStart, service.rssAfterStartMB),
    },
    { figure: "  RSS after load", value: `${service.rssAfterLoadMB.toFixed(0)} MB`, ceiling: "", ...unjudged },
  ];
}

function render(rows: Row[]): string {
  return renderTable(
    ["figure", "value", "budget", "vs ceiling", "result"],
    rows.map((r) => [r.figure, r.value, r.budget, r.ceiling, r.result]),
  );
}

/** What the rows marked ", wrk" are, when wrk was installed to run them. */
function wrkRowsNote(load: LoadReport): string[] {
  const generator = load.scenarios.find((s) => s.name.endsWith(", wrk"))?.generator;
  if (generator === undefined) return [];
  return [
    `Rows marked ", wrk": the cache hits and the judged misses again, loaded by ${generator} (one rotation shared by its connections; the same connections, warm-up and measured seconds, rounded up to whole seconds as wrk takes them; its own latency histogram over every answer), each paired with raw uWS replaying aisle's bytes under wrk as well ("raw uWS, same requests and bytes, wrk"). autocannon's client takes more of these cores than wrk and holds raw uWS below what it reaches, which flatters whatever it loads; wrk does less so, and these ratios are the stricter ones.`,
  ];
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

function eventNotes(load: LoadReport): string[] {
  const ingest = load.scenarios.filter((s) => s.events);
  if (ingest.length === 0) return [];
  const { sessions, handles, paths, addedShare } = load.rotations.events;
  const little = ingest
    .map((s) => `${s.connections} connections ÷ ${count(s.okPerSec)}/s = ${((s.connections / s.okPerSec) * 1000).toFixed(2)} ms`)
    .join(", ");
  return [
    `Event ingest: POST /api/v1/analytics/event with the parameters in the query, over ${count(paths)} URLs (${count(sessions)} v4-shaped session uuids interleaved, products drawn from ${count(handles)} real active handles, ${Math.round(addedShare * 100)}% verb=added, the rest viewed); one rotation shared by all connections, so concurrent requests are different sessions. "acknowledged events/s" = 2xx answers in the measured seconds ÷ their length; the server answers only after the LMDB commit that logs the event is flushed to disk (each turn of the HTTP thread's event loop logs its events in one transaction of the log's own LMDB environment, committed by lmdb's write thread; an applier thread applies histories, add counts and carts behind it). "aisle CPU per acknowledged event" is the aisle process's user + system time from the run's start until the applier has applied every acknowledged event (every thread, warm-up included) ÷ its 2xx answers: what capacity costs, whatever else loads the machine. "Unapplied when the load stopped" (aisle_events_unapplied) shows whether the applier kept up: a run that outpaces it holds events on the HTTP thread, and is sustainable only as long as that backlog stays under the 500k at which events are refused.`,
    `  A closed loop holds one event in flight per connection, so acknowledged events/s ≈ connections ÷ latency (Little's law: ${little} mean time per acknowledgement); the budget is judged at each concurrency, and the higher one shows the server's capacity. Generator: ${load.eventGenerator}, in its own process on the same cores. Each "raw uWS, the same event POSTs" row is a bare uWS server answering the same URLs with the same receipt bytes, same generator and connections, measured just before the aisle row below it; that aisle row's "vs ceiling" is its share of it.`,
    `  Stored vs acknowledged: store.eventSequence("demo") read by a separate read-only LMDB reader before and after each run; it must grow by at least the run's 2xx count (requests in flight at the end may be stored without being counted).`,
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
  micro: MicroSuite[] | null;
  load: LoadReport | null;
  errors: string[];
}

export function formatReport({ quick, loadAtStart, micro, load, errors }: ReportInput): string {
  const cores = availableParallelism();
  const rows: Row[] = [];
  if (micro) rows.push(...suiteRows(micro));
  if (load) {
    rows.push(section("load (each client in its own process, loopback)"));
    for (const s of load.scenarios) rows.push(...scenarioRows(s, load.ceilingReqPerSec, load.settings.connections));
    rows.push(section("service"), ...serviceRows(load));
  }

  const out = ["", machineLine(`aisle bench${quick ? " (--quick)" : ""}`, loadAtStart), "", render(rows), ""];
  if (load) {
    const { connections, durationS, warmupS, timeoutS } = load.settings;
    const ceilings = load.scenarios.filter((s) => s.target === "ceiling").map((s) => count(s.reqPerSec));
    out.push(
      `Load generator: autocannon 8 in a separate Node process per scenario (never in the server's process), ${connections} connections, HTTP/1.1 keep-alive, no pipelining, one run of ${warmupS} s warm-up (not recorded) then ${durationS} s measured, ${timeoutS} s request timeout; req/s = responses in the measured seconds ÷ their length.`,
      `  Server, ceiling and load generator all run on the same ${cores} cores over 127.0.0.1, so every req/s figure is partly the client's limit: compare ratios, not absolutes.`,
      `Ceiling: a raw uWebSockets.js process with aisle's headers, in its own process under the same client and settings. The static cache hit's "vs ceiling" = aisle req/s ÷ mean of the "raw uWS ceiling" runs before and after (${ceilings.join(" and ")} req/s), which answer its ${count(load.hitBodyBytes)}-byte body. Every other aisle row is followed by "raw uWS, same requests and bytes": the same client sending the same rotation to a raw uWS server that answers each URL with the exact bytes aisle answered it with (recorded after aisle's run, so the recording does not warm aisle's cache); that aisle row's "vs ceiling" is its share of it.`,
      "Latency: each 2xx response's duration at 1 µs resolution (autocannon's own histogram keeps whole milliseconds).",
      ...ceilingLatencyNote(load),
      ...faultNote(load),
      ...wrkRowsNote(load),
      `Cache miss: bust_cache=yes forces a recompute for every request (on the HTTP thread for a list that is surely cheap, else in the worker pool: see README's Architecture), over ${load.rotations.staticMiss} different sets of 5 ids. Cache hit: one URL, 5 products, full projection.`,
      ...(load.scenarios.some((s) => s.connections !== connections)
        ? [
            `  Rows marked "1 connection" ran one connection (1 s warm-up, 5 s measured): the latency of a recompute without the queue ${connections} closed-loop connections build in front of the worker pool; not judged, and not comparable with the ceiling.`,
          ]
        : []),
      ...eventNotes(load),
      `Recommended: real demo products that have a bought-together list; the hit is one URL (one input, ${count(load.recommendedHitBodyBytes)}-byte body), the miss rotates over ${load.rotations.recommendedMiss} sets of 1, 2 or 3 ids. context=similar and similar_products: listed products, one input each, recomputed each time. trending_products: one URL, recomputed each time. top_sellers: ${load.rotations.topSellersMiss} URLs (whole shop and single collections × default 90-day and 30-day windows), recomputed each time. viewed and viewed-related: the demo's own view sessions by uuid (never cached: computed for every request). purchased: customers with orders, recomputed each time.`,
      "Quick-view keystroke replay (synthetic: the demo has no search log): the first two words of demo titles typed character by character, POSTed with the query in the query string; one rotation shared by all connections. The first pass searches in the pool; prefixes typed again (by another title or on the next pass) are answered from the response cache, as they are for real shoppers, so the row mixes misses and hits (see the worker-task row above for the search alone).",
      `Page mix: ${count(load.rotations.pageMixPages)} page views of the demo's own sessions, each 7 requests in browser order: POST analytics/event (viewed, the session's uuid, a listed product), recommended for that product and viewed-related for the session (no bust_cache: hits and misses as they come), then four keystrokes of a title query; one rotation shared by all connections; page views/s = req/s ÷ 7. The event writes make trending and viewed-related move during the run.`,
      "Cold start: spawn of `aisle serve` on an empty data dir until /healthz answers 200, so it includes Node start-up and the demo seed; the demo's similar-products model then trains on a background thread, and the load runs wait for it. Every bench server runs with AISLE_TUNE_EVERY_S=off: a background tuning of viewed-related would take a core at a moment of its own choosing. RSS: VmRSS of the server process (all threads), MiB.",
    );
  }
  if (micro) out.push(...microNotes(micro));
  for (const error of errors) out.push(`NOT MEASURED: ${error}`);
  out.push("Benchmarks are not tests: over-budget figures are reported, and the exit code stays 0.", "");
  return out.join("\n");
}

function microNotes(suites: MicroSuite[]): string[] {
  return [
    ...suites.filter((suite) => suite.note).map((suite) => `${suite.title}: ${suite.note}.`),
    "Micro: tinybench 6, hrtime timestamps, p50/p99 of per-call samples (at least 64); ops/s = 1 / mean time per call.",
    'Ranking: the worker task functions recommended(store, task) and salesList(store, task) called in-process (no pool hop, no HTTP), with tasks built by the real storefront routes; inputs are real products drawn uniformly, 256 rotating ids or sets. "ranking only" rows time the candidate ranking alone, without render and JSON: the trending and top-seller ones read the first 50 ranks of the stored lists, as a list does. The shop-wide rankings are refreshed once before the rows (rankingWriter.refreshSync), as the applier thread stores them; a worker only reads them.',
    "Ranking refresh: rankingWriter.refreshSync after each new order (its commit awaited, not timed): the days whose counts changed read again (today), trending and top sellers computed for the shop and every collection, the changed chunks written in one transaction; what the applier thread does at most every AISLE_RANKING_REFRESH_S while orders come.",
    "Order updates: store.upsertOrders with one new order (fresh id, current time, 1–4 lines drawn from real order lines, so popular products come up as often as they sell), awaited until LMDB has committed it; the deferNeighbours and empty-transaction rows split that time. The three are sampled in interleaved rounds of 8 calls (performance.now() around each awaited call, not tinybench), because every order grows today's sales row: run one after another, a later variant would pay for a bigger row.",
  ];
}

export interface ScaleReportInput {
  loadAtStart: number;
  report: ScaleReport | null;
  failure: string | null;
}

const importedItems = (kind: KindImport) => kind.chunks.reduce((sum, c) => sum + c.items, 0);

function scaleRows(report: ScaleReport): Row[] {
  const { volumes: v, options } = report;
  const rows: Row[] = [
    section("scale: generation (generateDemo, in the bench process)"),
    {
      figure: `  generateDemo({products: ${options.products}, customers: ${options.customers}, sessions: 0})`,
      value: seconds(report.generateMs),
      ceiling: "",
      ...unjudged,
    },
    {
      figure: "  catalogue",
      value: `${count(v.products)} products, ${count(v.variants)} variants, ${v.collections} collections`,
      ceiling: "",
      ...unjudged,
    },
    { figure: "  markets", value: `${v.markets} markets, ${count(v.marketPrices)} variant prices`, ceiling: "", ...unjudged },
    {
      figure: "  customers / orders / order lines",
      value: `${count(v.customers)} / ${count(v.orders)} / ${count(v.orderLines)}`,
      ceiling: "",
      ...unjudged,
    },
    { figure: "  RSS after generation", value: `${report.rssMB.afterGenerate.toFixed(0)} MB`, ceiling: "", ...unjudged },
    section(`scale: import through the ingest path (validateBatch + writeBatch, batches of ${count(options.chunk)}, one transaction each)`),
  ];
  let totalMs = 0;
  for (const kind of report.imports) {
    const imported = importedItems(kind);
    const validateMs = kind.chunks.reduce((sum, c) => sum + c.validateMs, 0);
    const writeMs = kind.chunks.reduce((sum, c) => sum + c.writeMs, 0);
    totalMs += validateMs + writeMs;
    const perSecond = imported / ((validateMs + writeMs) / 1000);
    const rate = perSecond >= 10 ? `${count(perSecond)}/s` : `${((validateMs + writeMs) / 1000 / imported).toFixed(1)} s each`;
    const partial = imported < kind.total ? ` (stopped: ${count(imported)} of ${count(kind.total)})` : "";
    rows.push({
      figure: `  ${kind.kind}: ${count(imported)} in ${kind.chunks.length} batch${kind.chunks.length === 1 ? "" : "es"}${partial}`,
      value: `${seconds(validateMs + writeMs)} (validate ${seconds(validateMs)}, write ${seconds(writeMs)}) · ${rate}`,
      ceiling: "",
      ...unjudged,
    });
    if (kind.kind === "orders" && kind.chunks.length > 1) {
      const rates = kind.chunks.map((c) => c.items / ((c.validateMs + c.writeMs) / 1000));
      rows.push({
        figure: "  orders/s per batch, first → last",
        value: rates.map((r) => count(r)).join(" → "),
        ceiling: "",
        ...unjudged,
      });
    }
  }
  rows.push(
    { figure: `  import total${report.importComplete ? "" : " (cut at the time cap)"}`, value: seconds(totalMs), ceiling: "", ...unjudged },
    {
      figure: "  RSS after import (after a full GC; counts mapped LMDB pages)",
      value: `${report.rssMB.afterImport.toFixed(0)} MB (JS heap ${report.heapAfterImportMB.toFixed(0)} MB)`,
      ceiling: "",
      ...unjudged,
    },
    { figure: "  LMDB file (allocated)", value: `${report.dataFileMB.toFixed(0)} MB`, ceiling: "", ...unjudged },
  );
  rows.push(...suiteRows(report.suites));
  rows.push(section("scale: after the suites"));
  rows.push({ figure: "  RSS after the suites", value: `${report.rssMB.afterSuites.toFixed(0)} MB`, ceiling: "", ...unjudged });
  if (report.marketsDecodeMs !== null) {
    rows.push({
      figure: "  market list decode (store.marketsOf), median of 5",
      value: us(report.marketsDecodeMs * 1000),
      ceiling: "",
      ...unjudged,
    });
  }
  if (report.rebuildMs !== null) {
    rows.push({
      figure: "  full bought-together rebuild (store.rebuildCopurchase)",
      value: seconds(report.rebuildMs),
      ceiling: "",
      ...unjudged,
    });
  }
  return rows;
}

export function formatScaleReport({ loadAtStart, report, failure }: ScaleReportInput): string {
  const out = ["", machineLine("aisle bench --scale", loadAtStart), ""];
  if (report) {
    out.push(
      render(scaleRows(report)),
      "",
      `Scale: the demo generator at ${count(report.options.products)} products and ${count(report.options.customers)} customers, imported into a fresh temp LMDB env in the bench process through validateBatch + writeBatch (what ingest() does for the admin API, webhooks and seedDemo), orders with their daily sales and bought-together model updated per batch, as in production.`,
      ...microNotes(report.suites),
    );
    if (!report.importComplete)
      out.push(
        `NOT COMPLETE: the import stopped at the ${report.options.maxImportMinutes}-minute cap; the suites ran on the orders imported by then.`,
      );
    for (const error of report.errors) out.push(`NOT MEASURED: ${error}`);
  }
  if (failure) out.push(`NOT MEASURED: the scale suite failed: ${failure}`);
  out.push("Benchmarks are not tests: over-budget figures are reported, and the exit code stays 0.", "");
  return out.join("\n");
}

/** Every budget of budgets.ts as a Markdown table: what RESULTS.md lists beside the figures. */
export function budgetsMarkdown(): string {
  const escape = (text: string) => text.replace(/\|/g, "\\|");
  return [
    "### Budgets (bench/report/budgets.ts)",
    "",
    "| budget | limit | source | why |",
    "|---|---|---|---|",
    ...Object.entries(BUDGETS).map(
      ([name, budget]) => `| ${name} | ${describeBudget(budget)} | ${escape(budget.source)} | ${escape(budget.why)} |`,
    ),
  ].join("\n");
}
