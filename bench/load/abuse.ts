// `npm run bench -- --abuse`: does one abusive key leave another key's latency
// alone? A real `aisle serve` on the demo (key B) and a second shop created
// through the admin API (key A), every key limited to PRODUCT_READS_LIMIT
// product reads. Key B sends a paced load of cached and uncached lists: alone,
// while key A floods from hundreds of connections (most answered 429) with
// cached lists, then with half of them bust_cache, and alone again. The server,
// B's two load generators and A's flood share the machine's cores, the flood
// at the lowest priority (a real abuser's client is remote): a refused request
// still costs the HTTP thread its parsing and answer.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { RECOMMENDED, STATIC_PRODUCTS } from "../../src/core/api/endpoints.js";
import { Store } from "../../src/stores/store.js";
import { cpuMicros, startAisle, type AisleProcess } from "../shared/aisle-process.js";
import { makeTempDir, removeTempDir, stopChild } from "../shared/children.js";
import { describeError, describeExit } from "../shared/exit-cause.js";
import { recommendationInputs } from "../shared/inputs.js";
import { machineBusyMicros } from "../shared/machine-cpu.js";
import type { AbusePhase, AbuseReport, PhaseCpu } from "../shared/results.js";
import { endpointRotations } from "./endpoint-paths.js";
import { fetchList, fetchOk } from "./scenario.js";
import { createSecondShop } from "./second-shop.js";
import { findWrk, startRotation, wrkFigures, type WrkRotationSpec } from "./wrk-client.js";

/** Low enough that one wrk process floods far past it on this machine, high enough that key B's load stays well under it. */
const PRODUCT_READS_LIMIT = { perSecond: 1_000, burst: 2_000 };
/** Key B's cached rotation: recommendations for this many products, each answered from the cache after a first request. */
const CACHED_URLS = 16;
/**
 * Key B: two wrk processes (cached, uncached) of 2 connections each, every
 * connection pausing 10 ms after each answer: under 200 req/s apiece, under 400
 * together, well under the limit, so B is never refused itself.
 */
const B_CONNECTIONS = 2;
const B_PAUSE_MS = 10;
/** Key A: one wrk thread as fast as it goes. */
const FLOOD_CONNECTIONS = 256;
/**
 * Key A's wrk runs at the lowest priority: in real life the abuser is a remote
 * client, so on a 2-core machine it must not take the server's CPU. It still
 * gets whatever the server leaves idle, and its CPU is reported.
 */
const FLOOD_NICENESS = 19;
const TIMEOUT_S = 2;
const DEMO_MODEL_TIMEOUT_MS = 180_000;

function timing(quick: boolean): AbuseReport["timing"] {
  // The lead lets the flood spend its burst and reach its steady state before B is measured.
  return quick ? { warmupS: 1, measuredS: 3, floodLeadS: 2, floodTailS: 2 } : { warmupS: 2, measuredS: 15, floodLeadS: 3, floodTailS: 3 };
}

/** 429 answers the server has counted since it started (aisle_http_requests_total, every route). */
async function tooManyRequestsSoFar(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  let total = 0;
  for (const [, value] of text.matchAll(/^aisle_http_requests_total\{[^}]*status="429"[^}]*\} (\S+)$/gm)) total += Number(value);
  return total;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU time of a process that must still be running, or an error naming it. */
function cpuOf(what: string, pid: number): number {
  try {
    return cpuMicros(pid);
  } catch (error) {
    throw new Error(`${what} (pid ${pid}) has ended before key B's measured seconds did: ${describeError(error)}`);
  }
}

/** Key B's two loads, warm-up then measured, and the cores used over the measured seconds. */
async function measureKeyB(
  aisle: AisleProcess,
  loads: { cached: WrkRotationSpec; uncached: WrkRotationSpec },
  seconds: { warmupS: number; measuredS: number },
  floodPid: number | null,
): Promise<Pick<AbusePhase, "cached" | "uncached" | "cpu">> {
  const both = (durationS: number) =>
    Promise.all([startRotation({ ...loads.cached, durationS }).result, startRotation({ ...loads.uncached, durationS }).result]);
  await both(seconds.warmupS);
  const floodCpu = () => (floodPid === null ? 0 : cpuOf("key A's wrk", floodPid));
  const before = { at: performance.now(), server: cpuOf("aisle serve", aisle.pid), flood: floodCpu(), machine: machineBusyMicros() };
  const [cached, uncached] = await both(seconds.measuredS);
  const elapsedUs = (performance.now() - before.at) * 1000;
  if (aisle.exit !== null) throw new Error(describeExit("aisle serve", aisle.exit, aisle.stderrTail));
  const cpu: PhaseCpu = {
    server: (cpuOf("aisle serve", aisle.pid) - before.server) / elapsedUs,
    floodGenerator: floodPid === null ? null : (floodCpu() - before.flood) / elapsedUs,
    machine: (machineBusyMicros() - before.machine) / elapsedUs,
  };
  return { cached: wrkFigures(cached), uncached: wrkFigures(uncached), cpu };
}

