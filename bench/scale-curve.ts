// The scale curve (opt-in, `--scale`): synthetic merchants of growing size —
// the demo generator's proportions (2 customers per 3 products, orders per
// customer over 90 days, 10 view sessions per customer) — each imported into
// a fresh data dir through the ingest path, its similar-products model built,
// then served by a real `aisle serve`: cold start, RSS, import rates, and the
// p99 of every product endpoint under the same load as the default bench.
// Sizes run smallest first; a size that fails or passes its time cap is
// reported as far as it got, and the next sizes still run.
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { generateDemo, type DemoData } from "../src/demo/generator.js";
import { MAX_BATCH_ITEMS } from "../src/ingest/ingest.js";
import { buildSimilarModel } from "../src/similar/build.js";
import { Store } from "../src/stores/store.js";
import { rssMB, startAisle, type AisleProcess } from "./aisle-process.js";
import { makeTempDir, removeTempDir, stopChild } from "./children.js";
import { endpointRotations, type EndpointRotations, type Rotation } from "./endpoint-paths.js";
import type { LoadSettings, ScenarioResult } from "./load.js";
import type { MicroResult } from "./micro-result.js";
import { runRankingSuites, suiteTiming } from "./ranking.js";
import { importDemo, type KindImport } from "./scale.js";
import { methodAndPath } from "./request-line.js";
import { scenario } from "./scenario.js";

export interface CurveOptions {
  sizes: number[];
  /** Per size: the import stops after the batch that crosses this many minutes. */
  maxImportMinutes: number;
  /** Sizes above this skip the similar-products build (the server then trains in the background). */
  similarUpTo: number;
  /**
   * Caps the customers (and with them orders and sessions) of every shop: the 1M shop
   * with the demo's proportions (667k customers, 4.5M orders, ~40M view events) runs the
   * generator out of a 16 GB heap, so a capped run grows the catalogue alone past that.
   */
  maxCustomers: number | null;
}

/**
 * The model build grows linearly here (about 3.5 s per 1,000 products on this machine's
 * 2 cores): minutes at 100k, about an hour at 1M, so by default the 1M shop has none and
 * its server trains one in the background while the endpoints run (the report says so).
 */
export const DEFAULT_CURVE: CurveOptions = { sizes: [10_000, 100_000, 1_000_000], maxImportMinutes: 12, similarUpTo: 100_000, maxCustomers: null };

export function curveOptionsFrom(argv: readonly string[]): CurveOptions {
  const at = argv.indexOf("--sizes");
  const sizes = at === -1 ? DEFAULT_CURVE.sizes : (argv[at + 1] ?? "").split(",").map(Number);
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 100)) throw new Error("--sizes needs a comma-separated list of product counts ≥ 100");
  const number = (flag: string, fallback: number) => {
    const i = argv.indexOf(flag);
    return i === -1 ? fallback : Number(argv[i + 1]);
  };
  const cap = argv.indexOf("--max-customers");
  return {
    sizes,
    maxImportMinutes: number("--max-import-min", DEFAULT_CURVE.maxImportMinutes),
    similarUpTo: number("--similar-up-to", DEFAULT_CURVE.similarUpTo),
    maxCustomers: cap === -1 ? null : Number(argv[cap + 1]),
  };
}

/** Load of each endpoint at each size: shorter than the default bench's, the same connections. */
export const CURVE_LOAD: LoadSettings = { connections: 10, durationS: 3, warmupS: 1, timeoutS: 2 };

export interface CurvePoint {
  products: number;
  volumes: { customers: number; orders: number; orderLines: number; events: number } | null;
  generateMs: number;
  imports: KindImport[];
  importComplete: boolean;
  /** Events appended in batches of EVENT_BATCH, one transaction each. */
  eventImport: { events: number; ms: number } | null;
  similarBuildMs: number | null;
  dataFileMB: number;
  /** In-process ranking p99s on the imported store (worker task functions). */
  ranking: MicroResult[];
  coldStartMs: number;
  rssAfterStartMB: number;
  rssAfterLoadMB: number;
  endpoints: ScenarioResult[];
  /**
   * Per endpoint (by rotation name): the first request after start, timed alone
   * before the load run. Per-worker state built on first use (the search index,
   * the session index read from the event log) is paid here, not in the p99.
   */
  firstRequestMs: Map<string, number>;
  errors: string[];
}

const EVENT_BATCH = 100_000;
const FIRST_REQUEST_CAP_MS = 600_000;
const count = (n: number) => Math.round(n).toLocaleString("en-US");

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function emptyPoint(products: number): CurvePoint {
  return {
    products,
    volumes: null,
    generateMs: NaN,
    imports: [],
    importComplete: false,
    eventImport: null,
    similarBuildMs: null,
    dataFileMB: NaN,
    ranking: [],
    coldStartMs: NaN,
    rssAfterStartMB: NaN,
    rssAfterLoadMB: NaN,
    endpoints: [],
    firstRequestMs: new Map(),
    errors: [],
  };
}

