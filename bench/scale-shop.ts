// One scale-curve shop, generated and imported in a process of its own. The
// demo generator's objects for a 1M-product shop take gigabytes of V8 heap;
// built in the bench process, that heap stayed beside `aisle serve` on the same
// machine. Here the shop is written to the data dir, the ranking suites run on
// it, the endpoint rotations are read from it, and the process exits — before
// the server starts. The curve forks this file with a large
// --max-old-space-size (see builderHeapMB) and gets a ShopReport over IPC.
//
// usage (alone, e.g. to keep a shop for a server investigation; the report is
// printed as JSON on stdout, progress on stderr):
//   node --max-old-space-size=13925 dist/bench/scale-shop.js \
//     '{"products":1000000,"customers":66667,"dataDir":"DIR","maxImportMinutes":30,"buildSimilar":false}'
import { statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { getHeapStatistics } from "node:v8";
import { generateDemo, type DemoData } from "../src/demo/generator.js";
import { MAX_BATCH_ITEMS } from "../src/ingest/ingest.js";
import { buildSimilarModel } from "../src/similar/build.js";
import { Store } from "../src/stores/store.js";
import { endpointRotations, type EndpointRotations } from "./endpoint-paths.js";
import { describeError } from "./exit-cause.js";
import type { MicroResult } from "./micro-result.js";
import { runRankingSuites, suiteTiming } from "./ranking.js";
import { count } from "./report.js";
import { importDemo, type KindImport } from "./scale.js";

export interface ShopRequest {
  products: number;
  customers: number;
  /** An existing, empty dir: the shop is written there as merchant "demo" (so `aisle serve` prints its key). */
  dataDir: string;
  /** The import stops after the batch that crosses this many minutes. */
  maxImportMinutes: number;
  /** Build the similar-products model here (otherwise the server trains it in the background). */
  buildSimilar: boolean;
}

export interface ShopReport {
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
  /** The endpoints' request rotations, read from the shop here so the bench process never reads it. */
  rotations: EndpointRotations | null;
  apiKey: string | null;
  /** Peak RSS of this process (generator heap, import, suites) and its V8 heap limit. */
  peakRssMB: number;
  heapLimitMB: number;
  errors: string[];
}

/** What a shop build reports before it has done anything: also the scale curve's starting point for a size. */
export function emptyShopOutcome(): Omit<ShopReport, "rotations" | "apiKey" | "peakRssMB" | "heapLimitMB"> {
  return { volumes: null, generateMs: NaN, imports: [], importComplete: false, eventImport: null, similarBuildMs: null, dataFileMB: NaN, ranking: [], errors: [] };
}

const EVENT_BATCH = 100_000;
const MB = 1024 * 1024;

export async function buildShop(request: ShopRequest, log: (line: string) => void): Promise<ShopReport> {
  const report: ShopReport = { ...emptyShopOutcome(), rotations: null, apiKey: null, peakRssMB: NaN, heapLimitMB: getHeapStatistics().heap_size_limit / MB };
  const { products, customers, dataDir } = request;
  log(`generating ${count(products)} products, ${count(customers)} customers, ${count(customers * 10)} sessions (heap limit ${count(report.heapLimitMB)} MB)…`);
  const started = performance.now();
  let demo: DemoData | null = generateDemo({ products, customers });
  report.generateMs = performance.now() - started;
  report.volumes = {
    customers: demo.customers.length,
    orders: demo.orders.length,
    orderLines: demo.orders.reduce((sum, o) => sum + o.line_items.length, 0),
    events: demo.events.length,
  };
  log(`generated in ${(report.generateMs / 1000).toFixed(1)} s: ${count(report.volumes.orders)} orders, ${count(report.volumes.events)} events`);

  const store = Store.open(dataDir);
  try {
    const imported = await importDemo(store, demo, { chunk: MAX_BATCH_ITEMS, maxImportMinutes: request.maxImportMinutes }, log, "demo");
    report.apiKey = imported.merchant.api_key;
    report.imports = imported.imports;
    report.importComplete = imported.importComplete;
    if (imported.importComplete) {
      const events = demo.events;
      const eventsStarted = performance.now();
      for (let start = 0; start < events.length; start += EVENT_BATCH) await store.appendEvents("demo", events.slice(start, start + EVENT_BATCH));
      report.eventImport = { events: events.length, ms: performance.now() - eventsStarted };
      log(`events appended: ${count(events.length)} in ${(report.eventImport.ms / 1000).toFixed(1)} s`);
    }
    demo = null;

    log("ranking suites (in-process, short)…");
    try {
      report.ranking = (await runRankingSuites(store, "demo", imported.merchant.api_key, { timing: suiteTiming(true), budget: "rankingScaleP99" })).results;
    } catch (error) {
      report.errors.push(`ranking suites: ${describeError(error)}`);
    }
    if (request.buildSimilar) {
      log("similar-products model build (train + ONNX + embed + neighbour lists)…");
      try {
        const buildStarted = performance.now();
        await buildSimilarModel(store, dataDir, "demo");
        report.similarBuildMs = performance.now() - buildStarted;
        log(`similar model built in ${(report.similarBuildMs / 1000).toFixed(1)} s`);
      } catch (error) {
        report.errors.push(`similar-products build: ${describeError(error)}`);
      }
    }
    log("endpoint rotations from the shop's own ids, sessions, customers and titles…");
    try {
      report.rotations = endpointRotations(store, "demo", imported.merchant.api_key);
    } catch (error) {
      report.errors.push(`endpoint rotations: ${describeError(error)}`);
    }
  } finally {
    await store.close();
  }
  report.dataFileMB = (statSync(join(dataDir, "aisle.lmdb")).blocks * 512) / MB;
  // ru_maxrss is in KiB on Linux.
  report.peakRssMB = process.resourceUsage().maxRSS / 1024;
  return report;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const request = JSON.parse(process.argv[2] ?? "null") as ShopRequest | null;
  if (request === null) {
    process.stderr.write("usage: node --max-old-space-size=MB dist/bench/scale-shop.js '<ShopRequest JSON>'\n");
    process.exit(2);
  }
  const log = (line: string) => process.stderr.write(`  scale ${count(request.products)}: ${line}\n`);
  const report = await buildShop(request, log);
  if (process.send) {
    // Exit only once the report is handed to the parent: exiting at once could drop it.
    process.send(report, () => process.exit(0));
  } else {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    process.exit(0);
  }
}