export async function runAbuse(options: { quick: boolean }): Promise<AbuseReport> {
  const generator = findWrk();
  if (generator === null) throw new Error("wrk not found (Debian: apt-get install -y wrk): the abuse suite floods with it");
  const seconds = timing(options.quick);
  const dataDir = makeTempDir("aisle-bench-abuse-");
  const scratch = makeTempDir("aisle-bench-abuse-scratch-");
  const startedAt = performance.now();
  const log = (line: string) => process.stderr.write(`  abuse [${((performance.now() - startedAt) / 1000).toFixed(0)} s]: ${line}\n`);
  let aisle: AisleProcess | null = null;
  try {
    log(`starting aisle serve (AISLE_RATE_LIMIT_PRODUCT_READS=${PRODUCT_READS_LIMIT.perSecond}/${PRODUCT_READS_LIMIT.burst})…`);
    const server = await startAisle(dataDir, "adm_bench_abuse", true, {
      AISLE_RATE_LIMIT_PRODUCT_READS: `${PRODUCT_READS_LIMIT.perSecond}/${PRODUCT_READS_LIMIT.burst}`,
    });
    aisle = server;
    // Training takes a core for ~10 s: measured from here on, it would weigh on the first phase only.
    await server.untilTrained("demo", DEMO_MODEL_TIMEOUT_MS);
    const { origin, apiKey } = server;

    // Key B: the demo. Cached: recommendations for products with a bought-together list, each
    // requested once before so the load is answered from the cache; uncached: the default
    // bench's recommended cache-miss rotation (bust_cache: every request a task for the pool).
    const store = Store.open(dataDir);
    let cachedPaths: string[];
    let uncachedPaths: string[];
    try {
      const { withNeighbours } = recommendationInputs(store, "demo");
      if (withNeighbours.length < CACHED_URLS) throw new Error(`only ${withNeighbours.length} demo products have a bought-together list`);
      cachedPaths = withNeighbours.slice(0, CACHED_URLS).map((id) => `${RECOMMENDED.path}?key=${apiKey}&platform_product_ids=${id}`);
      uncachedPaths = endpointRotations(store, "demo", apiKey).recommendedMiss.paths;
    } finally {
      await store.close();
    }
    for (const path of cachedPaths) {
      await fetchList(`${origin}${path}`);
      const again = await fetchList(`${origin}${path}`);
      if ((again.metadata?.cache_info?.cached_at_time ?? "never") === "never") throw new Error(`${path} was not answered from the cache`);
    }
    for (const path of uncachedPaths.slice(0, 3)) await fetchList(`${origin}${path}`);

    // Key A: the second shop, flooding the lists a widget of its own would ask for: cached (a refusal
    // or a cache hit each), then half of them with bust_cache (what it is allowed becomes pool tasks).
    const shop = await createSecondShop(origin, server.adminToken);
    const cachedFlood = shop.productIds.map(
      (id, n) => `${STATIC_PRODUCTS.path}?key=${shop.apiKey}&ids=${id},${shop.productIds[(n + 1) % shop.productIds.length]}`,
    );
    const mixedFlood = cachedFlood.flatMap((path) => [path, `${path}&bust_cache=yes`]);
    for (const path of mixedFlood) await fetchOk(`${origin}${path}`);

    const file = (name: string, paths: string[]) => {
      const path = join(scratch, `${name}.txt`);
      writeFileSync(path, `${paths.join("\n")}\n`);
      return path;
    };
    const keyB = (pathsFile: string): WrkRotationSpec => ({
      origin,
      pathsFile,
      method: "GET",
      connections: B_CONNECTIONS,
      durationS: seconds.measuredS,
      timeoutS: TIMEOUT_S,
      pauseMs: B_PAUSE_MS,
      scratch,
    });
    const loads = { cached: keyB(file("key-b-cached", cachedPaths)), uncached: keyB(file("key-b-uncached", uncachedPaths)) };

    const phases: AbusePhase[] = [];
    const alone = async (name: string) => {
      log(`key B ${name} (${seconds.warmupS} s warm-up + ${seconds.measuredS} s)…`);
      phases.push({ name, ...(await measureKeyB(server, loads, seconds, null)), flood: null });
    };
    const flooded = async (name: string, paths: string[]) => {
      log(`key B while ${name} (${paths.length} URLs, ${FLOOD_CONNECTIONS} connections)…`);
      const refusedBefore = await tooManyRequestsSoFar(origin);
      const flood = startRotation({
        origin,
        pathsFile: file(`key-a-flood-${phases.length}`, paths),
        method: "GET",
        connections: FLOOD_CONNECTIONS,
        durationS: seconds.floodLeadS + seconds.warmupS + seconds.measuredS + seconds.floodTailS,
        timeoutS: TIMEOUT_S,
        pauseMs: 0,
        scratch,
        niceness: FLOOD_NICENESS,
      });
      await sleep(seconds.floodLeadS * 1000);
      const underFlood = await measureKeyB(server, loads, seconds, flood.pid);
      const floodRun = await flood.result;
      const tooManyRequests = (await tooManyRequestsSoFar(origin)) - refusedBefore;
      phases.push({ name, ...underFlood, flood: { ...wrkFigures(floodRun), urls: paths.length, tooManyRequests } });
    };
    await alone("alone (before)");
    await flooded("A floods cached lists", cachedFlood);
    await flooded("A floods, half bust_cache", mixedFlood);
    await alone("alone (after)");

    return {
      productReadsLimit: PRODUCT_READS_LIMIT,
      keyB: {
        merchant: "demo",
        cachedUrls: cachedPaths.length,
        uncachedUrls: uncachedPaths.length,
        connectionsPerLoad: B_CONNECTIONS,
        pauseMs: B_PAUSE_MS,
      },
      keyA: { merchant: shop.merchant, products: shop.productIds.length, connections: FLOOD_CONNECTIONS, niceness: FLOOD_NICENESS },
      timing: seconds,
      phases,
      generator,
    };
  } catch (error) {
    if (aisle) process.stderr.write(`  aisle output (last lines):\n${aisle.tail.map((l) => `    ${l}`).join("\n")}\n`);
    throw error;
  } finally {
    if (aisle) await stopChild(aisle.child, 10_000);
    removeTempDir(scratch);
    removeTempDir(dataDir);
  }
}
