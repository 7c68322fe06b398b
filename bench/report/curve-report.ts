// The scale curve as one matrix: a row per figure, a column per catalogue
// size, then the budget and the verdict at each size — so how a cost grows
// with the catalogue reads along a row.
import { BUDGETS, describeBudget, verdict, type BudgetName } from "./budgets.js";
import type { CurveOptions, CurvePoint, ScenarioResult, WorkerMemory } from "../shared/results.js";
import { count, machineLine, ms, ratioText, renderTable, seconds, us } from "./format.js";

const mb = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} MB` : "n/a");

interface CurveRow {
  figure: string;
  cells: string[];
  budget?: BudgetName;
  /** The figure judged at each size, in the budget's unit (NaN: not judged there). */
  judged?: number[];
}

function verdicts(row: CurveRow): string {
  if (!row.budget || !row.judged) return "";
  const budget = BUDGETS[row.budget];
  return row.judged.map((value) => (Number.isFinite(value) ? verdict(budget, value) : "n/a")).join(" / ");
}

function importRows(points: CurvePoint[]): CurveRow[] {
  const kinds = [...new Set(points.flatMap((p) => p.imports.map((i) => i.kind)))];
  const rows: CurveRow[] = kinds.map((kind) => ({
    figure: `  import ${kind}/s (validate + write, batches of 50k)`,
    cells: points.map((p) => {
      const record = p.imports.find((i) => i.kind === kind);
      if (!record || record.chunks.length === 0) return "n/a";
      const items = record.chunks.reduce((sum, c) => sum + c.items, 0);
      const msTotal = record.chunks.reduce((sum, c) => sum + c.validateMs + c.writeMs, 0);
      return `${count(items / (msTotal / 1000))}/s${items < record.total ? ` (${count(items)} of ${count(record.total)})` : ""}`;
    }),
  }));
  rows.push({
    figure: "  events appended/s (batches of 100k)",
    cells: points.map((p) => (p.eventImport ? `${count(p.eventImport.events / (p.eventImport.ms / 1000))}/s` : "n/a")),
  });
  rows.push({
    figure: "  import total (catalogue, customers, orders, events)",
    cells: points.map((p) => {
      const total = p.imports.flatMap((i) => i.chunks).reduce((sum, c) => sum + c.validateMs + c.writeMs, 0) + (p.eventImport?.ms ?? 0);
      return p.imports.length === 0 ? "n/a" : `${seconds(total)}${p.importComplete ? "" : " (cut at the time cap)"}`;
    }),
  });
  return rows;
}

function rankingRows(points: CurvePoint[]): CurveRow[] {
  const names = [...new Set(points.flatMap((p) => p.ranking.filter((r) => r.budget).map((r) => r.name)))];
  return names.map((name) => {
    const results = points.map((p) => p.ranking.find((r) => r.name === name));
    return {
      figure: `  ${name}: p50 / p99`,
      cells: results.map((r) => (r ? `${us(r.p50Us)} / ${us(r.p99Us)}` : "n/a")),
      budget: "rankingScaleP99",
      judged: results.map((r) => (r ? r.p99Us / 1000 : NaN)),
    };
  });
}

const anonAndFile = ({ anon, file }: { anon: number; file: number }) => (Number.isFinite(anon) ? `${mb(anon)} / ${mb(file)}` : "n/a");

const perExtraWorker = ({ workers, anonMB }: WorkerMemory) => (anonMB[1] - anonMB[0]) / (workers[1] - workers[0]);

function workerMemoryCell(memory: WorkerMemory): string {
  const { workers, anonMB } = memory;
  return `${mb(perExtraWorker(memory))} (AISLE_WORKERS=${workers[0]}: ${mb(anonMB[0])}, ${workers[1]}: ${mb(anonMB[1])})`;
}

/** How the pools compared for memory were loaded, from the first size that measured them (null: none did). */
function poolLoadOf(points: CurvePoint[]): string | null {
  const load = points.find((p) => p.workerMemory !== null)?.workerMemory?.load;
  return load ? `${load.durationS} s of every endpoint at ${load.connections} connections, after its first request alone` : null;
}

/** A throughput beside its own ceiling and their ratio, or alone when the run had none. */
function withCeilingRatio(run: ScenarioResult): string {
  const ceiling = run.sameRequestCeiling;
  if (ceiling === undefined || !(ceiling > 0)) return count(run.reqPerSec);
  return `${count(run.reqPerSec)} / ${count(ceiling)} (${ratioText(run.reqPerSec / ceiling)})`;
}

/** The load clients of the points' endpoint runs, as the report names them. */
function clientsOf(points: CurvePoint[]): string {
  const clients = new Set(points.flatMap((p) => p.endpoints.map((e) => e.generator ?? "autocannon client")));
  return clients.size === 0 ? "no runs" : [...clients].join(" and ");
}

/** Names carry rotation sizes that differ by shop; rows are matched by the endpoint's leading words. */
function endpointKey(rotationName: string): string {
  return rotationName.replace(/\s*\(.*$/, "");
}

function endpointRows(points: CurvePoint[]): CurveRow[] {
  const keys = [...new Set(points.flatMap((p) => p.endpoints.map((e) => endpointKey(e.name))))];
  const first = (p: CurvePoint, key: string) => [...p.firstRequestMs].find(([name]) => endpointKey(name) === key)?.[1];
  return keys.flatMap((key) => {
    const runs = points.map((p) => p.endpoints.find((e) => endpointKey(e.name) === key));
    const firsts = points.map((p) => first(p, key));
    const budget = runs.find((r) => r?.budgets.p99)?.budgets.p99;
    const faults = (r: (typeof runs)[number]) => (r && r.errors + r.timeouts + r.non2xx > 0 ? " (faults)" : "");
    return [
      {
        figure: `  ${key}: p50 / p99`,
        cells: runs.map((r) => (r ? `${ms(r.latencyMs.p50)} / ${ms(r.latencyMs.p99)}${faults(r)}` : "n/a")),
        ...(budget ? { budget, judged: runs.map((r) => r?.latencyMs.p99 ?? NaN) } : {}),
      },
      {
        figure: `  ${key}: req/s / raw uWS, same requests and bytes (ratio)`,
        cells: runs.map((r) => (r ? `${withCeilingRatio(r)}${faults(r)}` : "n/a")),
      },
      {
        figure: `  ${key}: first request after start`,
        cells: firsts.map((t) => (t === undefined ? "n/a" : ms(t))),
        budget: "scaleFirstRequest",
        judged: firsts.map((t) => (t === undefined ? NaN : t / 1000)),
      },
      {
        figure: `  ${key}: computed by pool workers during the run (latency on the server, queue included)`,
        cells: points.map((p, at) => (runs[at] ? poolTasksCell(p, key) : "n/a")),
      },
    ];
  });
}

/** The answers pool workers computed during an endpoint's run, or why none were. */
function poolTasksCell(point: CurvePoint, key: string): string {
  const tasks = [...point.poolTasks].find(([name]) => endpointKey(name) === key)?.[1];
  if (tasks === undefined) return "none (answered on the HTTP thread)";
  return `${count(tasks.tasks)}: p50 ≤ ${ms(tasks.p50AtMostMs)}, p99 ≤ ${ms(tasks.p99AtMostMs)}`;
}

/** Orders and events are generated as the import reads them: a shop cut at the time cap has only what was generated by then. */
const cutShort = (p: CurvePoint) => (p.importComplete ? "" : " (generated up to the time cap)");

function curveRows(points: CurvePoint[]): CurveRow[] {
  const first = points.find((p) => Number.isFinite(p.rssAfterLoadMB));
  // A slope over a few thousand products is mostly the workers' heaps warming up: judged from 10× the first shop.
  const growth = (p: CurvePoint) =>
    first && p.products >= first.products * 10 && Number.isFinite(p.rssAfterLoadMB)
      ? ((p.rssAfterLoadMB - first.rssAfterLoadMB) / (p.products - first.products)) * 100_000
      : NaN;
  return [
    { figure: "shop", cells: [] },
    {
      figure: "  customers / orders / order lines",
      cells: points.map((p) =>
        p.volumes ? `${count(p.volumes.customers)} / ${count(p.volumes.orders)} / ${count(p.volumes.orderLines)}${cutShort(p)}` : "n/a",
      ),
    },
    { figure: "  view events", cells: points.map((p) => (p.volumes ? `${count(p.volumes.events)}${cutShort(p)}` : "n/a")) },
    {
      figure: "  generate catalogue and customers (shop-building child; orders and events stream into the import)",
      cells: points.map((p) => seconds(p.generateMs)),
    },
    {
      figure: "  shop-building child: peak RSS / V8 heap limit",
      cells: points.map((p) => (Number.isFinite(p.build.peakRssMB) ? `${mb(p.build.peakRssMB)} / ${mb(p.build.heapLimitMB)}` : "n/a")),
    },
    { figure: "import (in the shop-building child, through validateBatch + writeBatch)", cells: [] },
    ...importRows(points),
    { figure: "  LMDB file after import and model build", cells: points.map((p) => mb(p.dataFileMB)) },
    {
      figure: "  similar-products model build (train + ONNX + embed + lists)",
      cells: points.map((p) => (p.similarBuildMs === null ? "not built (server trains it)" : seconds(p.similarBuildMs))),
      budget: "similarBuildScale",
      judged: points.map((p) => (p.similarBuildMs === null ? NaN : p.similarBuildMs / 1000)),
    },
    { figure: "ranking in-process (worker task functions, --quick timing)", cells: [] },
    ...rankingRows(points),
    { figure: "aisle serve on the imported shop", cells: [] },
    {
      figure: "  cold start (spawn → healthz 200)",
      cells: points.map((p) => seconds(p.coldStartMs)),
      budget: "scaleColdStart",
      judged: points.map((p) => p.coldStartMs / 1000),
    },
    {
      figure: "  LMDB files in the page cache at start (fincore)",
      cells: points.map(({ pageCacheAtStart: share }) =>
        share === null ? "n/a" : `${mb(share.residentMB)} of ${mb(share.fileMB)} (${Math.round((100 * share.residentMB) / share.fileMB)}%)`,
      ),
    },
    { figure: "  RSS after start", cells: points.map((p) => mb(p.rssAfterStartMB)) },
    {
      figure: "    of which anonymous / file-backed (LMDB pages, binary), after start",
      cells: points.map(({ rssAfterStartParts: parts }) => anonAndFile(parts)),
      budget: "scaleAnonAfterStart",
      judged: points.map((p) => p.rssAfterStartParts.anon),
    },
    { figure: "  RSS after the endpoint runs", cells: points.map((p) => mb(p.rssAfterLoadMB)) },
    {
      figure: "    of which anonymous / file-backed (LMDB pages, binary), after the runs",
      cells: points.map(({ rssAfterLoadParts: parts }) => anonAndFile(parts)),
    },
    {
      figure: "  RSS peak while serving (sampled every 1 s)",
      cells: points.map((p) => (p.rssSamples.length === 0 ? "n/a" : mb(Math.max(...p.rssSamples.map((s) => s.mb))))),
    },
    {
      figure: `  RSS growth per 100k products over the ${first ? count(first.products) : "first"} shop`,
      cells: points.map((p) => (Number.isFinite(growth(p)) ? mb(growth(p)) : "—")),
      budget: "scaleRssGrowthPer100k",
      judged: points.map(growth),
    },
    {
      figure: "  anonymous RSS per extra pool worker (two more servers on the shop, see below)",
      cells: points.map((p) => (p.workerMemory ? workerMemoryCell(p.workerMemory) : "n/a")),
      budget: "scaleAnonPerExtraWorker",
      judged: points.map((p) => (p.workerMemory ? perExtraWorker(p.workerMemory) : NaN)),
    },
    { figure: `endpoints over HTTP (${clientsOf(points)}, 10 connections, 1 s warm-up + 3 s)`, cells: [] },
    ...endpointRows(points),
  ];
}

/** How the per-worker memory was measured, when a size measured it. */
function poolNote(points: CurvePoint[]): string[] {
  const load = poolLoadOf(points);
  if (load === null) return [];
  return [
    `Per extra pool worker: after the endpoint runs, two more servers on the same shop with the pool sizes the row names, each read after ${load}, every answer a 2xx; the difference in anonymous memory, divided by the difference in workers.`,
  ];
}

/** The server's own words on its model training and failures: message and fields, one line each. */
export function serverNotes(point: Pick<CurvePoint, "serverNotes">): string[] {
  return point.serverNotes.map((line) => {
    try {
      const { time: _time, level, message, ...fields } = JSON.parse(line) as Record<string, unknown>;
      const rest = Object.entries(fields).map(
        ([key, value]) => `${key}=${typeof value === "string" ? value.split("\n")[0] : JSON.stringify(value)}`,
      );
      const text = `${String(level)}: ${String(message)}${rest.length > 0 ? ` (${rest.join(", ")})` : ""}`;
      return text.length > 400 ? `${text.slice(0, 400)}…` : text;
    } catch {
      return line.slice(0, 400);
    }
  });
}

/** The options a curve ran with, as the command line that repeats it. */
export function curveCommand(options: CurveOptions): string {
  const flags = [
    `--sizes ${options.sizes.join(",")}`,
    `--max-import-min ${options.maxImportMinutes}`,
    `--similar-up-to ${options.similarUpTo}`,
  ];
  if (options.maxCustomers !== null) flags.push(`--max-customers ${options.maxCustomers}`);
  if (options.reuseShop !== null) {
    return "node dist/bench/run.js --scale --reuse-shop DIR (DIR: a shop built and kept by bench/scale/scale-shop.ts; its build and import figures are from that run, and an earlier serving may have left a trained similar-products model in it)";
  }
  return `node dist/bench/run.js --scale ${flags.join(" ")}`;
}

export function formatCurveReport(points: CurvePoint[], loadAtStart: number, options?: CurveOptions): string {
  const rows = curveRows(points);
  const header = ["figure", ...points.map((p) => `${count(p.products)} products`), "budget", "result"];
  const table = renderTable(
    header,
    rows.map((row) => [
      row.figure,
      ...points.map((_, i) => row.cells[i] ?? ""),
      row.budget ? describeBudget(BUDGETS[row.budget]) : "",
      verdicts(row),
    ]),
  );
  const out = [
    "",
    machineLine("aisle bench --scale (scale curve)", loadAtStart),
    ...(options ? [`Run as: ${curveCommand(options)}`] : []),
    "",
    table,
    "",
    "Shops: the demo generator at each size with its own proportions (2 customers per 3 products, or at most --max-customers when given; orders from the customers over 90 days; 10 view sessions per customer), imported into a fresh data dir through validateBatch + writeBatch in batches of 50k (what the admin API, webhooks and the demo seed do), events appended in batches of 100k, then the similar-products model built (up to --similar-up-to products) — all in a shop-building child process with a V8 heap of the machine's memory less 4 GB (at most what vm.max_map_count lets V8 map: 85% of the mappings × 256 KB), which exits before `aisle serve` starts on a complete shop; a shop without a model has it trained by the server in a background thread while its endpoints run, which takes one of the two cores from them.",
    "Endpoints: the same rotations as the default bench's load rows (endpoint-paths.ts), built from each shop's own ids, sessions, customers and titles; one load client per endpoint (wrk when installed and the rotation sends one method, else the autocannon client), 10 connections, on the same cores as the server, then raw uWS replaying the bytes aisle answered for exactly those requests (bench/load/raw-uws.ts), by the same client right after: the ratio is aisle's share of that ceiling. Results read \"pass / over\" per size, left to right.",
    "LMDB files in the page cache at start: how much of the data dir's aisle.lmdb and events.lmdb the kernel held in memory just before the server started (util-linux fincore); what is not resident is read from disk as answers need it, by the HTTP thread too for the list misses it answers itself, so a kept shop's first minute is only comparable between runs beside this share (a run after other work on the machine, such as a test run, finds less of it).",
    "Computed by pool workers: the tasks the server's worker pool ran during the endpoint's load run (warm-up included), read from its aisle_pool_task_duration_seconds histogram on /metrics before and after the run, with the bucket bounds their median and 99th percentile fall within; a task's latency is its queue wait, its work and the answer's transfer. Cache hits, and misses the HTTP thread answers itself, are no tasks. Where a rotation is answered partly from the cache (quick-view keystrokes typed again), the row's p99 depends on how many misses fall in the measured seconds, and this line shows the misses themselves.",
    "First request after start: each endpoint's first URL sent alone (no timeout up to 10 min) just before its load run, so state a worker builds on first use (the quick-view index, the session index read from the whole event log, shop-wide rankings) is timed there rather than turning the load run into timeouts; the endpoints run in the table's order on one server, so a later endpoint's first request may find work already done by an earlier one.",
    "Cold start: spawn → /healthz 200 on the imported data dir (nothing seeded). RSS: VmRSS of the server (all threads, mapped LMDB pages it touched included); after start and after the endpoint runs it is also split into anonymous memory (V8 heaps, the threads' bounded caches, native buffers) and file-backed pages (of the LMDB map, and ~40 MB of the node binary and libraries), which the kernel may drop and read again under memory pressure. The growth budget is judged on the whole VmRSS; the after-start budget on anonymous memory.",
    "Ceilings: each endpoint's req/s stands beside raw uWS's for the same requests and bytes in the same run, as a ratio; the curve reports the ratio and judges it nowhere (the default bench judges the demo shop's).",
    ...poolNote(points),
  ];
  for (const p of points) for (const note of serverNotes(p)) out.push(`Server log at ${count(p.products)} products: ${note}`);
  for (const p of points) for (const error of p.errors) out.push(`NOT MEASURED at ${count(p.products)} products: ${error.split("\n")[0]}`);
  out.push("Benchmarks are not tests: over-budget figures are reported, and the exit code stays 0.", "");
  return out.join("\n");
}
