// One scale-curve shop, generated and imported in a process of its own. The
// demo generator's objects for a 1M-product shop take gigabytes of V8 heap;
// built in the bench process, that heap stayed beside `aisle serve` on the same
// machine. Here the shop is written to the data dir, the ranking suites run on
// it, the endpoint rotations are read from it, and the process exits — before
// the server starts. The curve forks this file with a large
// --max-old-space-size (see builderHeapMB) and gets a ShopReport over IPC.
// Orders and events are streamed from the generator into the import
// (generateDemoStream): the process holds the catalogue and customers only
// until they are imported, and never all the orders or all the events.
//
// usage (alone, e.g. to keep a shop for a server investigation; the report is
// printed as JSON on stdout, progress on stderr):
//   node --max-old-space-size=13925 dist/bench/scale/scale-shop.js \
//     '{"products":1000000,"customers":66667,"dataDir":"DIR","maxImportMinutes":30,"buildSimilar":false}'
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { getHeapStatistics } from "node:v8";
import { generateDemoStream, type DemoOrder, type DemoStream } from "../../src/demo/generator.js";
import type { BehaviourEvent } from "../../src/core/types.js";
import { MAX_BATCH_ITEMS } from "../../src/ingest/ingest.js";
import { buildSimilarModel } from "../../src/similar/build.js";
import { Store } from "../../src/stores/store.js";
import { endpointRotations, type EndpointRotations } from "../load/endpoint-paths.js";
import { describeError } from "../shared/exit-cause.js";
import { suiteTiming } from "../micro/measure.js";
import { runRankingSuites } from "../micro/ranking.js";
import { count } from "../report/format.js";
import type { ShopOutcome } from "../shared/results.js";
import { dataFileMB, importDemo, type ImportableDemo } from "./scale.js";
import { chunksOf } from "../../src/core/chunks.js";

/** The shop's report, kept in its data dir: `--scale --reuse-shop DIR` serves and loads a kept shop again without building it. */
export const SHOP_REPORT_FILE = "shop-report.json";

export function readShopReport(dataDir: string): ShopReport {
  return JSON.parse(readFileSync(join(dataDir, SHOP_REPORT_FILE), "utf8")) as ShopReport;
}

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

/** What this process hands the scale curve: what the build measured, and what serving the shop needs. */
export interface ShopReport extends ShopOutcome {
  /** The endpoints' request rotations, read from the shop here so the bench process never reads it. */
  rotations: EndpointRotations | null;
  apiKey: string | null;
  /** Peak RSS of this process (generator heap, import, suites) and its V8 heap limit. */
  peakRssMB: number;
  heapLimitMB: number;
}

/** What a shop build reports before it has done anything: also the scale curve's starting point for a size. */
export function emptyShopOutcome(): ShopOutcome {
  return {
    volumes: null,
    generateMs: NaN,
    imports: [],
    importComplete: false,
    eventImport: null,
    similarBuildMs: null,
    dataFileMB: NaN,
    ranking: [],
    errors: [],
  };
}

const EVENT_BATCH = 100_000;
const MB = 1024 * 1024;

type Volumes = NonNullable<ShopReport["volumes"]>;

