// Micro suites (tinybench, in this process) for the hot operations that exist
// today, on a freshly seeded demo store. They explain the load figures: a cache
// hit is parse + key + cache get + write; a miss adds a pool hop and the render.
// Then, on the same store, the ranking and order-update suites of ranking.ts.
import { Bench } from "tinybench";
import { ResponseCache } from "../../src/cache/response-cache.js";
import { loadConfig } from "../../src/config.js";
import { STATIC_PRODUCTS } from "../../src/core/api/endpoints.js";
import { canonicalParams, parseParams, type ParsedParams } from "../../src/core/params/parse.js";
import { listOptionsFrom, staticSelectionFrom, withListOptions } from "../../src/core/products/query.js";
import { productListBody } from "../../src/core/products/render.js";
import { staticCandidates } from "../../src/core/products/static-selection.js";
import { seedDemo } from "../../src/demo/seed.js";
import type { RequestInfo } from "../../src/http/router.js";
import { storefrontRoutes } from "../../src/http/routes/storefront.js";
import { NO_PENDING } from "../../src/ingest/pending-events.js";
import { WorkerPool } from "../../src/pool/pool.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import { Store } from "../../src/stores/store.js";
import { VERSION } from "../../src/version.js";
import { makeTempDir, removeTempDir } from "../shared/children.js";
import type { MicroResult, MicroSuite } from "../shared/results.js";
import { suiteTiming, summarise } from "./measure.js";
import { runHotOps } from "./hot-ops.js";
import { listedIds } from "../shared/inputs.js";
import { runRankingSuites, runUpdateSuites } from "./ranking.js";

export interface MicroOptions {
  quick: boolean;
}

const ID_SETS = 64;

function mustParse(query: URLSearchParams): ParsedParams {
  const parsed = parseParams(STATIC_PRODUCTS.params, query);
  if (!parsed.ok) throw new Error(`bench query rejected: ${parsed.message}`);
  return parsed.params;
}