/** Generates and imports one shop into `dataDir` as merchant "demo" (so `aisle serve` prints its key). */
async function buildShop(point: CurvePoint, dataDir: string, options: CurveOptions, log: (line: string) => void): Promise<void> {
  const products = point.products;
  const customers = Math.min(Math.round((products * 2) / 3), options.maxCustomers ?? Infinity);
  log(`generating ${count(products)} products, ${count(customers)} customers, ${count(customers * 10)} sessions…`);
  const started = performance.now();
  let demo: DemoData | null = generateDemo({ products, customers });
  point.generateMs = performance.now() - started;
  point.volumes = {
    customers: demo.customers.length,
    orders: demo.orders.length,
    orderLines: demo.orders.reduce((sum, o) => sum + o.line_items.length, 0),
    events: demo.events.length,
  };
  log(`generated in ${(point.generateMs / 1000).toFixed(1)} s: ${count(point.volumes.orders)} orders, ${count(point.volumes.events)} events`);

  const store = Store.open(dataDir);
  try {
    const imported = await importDemo(store, demo, { chunk: MAX_BATCH_ITEMS, maxImportMinutes: options.maxImportMinutes }, log, "demo");
    point.imports = imported.imports;
    point.importComplete = imported.importComplete;
    if (imported.importComplete) {
      const events = demo.events;
      const eventsStarted = performance.now();
      for (let start = 0; start < events.length; start += EVENT_BATCH) await store.appendEvents("demo", events.slice(start, start + EVENT_BATCH));
      point.eventImport = { events: events.length, ms: performance.now() - eventsStarted };
      log(`events appended: ${count(events.length)} in ${(point.eventImport.ms / 1000).toFixed(1)} s`);
    }
    demo = null;

    log("ranking suites (in-process, short)…");
    try {
      point.ranking = (await runRankingSuites(store, "demo", imported.merchant.api_key, { timing: suiteTiming(true), budget: "rankingScaleP99" })).results;
    } catch (error) {
      point.errors.push(`ranking suites: ${describe(error)}`);
    }
    if (products <= options.similarUpTo) {
      log("similar-products model build (train + ONNX + embed + neighbour lists)…");
      try {
        const buildStarted = performance.now();
        await buildSimilarModel(store, dataDir, "demo");
        point.similarBuildMs = performance.now() - buildStarted;
        log(`similar model built in ${(point.similarBuildMs / 1000).toFixed(1)} s`);
      } catch (error) {
        point.errors.push(`similar-products build: ${describe(error)}`);
      }
    }
  } finally {
    await store.close();
  }
  point.dataFileMB = (statSync(join(dataDir, "aisle.lmdb")).blocks * 512) / 1024 / 1024;
}

/** One request, timed, with no timeout but a generous cap: what the first shopper after a restart waits. */
async function firstRequest(origin: string, line: string): Promise<number> {
  const { method, path } = methodAndPath(line, "GET");
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, { method, signal: AbortSignal.timeout(FIRST_REQUEST_CAP_MS) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`first ${method} ${path} answered ${response.status}`);
  return performance.now() - started;
}

/** Starts `aisle serve` on the imported shop and loads every product endpoint in turn. */
async function serveAndLoad(point: CurvePoint, dataDir: string, log: (line: string) => void): Promise<void> {
  let aisle: AisleProcess | null = null;
  try {
    log("starting aisle serve on the imported shop…");
    aisle = await startAisle(dataDir, "adm_bench_scale", false);
    point.coldStartMs = aisle.coldStartMs;
    point.rssAfterStartMB = rssMB(aisle.pid);
    const store = Store.open(dataDir);
    let rotations: EndpointRotations;
    try {
      rotations = endpointRotations(store, "demo", aisle.apiKey);
    } finally {
      await store.close();
    }
    for (const rotation of Object.values(rotations) as Rotation[]) {
      try {
        // By file: a rotation of thousands of keystrokes would not fit in the client's argv.
        const pathsFile = join(dataDir, "rotation.txt");
        writeFileSync(pathsFile, `${rotation.paths.join("\n")}\n`);
        const shape = { pathsFile, ...(rotation.paths.some((line: string) => line.startsWith("POST ")) ? { rotation: "shared" as const } : {}) };
        point.firstRequestMs.set(rotation.name, await firstRequest(aisle.origin, rotation.paths[0]!));
        point.endpoints.push(await scenario(rotation.name, "aisle", aisle.origin, [], CURVE_LOAD, { p99: rotation.budget }, shape));
      } catch (error) {
        point.errors.push(`${rotation.name}: ${describe(error)}`);
      }
    }
    point.rssAfterLoadMB = rssMB(aisle.pid);
  } finally {
    if (aisle) await stopChild(aisle.child, 30_000);
  }
}

/** `onPoint` is called after each size with every point so far: a long curve is reported as it goes. */
export async function runScaleCurve(options: CurveOptions, onPoint: (points: CurvePoint[]) => void = () => {}): Promise<CurvePoint[]> {
  const points: CurvePoint[] = [];
  for (const products of options.sizes) {
    const log = (line: string) => process.stderr.write(`  scale ${count(products)}: ${line}\n`);
    const point = emptyPoint(products);
    points.push(point);
    const dataDir = makeTempDir("aisle-bench-curve-");
    try {
      await buildShop(point, dataDir, options, log);
      await serveAndLoad(point, dataDir, log);
    } catch (error) {
      point.errors.push(describe(error));
      log(`stopped: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      removeTempDir(dataDir);
    }
    onPoint(points);
  }
  return points;
}
