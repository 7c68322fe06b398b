// The scale curve (opt-in, `--scale`): synthetic merchants of growing size —
// the demo generator's proportions (2 customers per 3 products, orders per
// customer over 90 days, 10 view sessions per customer) — each generated and
// imported into a fresh data dir by a child process (scale-shop.ts) that exits
// before the server starts, then served by a real `aisle serve`: cold start,
// RSS, import rates, and the p99 of every product endpoint under the same load
// as the default bench. Sizes run smallest first; a size that fails or passes
// its time cap is reported as far as it got, and the next sizes still run. A
// child that dies is reported with its exit status and last stderr lines.
import { readFileSync, writeFileSync } from "node:fs";
import { totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { RATE_LIMITS_OFF, rssMB, rssPartsMB, startAisle, type AisleProcess } from "../shared/aisle-process.js";
import { loadGenerator, wrkRun, type LoadGenerator } from "../load/wrk-scenario.js";
import { makeTempDir, removeTempDir, spawnTracked, stopChild } from "../shared/children.js";
import { pageCacheShare } from "../shared/page-cache.js";
import type { Rotation } from "../load/endpoint-paths.js";
import { builderHeapMB, describeError, describeExit, maxMapCount, remember } from "../shared/exit-cause.js";
import type { CurveOptions, CurvePoint, LoadSettings, WorkerMemory } from "../shared/results.js";
import { readTaskHistogram, tasksBetween } from "../load/pool-task-metrics.js";
import { methodAndPath } from "../load/request-line.js";
import { count } from "../report/format.js";
import { emptyShopOutcome, readShopReport, type ShopReport, type ShopRequest } from "./scale-shop.js";
import { Store } from "../../src/stores/store.js";
import { ceilingRun, scenario, type LoadRun } from "../load/scenario.js";

/**
 * The similar-products build before the server starts, up to --similar-up-to
 * products (75–90 s at 100k). Bigger shops have theirs trained by the server in
 * a background thread while the endpoints run (the report says so); past 100k
 * products its neighbour lists are clustered rather than exact (models/README.md).
 */
export const DEFAULT_CURVE: CurveOptions = {
  sizes: [10_000, 100_000, 1_000_000],
  maxImportMinutes: 12,
  similarUpTo: 100_000,
  maxCustomers: null,
  reuseShop: null,
};

export function curveOptionsFrom(argv: readonly string[]): CurveOptions {
  const at = argv.indexOf("--sizes");
  const sizes = at === -1 ? DEFAULT_CURVE.sizes : (argv[at + 1] ?? "").split(",").map(Number);
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 100))
    throw new Error("--sizes needs a comma-separated list of product counts ≥ 100");
  const number = (flag: string, fallback: number) => {
    const i = argv.indexOf(flag);
    return i === -1 ? fallback : Number(argv[i + 1]);
  };
  const cap = argv.indexOf("--max-customers");
  const reuse = argv.indexOf("--reuse-shop");
  const reuseShop = reuse === -1 ? null : (argv[reuse + 1] ?? "");
  if (reuseShop === "") throw new Error("--reuse-shop needs the data dir of a shop built by scale-shop.ts");
  if (reuseShop !== null && ["--sizes", "--max-import-min", "--similar-up-to", "--max-customers"].some((flag) => argv.includes(flag))) {
    throw new Error(
      "--reuse-shop serves a shop as it was built: --sizes, --max-import-min, --similar-up-to and --max-customers do not apply",
    );
  }
  return {
    // A kept shop is one point, of its own size.
    sizes: reuseShop === null ? sizes : [keptShopProducts(reuseShop)],
    maxImportMinutes: number("--max-import-min", DEFAULT_CURVE.maxImportMinutes),
    similarUpTo: number("--similar-up-to", DEFAULT_CURVE.similarUpTo),
    maxCustomers: cap === -1 ? null : Number(argv[cap + 1]),
    reuseShop,
  };
}

/** The catalogue size of a kept shop, as its report says it was imported. */
function keptShopProducts(dataDir: string): number {
  const products = readShopReport(dataDir).imports.find((kind) => kind.kind === "products")?.total;
  if (products === undefined) throw new Error(`${dataDir} holds no shop report with imported products`);
  return products;
}

/** Load of each endpoint at each size: shorter than the default bench's, the same connections. */
export const CURVE_LOAD: LoadSettings = { connections: 10, durationS: 3, warmupS: 1, timeoutS: 2 };

