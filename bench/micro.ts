// Micro suites (tinybench, in this process) for the hot operations that exist
// today, on a freshly seeded demo store. They explain the load figures: a cache
// hit is parse + key + cache get + write; a miss adds a pool hop and the render.
import { Bench, type Task } from "tinybench";
import { ResponseCache } from "../src/cache/response-cache.js";
import { loadConfig } from "../src/config.js";
import { STATIC_PRODUCTS } from "../src/core/api/endpoints.js";
import { isProductAvailable } from "../src/core/availability.js";
import { jsonBytes } from "../src/core/json.js";
import { canonicalParams, parseParams, type ParsedParams } from "../src/core/params/parse.js";
import { listOptionsFrom, staticSelectionFrom } from "../src/core/products/query.js";
import { renderProductList } from "../src/core/products/render.js";
import { staticCandidates } from "../src/core/products/static-selection.js";
import { seedDemo } from "../src/demo/seed.js";
import type { RequestInfo } from "../src/http/router.js";
import { storefrontRoutes } from "../src/http/routes/storefront.js";
import { WorkerPool } from "../src/pool/pool.js";
import { merchantCatalog } from "../src/stores/catalog.js";
import { Store } from "../src/stores/store.js";
import { VERSION } from "../src/version.js";
import { makeTempDir, removeTempDir } from "./children.js";

export interface MicroResult {
  name: string;
  p50Us: number;
  p99Us: number;
  opsPerSec: number;
  samples: number;
  error?: string;
}

export interface MicroOptions {
  quick: boolean;
}

const ID_SETS = 64;

/** Ids the static endpoint will actually return (in stock, active), so every set renders 5 products. */
function listedIds(store: Store, merchantId: string): number[] {
  return store.productIds(merchantId).filter((id) => {
    const product = store.product(merchantId, id);
    return product !== undefined && product.status === "active" && isProductAvailable(product);
  });
}

function mustParse(query: URLSearchParams): ParsedParams {
  const parsed = parseParams(STATIC_PRODUCTS.params, query);
  if (!parsed.ok) throw new Error(`bench query rejected: ${parsed.message}`);
  return parsed.params;
}

function summarise(task: Task): MicroResult {
  const result = task.result;
  if (result.state === "errored") return { name: task.name, p50Us: NaN, p99Us: NaN, opsPerSec: NaN, samples: 0, error: String(result.error) };
  if (result.state !== "completed" && result.state !== "aborted-with-statistics") {
    return { name: task.name, p50Us: NaN, p99Us: NaN, opsPerSec: NaN, samples: 0, error: result.state };
  }
  return {
    name: task.name,
    p50Us: result.latency.p50 * 1000,
    p99Us: result.latency.p99 * 1000,
    // Mean period rather than mean of per-sample rates: the latter overweights the fastest samples.
    opsPerSec: 1000 / result.period,
    samples: result.latency.samplesCount,
  };
}

export async function runMicro(options: MicroOptions): Promise<MicroResult[]> {
  const dataDir = makeTempDir("aisle-bench-micro-");
  const store = Store.open(dataDir);
  let pool: WorkerPool | null = null;
  try {
    const demo = await seedDemo(store);
    const merchantId = demo.merchantId;
    const allIds = store.productIds(merchantId);
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
      return jsonBytes({ data: renderProductList(catalog, candidates, { ...list, restrictTo }) });
    };
    const sampleBody = renderStatic(0);

    // A cache holding one entry per id set, keyed the way the product endpoint keys it.
    const cache = new ResponseCache(256 * 1024 * 1024);
    const version = store.version(merchantId, "catalogue");
    const cacheKeys = idSets.map((ids) => `${merchantId}|${STATIC_PRODUCTS.path}|${canonicalParams(mustParse(new URLSearchParams(queryFor(ids))))}|v${version}`);
    for (const key of cacheKeys) cache.set(key, sampleBody, Date.now());

    pool = new WorkerPool({ dataDir, threads: 1, maxQueue: 2_048 });

    // The real static route with the real services: on a hit it answers synchronously on this thread.
    const config = loadConfig({}, { dataDir });
    const route = storefrontRoutes({ store, pool, cache: new ResponseCache(config.cacheMaxBytes), config, adminToken: "bench", version: VERSION, now: Date.now })
      .find((r) => r.pattern === STATIC_PRODUCTS.path);
    if (!route) throw new Error("no static products route");
    const request = (): RequestInfo => ({ method: "GET", path: STATIC_PRODUCTS.path, query: new URLSearchParams(hitQuery), headers: {}, body: null, params: {} });
    await route.handle(request()); // the first call is the miss that fills the cache
    const hitQueryParams = new URLSearchParams(hitQuery);

    const bench = new Bench({
      time: options.quick ? 300 : 1_500,
      warmupTime: options.quick ? 100 : 300,
      timestampProvider: "hrtimeNow",
    });
    let i = 0;
    let sink = 0; // results feed a sink so the JIT cannot drop the work
    bench
      .add("LMDB product read (store.product)", () => {
        sink += store.product(merchantId, allIds[i++ % allIds.length]!)?.variants.length ?? 0;
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
      // renderProductList reads the merchant's markets on every call, country_code or not:
      // timed alone so its share of a miss is visible.
      .add("market list read (store.marketsOf)", () => {
        sink += store.marketsOf(merchantId).length;
      })
      .add("static select + render + jsonBytes, 5 products", () => {
        sink += renderStatic(i++).byteLength;
      })
      .add("pool round trip (run ping)", async () => {
        const result = await pool!.run({ kind: "ping" });
        sink += result.ok ? 1 : 0;
      });
    await bench.run();
    if (sink === -1) console.log(sink);
    return bench.tasks.map(summarise);
  } finally {
    await pool?.close();
    await store.close();
    removeTempDir(dataDir);
  }
}