export async function runMicro(options: MicroOptions): Promise<MicroSuite[]> {
  const dataDir = makeTempDir("aisle-bench-micro-");
  const store = Store.open(dataDir);
  let pool: WorkerPool | null = null;
  try {
    const demo = await seedDemo(store);
    const merchantId = demo.merchantId;
    const allIds = store.catalogue.productIds(merchantId);
    const listed = listedIds(store, merchantId);
    const idSets = Array.from({ length: ID_SETS }, (_, i) => Array.from({ length: 5 }, (_, j) => listed[(i * 5 + j) % listed.length]!));
    const queryFor = (ids: number[]) => `key=${demo.apiKey}&ids=${ids.join(",")}`;
    const hitQuery = queryFor(idSets[0]!);

    // What the worker does for a static miss, per id set, with parameters parsed as the server would.
    const catalog = merchantCatalog(store, merchantId);
    const tasks = idSets.map((ids) => {
      const params = mustParse(new URLSearchParams(queryFor(ids)));
      return { selection: staticSelectionFrom(params), list: listOptionsFrom(params, "full") };
    });
    const renderStatic = (i: number) => {
      const { selection, list } = tasks[i % tasks.length]!;
      const { candidates, restrictTo } = staticCandidates(catalog, selection);
      return productListBody(catalog, candidates, withListOptions(list, { restrictTo }));
    };
    const sampleBody = renderStatic(0);

    // A cache holding one entry per id set, keyed the way the product endpoint keys it.
    const cache = new ResponseCache(256 * 1024 * 1024);
    const version = store.version(merchantId, "catalogue");
    const cacheKeys = idSets.map(
      (ids) =>
        `${merchantId}|${STATIC_PRODUCTS.path}|${canonicalParams(STATIC_PRODUCTS.params, mustParse(new URLSearchParams(queryFor(ids))))}|v${version}`,
    );
    for (const key of cacheKeys) cache.set(key, sampleBody, Date.now());

    pool = new WorkerPool({ dataDir, threads: 1, maxQueue: 2_048 });

    // The real static route with the real services: on a hit it answers synchronously on this thread.
    const config = loadConfig({}, { dataDir });
    const route = storefrontRoutes({
      store,
      pool,
      cache: new ResponseCache(config.cacheMaxBytes),
      pendingEvents: { pendingFor: () => NO_PENDING },
      config,
      adminToken: "bench",
      version: VERSION,
      now: Date.now,
      waitingFor: () => [],
    }).find((r) => r.pattern === STATIC_PRODUCTS.path);
    if (!route) throw new Error("no static products route");
    const request = (): RequestInfo => ({
      method: "GET",
      path: STATIC_PRODUCTS.path,
      rawQuery: hitQuery,
      query: new URLSearchParams(hitQuery),
      headers: {},
      body: null,
      params: {},
    });
    await route.handle(request()); // the first call is the miss that fills the cache
    const hitQueryParams = new URLSearchParams(hitQuery);

    const timing = suiteTiming(options.quick);
    const bench = new Bench({ time: timing.timeMs, warmupTime: timing.warmupMs, timestampProvider: "hrtimeNow" });
    let i = 0;
    let sink = 0; // results feed a sink so the JIT cannot drop the work
    bench
      .add("LMDB product read (store.product)", () => {
        sink += store.catalogue.product(merchantId, allIds[i++ % allIds.length]!)?.variants.length ?? 0;
      })
      .add("parseParams, static endpoint, 5 ids", () => {
        sink += parseParams(STATIC_PRODUCTS.params, hitQueryParams).ok ? 1 : 0;
      })
      .add("response cache get (64 entries)", () => {
        sink += cache.get(cacheKeys[i++ % cacheKeys.length]!, Date.now())?.body.byteLength ?? 0;
      })
      .add("static hit handler (route.handle, no HTTP)", () => {
        const reply = route.handle(request());
        if (reply instanceof Promise) throw new Error("static hit went to the pool: the response cache missed");
        sink += reply.status;
      })
      // Decoding the markets (megabytes of price tables) happens once per catalogue
      // version per thread, and only for requests with country_code: the first such
      // request after a catalogue change pays this.
      .add("market list decode (store.marketsOf), once per catalogue version", () => {
        sink += store.catalogue.marketsOf(merchantId).length;
      })
      .add("market list, memoised (catalog.markets())", () => {
        sink += catalog.markets().length;
      })
      .add("static select + render (stored JSON), 5 products", () => {
        sink += renderStatic(i++).byteLength;
      })
      .add("pool round trip (run ping)", async () => {
        const result = await pool!.run({ kind: "ping" });
        sink += result.body.byteLength + 1;
      });
    await bench.run();
    if (sink === -1) console.log(sink);
    const core: MicroResult[] = bench.tasks.map((task) =>
      summarise(
        task,
        task.name.startsWith("pool round trip")
          ? { name: "poolRoundTripP50", stat: "p50" }
          : task.name.startsWith("LMDB product read")
            ? { name: "storeReadP50", stat: "p50" }
            : undefined,
      ),
    );
    await pool.close();
    pool = null;

    const hotOps = await runHotOps(store, merchantId, demo.apiKey, timing);
    const ranking = await runRankingSuites(store, merchantId, demo.apiKey, { timing, budget: "rankingDemoP99" });
    const { productsWithNeighbours: sold, productsWithoutNeighbours: unsold, shortOneInputSets, oneInputSets } = ranking.facts;
    // Last: it writes orders into the store.
    const updates = await runUpdateSuites(store, merchantId, { timing });
    return [
      { title: "micro (tinybench, in the bench process)", results: core },
      hotOps,
      {
        title: "ranking on the demo store (worker task functions, in-process)",
        results: ranking.results,
        note:
          `the demo has ${sold} products with a bought-together list and ${unsold} without; ` +
          `${shortOneInputSets} of the ${oneInputSets} one-input sets have fewer bought-together candidates than the limit, so they also compute the trending fallback`,
      },
      { title: "order updates on the demo store (in-process, LMDB commit awaited)", results: updates },
    ];
  } finally {
    await pool?.close();
    await store.close();
    removeTempDir(dataDir);
  }
}