const FIRST_REQUEST_CAP_MS = 600_000;
const RSS_SAMPLE_MS = 1_000;
const SHOP_CHILD = fileURLToPath(new URL("./scale-shop.js", import.meta.url));

/** A size whose figures are all still to come (NaN, empty, null). */
export function emptyPoint(products: number): CurvePoint {
  return {
    products,
    ...emptyShopOutcome(),
    build: { peakRssMB: NaN, heapLimitMB: NaN },
    coldStartMs: NaN,
    pageCacheAtStart: null,
    rssAfterStartMB: NaN,
    rssAfterStartParts: { anon: NaN, file: NaN },
    rssAfterLoadMB: NaN,
    rssAfterLoadParts: { anon: NaN, file: NaN },
    rssSamples: [],
    endpoints: [],
    firstRequestMs: new Map(),
    poolTasks: new Map(),
    serverDeath: null,
    workerMemory: null,
    serverNotes: [],
  };
}

/**
 * Generates and imports one shop into `dataDir` in a child process with a big
 * heap (scale-shop.ts), waits for it to exit, and returns what it reported.
 */
async function buildShopInChild(request: ShopRequest, log: (line: string) => void): Promise<ShopReport> {
  const heapMB = builderHeapMB(
    totalmem(),
    maxMapCount(() => readFileSync("/proc/sys/vm/max_map_count", "utf8")),
  );
  const started = performance.now();
  const child = spawnTracked(process.execPath, [`--max-old-space-size=${heapMB}`, SHOP_CHILD, JSON.stringify(request)], {
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  const stderrTail: string[] = [];
  // The child's progress lines pass through; the tail names the cause if it dies.
  createInterface({ input: child.stderr! }).on("line", (line) => {
    process.stderr.write(`${line}\n`);
    remember(stderrTail, line);
  });
  let report: ShopReport | null = null;
  child.on("message", (message) => (report = message as ShopReport));
  const status = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  const afterS = (performance.now() - started) / 1000;
  if (report === null || status.code !== 0) {
    throw new Error(describeExit(`the shop-building child (--max-old-space-size=${heapMB})`, status, stderrTail, { afterS }));
  }
  log(`shop-building child exited after ${afterS.toFixed(0)} s`);
  return report;
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

/** The server's exit, if it comes within `ms` (a failed request often arrives a moment before the exit event). */
async function exitWithin(aisle: AisleProcess, ms: number): Promise<boolean> {
  if (aisle.exit !== null) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const exited = await Promise.race([aisle.exited.then(() => true), timeout]);
  clearTimeout(timer);
  return exited;
}

/**
 * A run of an endpoint's rotation, for aisle and then for its ceiling: by wrk
 * when installed and the rotation sends one method (wrk's script sends one),
 * else by the autocannon client. Writes the rotation to `pathsFile`, which the
 * runs read.
 */
function rotationRun(rotation: Rotation, pathsFile: string, generator: LoadGenerator, settings = CURVE_LOAD): LoadRun {
  const lines = rotation.paths.map((line) => methodAndPath(line, "GET"));
  const method = lines[0]!.method;
  if (generator.wrk && lines.every((line) => line.method === method)) {
    writeFileSync(pathsFile, `${lines.map((line) => line.path).join("\n")}\n`);
    return wrkRun(pathsFile, method, settings, generator);
  }
  // By file: a rotation of thousands of keystrokes would not fit in the client's argv.
  writeFileSync(pathsFile, `${rotation.paths.join("\n")}\n`);
  const shape = { pathsFile, ...(rotation.paths.some((line) => line.startsWith("POST ")) ? { rotation: "shared" as const } : {}) };
  return (name, target, origin, budgets) => scenario(name, target, origin, [], settings, budgets, shape);
}

/**
 * The ceiling's req/s for a rotation just run against aisle (after it:
 * recording aisle's bytes fills its cache). A ceiling that fails while the
 * server lives is said in `errors`, and the row keeps aisle's own figures.
 */
async function ceilingOf(
  server: AisleProcess,
  rotation: Rotation,
  scratch: string,
  run: LoadRun,
  errors: string[],
): Promise<number | undefined> {
  try {
    return (await ceilingRun(server.origin, rotation.paths, scratch, run)).reqPerSec;
  } catch (error) {
    if (server.exit !== null) throw error;
    errors.push(`${rotation.name}: no ceiling: ${describeError(error)}`);
    return undefined;
  }
}

/** Starts `aisle serve` on the imported shop and loads every product endpoint in turn. */
async function serveAndLoad(
  point: CurvePoint,
  dataDir: string,
  rotations: Rotation[],
  apiKey: string,
  log: (line: string) => void,
): Promise<void> {
  let aisle: AisleProcess | null = null;
  let sampler: NodeJS.Timeout | undefined;
  const scratch = makeTempDir("aisle-bench-curve-scratch-");
  const generator = loadGenerator(scratch);
  const death = (server: AisleProcess) =>
    describeExit("aisle serve", server.exit!, server.stderrTail, {
      afterS: (performance.now() - server.spawnedAt) / 1000,
      rss: point.rssSamples,
    });
  try {
    point.pageCacheAtStart = pageCacheShare(dataDir);
    log("starting aisle serve on the imported shop…");
    aisle = await startAisle(dataDir, "adm_bench_scale", false, RATE_LIMITS_OFF);
    const server = aisle;
    if (server.apiKey !== apiKey) throw new Error("aisle serve printed another API key than the shop-building child created");
    point.coldStartMs = server.coldStartMs;
    const { total: startTotal, anon: startAnon, file: startFile } = rssPartsMB(server.pid);
    point.rssAfterStartMB = startTotal;
    point.rssAfterStartParts = { anon: startAnon, file: startFile };
    let lastLogged = -Infinity;
    sampler = setInterval(() => {
      if (server.exit !== null) return;
      try {
        const sample = { atS: (performance.now() - server.spawnedAt) / 1000, mb: rssMB(server.pid) };
        point.rssSamples.push(sample);
        if (sample.atS - lastLogged >= 30) {
          lastLogged = sample.atS;
          log(`server RSS ${count(sample.mb)} MB at ${sample.atS.toFixed(0)} s`);
        }
      } catch {
        // exited between the check and the read
      }
    }, RSS_SAMPLE_MS);
    for (const [at, rotation] of rotations.entries()) {
      try {
        log(`${rotation.name}: first request…`);
        point.firstRequestMs.set(rotation.name, await firstRequest(server.origin, rotation.paths[0]!));
        const run = rotationRun(rotation, join(scratch, "rotation.txt"), generator);
        const tasksBefore = await readTaskHistogram(server.origin);
        const measured = await run(rotation.name, "aisle", server.origin, { p99: rotation.budget });
        const tasks = tasksBetween(tasksBefore, await readTaskHistogram(server.origin));
        if (tasks !== null) point.poolTasks.set(rotation.name, tasks);
        if (server.exit !== null) throw new Error("the server died during the load run");
        const ceiling = await ceilingOf(server, rotation, scratch, run, point.errors);
        point.endpoints.push(ceiling === undefined ? measured : { ...measured, sameRequestCeiling: ceiling });
      } catch (error) {
        if (await exitWithin(server, 2_000)) {
          point.serverDeath = death(server);
          point.errors.push(`${rotation.name}: ${point.serverDeath}`);
          const rest = rotations.slice(at + 1).map((r) => r.name.replace(/\s*\(.*$/, ""));
          if (rest.length > 0) point.errors.push(`${rest.join(", ")}: not run (the server had died)`);
          log(point.serverDeath);
          break;
        }
        point.errors.push(`${rotation.name}: ${describeError(error)}`);
      }
    }
    if (server.exit === null) {
      const { total, anon, file } = rssPartsMB(server.pid);
      point.rssAfterLoadMB = total;
      point.rssAfterLoadParts = { anon, file };
    }
  } finally {
    clearInterval(sampler);
    removeTempDir(scratch);
    if (aisle) {
      point.serverNotes = [...aisle.notable];
      await stopChild(aisle.child, 30_000);
    }
  }
}

/** The pool sizes compared for what an extra worker holds. */
const COMPARED_POOLS = [1, 3] as const;
/** Each compared server's load: every endpoint for two seconds, enough to hand tasks to every worker. */
const POOL_LOAD: LoadSettings = { connections: 10, durationS: 2, warmupS: 0, timeoutS: 2 };

/**
 * The server's anonymous memory with a pool of one worker and of three, each
 * a fresh server on the same shop, read after the same load of every endpoint
 * (its first request alone, then POOL_LOAD), which must be answered without a
 * fault. Null when the shop has no similar-products model: each server would
 * then train one while it is measured, at whatever stage the reading finds it.
 */
async function measureWorkerMemory(
  dataDir: string,
  rotations: Rotation[],
  apiKey: string,
  log: (line: string) => void,
): Promise<WorkerMemory | null> {
  if (!(await holdsSimilarModel(dataDir))) return null;
  const scratch = makeTempDir("aisle-bench-pool-scratch-");
  const generator = loadGenerator(scratch);
  const anonWith = async (workers: number): Promise<number> => {
    const pool = `${workers} pool worker${workers === 1 ? "" : "s"}`;
    log(`memory with ${pool}…`);
    const server = await startAisle(dataDir, "adm_bench_scale", false, { ...RATE_LIMITS_OFF, AISLE_WORKERS: String(workers) });
    try {
      if (server.apiKey !== apiKey) throw new Error("aisle serve printed another API key than the shop-building child created");
      for (const rotation of rotations) {
        await firstRequest(server.origin, rotation.paths[0]!);
        const run = rotationRun(rotation, join(scratch, "rotation.txt"), generator, POOL_LOAD);
        const result = await run(`${rotation.name}, ${pool}`, "aisle", server.origin, {});
        const faults = result.errors + result.timeouts + result.non2xx;
        if (faults > 0 || !(result.okPerSec > 0))
          throw new Error(`${rotation.name} with ${pool}: ${faults} faults, ${count(result.okPerSec)} answers/s`);
      }
      if (server.exit !== null) throw new Error(`the server with ${pool} died during its load`);
      return rssPartsMB(server.pid).anon;
    } finally {
      await stopChild(server.child, 30_000);
    }
  };
  try {
    const [fewer, more] = COMPARED_POOLS;
    return { workers: COMPARED_POOLS, anonMB: [await anonWith(fewer), await anonWith(more)], load: POOL_LOAD };
  } finally {
    removeTempDir(scratch);
  }
}

/** Whether the shop's data dir holds the demo merchant's similar-products model (read while no server runs on it). */
async function holdsSimilarModel(dataDir: string): Promise<boolean> {
  const store = Store.open(dataDir, { mustExist: true });
  try {
    return store.similar.manifest("demo") !== undefined;
  } finally {
    await store.close();
  }
}

/** `onPoint` is called after each size with every point so far: a long curve is reported as it goes. */
export async function runScaleCurve(options: CurveOptions, onPoint: (points: CurvePoint[]) => void = () => {}): Promise<CurvePoint[]> {
  const points: CurvePoint[] = [];
  for (const products of options.sizes) {
    const log = (line: string) => process.stderr.write(`  scale ${count(products)}: ${line}\n`);
    const point = emptyPoint(products);
    points.push(point);
    const dataDir = options.reuseShop ?? makeTempDir("aisle-bench-curve-");
    try {
      const customers = Math.min(Math.round((products * 2) / 3), options.maxCustomers ?? Infinity);
      const request: ShopRequest = {
        products,
        customers,
        dataDir,
        maxImportMinutes: options.maxImportMinutes,
        buildSimilar: products <= options.similarUpTo,
      };
      const { rotations, apiKey, peakRssMB, heapLimitMB, ...shop } = options.reuseShop
        ? readShopReport(dataDir)
        : await buildShopInChild(request, log);
      Object.assign(point, shop, { build: { peakRssMB, heapLimitMB } });
      if (rotations === null || apiKey === null) throw new Error("the shop-building child read no endpoint rotations from the shop");
      await serveAndLoad(point, dataDir, Object.values(rotations) as Rotation[], apiKey, log);
      if (point.serverDeath === null) {
        try {
          point.workerMemory = await measureWorkerMemory(dataDir, Object.values(rotations) as Rotation[], apiKey, log);
          if (point.workerMemory === null)
            point.errors.push("per-worker memory: the shop has no similar-products model yet (each server would train one while measured)");
        } catch (error) {
          point.errors.push(`per-worker memory: ${describeError(error)}`);
        }
      }
    } catch (error) {
      point.errors.push(describeError(error));
      log(`stopped: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      if (!options.reuseShop) removeTempDir(dataDir);
    }
    onPoint(points);
  }
  return points;
}