export async function buildShop(request: ShopRequest, log: (line: string) => void): Promise<ShopReport> {
  const report: ShopReport = {
    ...emptyShopOutcome(),
    rotations: null,
    apiKey: null,
    peakRssMB: NaN,
    heapLimitMB: getHeapStatistics().heap_size_limit / MB,
  };
  const { products, customers, dataDir } = request;
  log(
    `generating ${count(products)} products, ${count(customers)} customers; their orders and ${count(customers * 10)} sessions stream into the import ` +
      `(heap limit ${count(report.heapLimitMB)} MB)…`,
  );
  const started = performance.now();
  const volumes: Volumes = { customers: 0, orders: 0, orderLines: 0, events: 0 };
  const { shop, events } = importableOnce(generateDemoStream({ products, customers }), volumes);
  report.generateMs = performance.now() - started;
  report.volumes = volumes;
  log(`catalogue and customers generated in ${(report.generateMs / 1000).toFixed(1)} s`);

  const store = Store.open(dataDir);
  try {
    const options = { chunk: MAX_BATCH_ITEMS, maxImportMinutes: request.maxImportMinutes };
    const imported = await importDemo(store, shop, options, log, "demo");
    report.apiKey = imported.merchant.api_key;
    report.imports = imported.imports;
    report.importComplete = imported.importComplete;
    log(`orders generated: ${count(volumes.orders)} with ${count(volumes.orderLines)} lines`);
    if (imported.importComplete) report.eventImport = await appendEvents(store, events, volumes, log);

    log("ranking suites (in-process, short)…");
    try {
      report.ranking = (
        await runRankingSuites(store, "demo", imported.merchant.api_key, { timing: suiteTiming(true), budget: "rankingScaleP99" })
      ).results;
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
  report.dataFileMB = dataFileMB(dataDir);
  // ru_maxrss is in KiB on Linux.
  report.peakRssMB = process.resourceUsage().maxRSS / 1024;
  return report;
}

/**
 * The generated shop as importDemo reads it, each array handed out once and
 * then dropped, so nothing keeps the catalogue or the customers alive once
 * they are imported: at 1M products they are most of the heap, and an import
 * beside them spent its time in garbage collection (events appended at 9.2k/s,
 * V8 marking a heap near its limit). Orders and events are generated as they
 * are read, from what the generator keeps per product and customer (ids, no objects).
 */
function importableOnce(demo: DemoStream, volumes: Volumes): { shop: ImportableDemo; events: Iterable<BehaviourEvent> } {
  volumes.customers = demo.customers.length;
  const shop: ImportableDemo = {
    merchant: demo.merchant,
    products: once(demo.products),
    collections: once(demo.collections),
    markets: once(demo.markets),
    customers: once(demo.customers),
    orders: countingOrders(demo.orders, volumes),
  };
  return { shop, events: demo.events };
}

/** An array that can be read once; after that this holds no reference to it. */
function once<T>(items: readonly T[]): Iterable<T> {
  let held: readonly T[] | null = items;
  return {
    *[Symbol.iterator]() {
      const list = held;
      if (list === null) throw new Error("a list handed out once was read again");
      held = null;
      yield* list;
    },
  };
}

/** The orders as they stream past, counted into the report's volumes. */
function* countingOrders(orders: Iterable<DemoOrder>, volumes: Volumes): Generator<DemoOrder, void, undefined> {
  for (const order of orders) {
    volumes.orders++;
    volumes.orderLines += order.line_items.length;
    yield order;
  }
}

/**
 * Streams the events into the store in batches of EVENT_BATCH (one append
 * each), counting them into the volumes. The time reported is the appends'
 * alone: the events are generated between them.
 */
async function appendEvents(
  store: Store,
  events: Iterable<BehaviourEvent>,
  volumes: Volumes,
  log: (line: string) => void,
): Promise<{ events: number; ms: number }> {
  const started = performance.now();
  let appendMs = 0;
  for (const batch of chunksOf(events, EVENT_BATCH)) {
    const appendStarted = performance.now();
    await store.applied.appendEvents("demo", batch);
    appendMs += performance.now() - appendStarted;
    volumes.events += batch.length;
  }
  const allS = (performance.now() - started) / 1000;
  log(`events appended: ${count(volumes.events)} in ${(appendMs / 1000).toFixed(1)} s (${allS.toFixed(1)} s with their generation)`);
  return { events: volumes.events, ms: appendMs };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const request = JSON.parse(process.argv[2] ?? "null") as ShopRequest | null;
  if (request === null) {
    process.stderr.write("usage: node --max-old-space-size=MB dist/bench/scale/scale-shop.js '<ShopRequest JSON>'\n");
    process.exit(2);
  }
  const log = (line: string) => process.stderr.write(`  scale ${count(request.products)}: ${line}\n`);
  const report = await buildShop(request, log);
  writeFileSync(join(request.dataDir, SHOP_REPORT_FILE), JSON.stringify(report));
  if (process.send) {
    // Exit only once the report is handed to the parent: exiting at once could drop it.
    process.send(report, () => process.exit(0));
  } else {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    process.exit(0);
  }
}
