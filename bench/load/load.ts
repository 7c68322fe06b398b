// Load runs against a real `aisle serve` on loopback, with the raw-uWS ceiling
// measured in the same run. Each scenario is one load-client process; the
// server, the ceiling and the client are separate processes sharing the cores.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ANALYTICS_EVENT, RECOMMENDED, STATIC_PRODUCTS } from "../../src/core/api/endpoints.js";
import { isProductAvailable } from "../../src/core/availability.js";
import { Store } from "../../src/stores/store.js";
import { cpuMicros, RATE_LIMITS_OFF, rssMB, startAisle, type AisleProcess } from "../shared/aisle-process.js";
import { makeTempDir, removeTempDir, stopChild } from "../shared/children.js";
import {
  endpointRotations,
  pageMixPaths,
  PAGE_VIEW_REQUESTS,
  staticIdSet,
  type EndpointRotations,
  type Rotation,
} from "./endpoint-paths.js";
import { prng, recommendationInputs } from "../shared/inputs.js";
import type { EventRotation, LoadReport, LoadSettings, ScenarioBudgets, ScenarioResult } from "../shared/results.js";
import { fetchList, fetchOk, pairedRun, pairedScenario, runScenario, scenario, startCeiling, type Ceiling } from "./scenario.js";
import { loadGenerator, wrkRun, wrkScenario, type LoadGenerator } from "./wrk-scenario.js";

/** How long an event scenario waits for the applier to catch up after the load stops. */
const CATCH_UP_LIMIT_MS = 120_000;
/** The demo's similar-products model trains in ~10 s; this allows for a slow machine. */
const DEMO_MODEL_TIMEOUT_MS = 180_000;

/** aisle_events_unapplied from the service's /metrics. */
async function unappliedEvents(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const line = /^aisle_events_unapplied (\S+)$/m.exec(text);
  if (!line) throw new Error("/metrics has no aisle_events_unapplied");
  return Number(line[1]);
}

/**
 * Waits until every acknowledged event is applied. A run can outpace the
 * applier for a while (events then wait, acknowledged, on the HTTP thread), so
 * the throughput figure is only sustainable if the applier catches up; how far
 * behind it was and how long it took are reported beside it.
 */
async function awaitCatchUp(origin: string): Promise<{ unappliedAtEnd: number; catchUpSeconds: number | null }> {
  const started = performance.now();
  const unappliedAtEnd = await unappliedEvents(origin);
  let unapplied = unappliedAtEnd;
  while (unapplied > 0 && performance.now() - started < CATCH_UP_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    unapplied = await unappliedEvents(origin);
  }
  return { unappliedAtEnd, catchUpSeconds: unapplied > 0 ? null : (performance.now() - started) / 1000 };
}

/** Page views in the page-mix rotation, each PAGE_VIEW_REQUESTS requests. */
const PAGE_MIX_PAGES = 500;
/** Event ingest: distinct session uuids, and events per session in one pass of the rotation. */
const EVENT_SESSIONS = 10_000;
const EVENTS_PER_SESSION = 4;
/** One event in this many is an add-to-cart; the rest are product views. */
const ADDED_EVERY = 20;
/** Closed-loop connections of the event-ingest runs: acknowledged events/s ≤ connections ÷ commit latency. */
export const EVENT_CONNECTIONS = [64, 512] as const;

/**
 * The request timeout is far above any budget, but short enough that a request
 * stuck for good (a starved queue) shows up as timeouts within the run instead
 * of silently idling one connection and vanishing from the latency figures.
 */
export function loadSettings(quick: boolean): LoadSettings {
  const timeoutS = 2;
  // Every scenario runs twice (aisle, then raw uWS with its bytes), the hits and judged
  // misses again under wrk: --quick is ~3 min of load; a full run, with three
  // single-connection runs, about 6 min.
  return quick ? { connections: 10, durationS: 2, warmupS: 0.5, timeoutS } : { connections: 10, durationS: 5, warmupS: 1, timeoutS };
}

interface DemoInputs {
  /** Ids static returns (active, in stock). */
  listed: number[];
  /** Handles of the active products (what a storefront shows product pages for). */
  handles: string[];
  /** Ids the bought-together model has a neighbour list for. */
  withNeighbours: number[];
  /** Every product endpoint's request rotation, and the page mix. */
  rotations: EndpointRotations;
  pageMix: string[];
}

/** Real ids of the demo, read from the server's own LMDB env. */
async function demoInputs(dataDir: string, apiKey: string): Promise<DemoInputs> {
  // LMDB allows readers in other processes; this one only reads and closes at once.
  const store = Store.open(dataDir);
  try {
    const listed: number[] = [];
    const handles: string[] = [];
    for (const id of store.catalogue.productIds("demo")) {
      const product = store.catalogue.product("demo", id);
      if (product === undefined || product.status !== "active") continue;
      handles.push(product.handle);
      if (isProductAvailable(product)) listed.push(id);
    }
    const { withNeighbours } = recommendationInputs(store, "demo");
    return {
      listed,
      handles,
      withNeighbours,
      rotations: endpointRotations(store, "demo", apiKey),
      pageMix: pageMixPaths(store, "demo", apiKey, PAGE_MIX_PAGES),
    };
  } finally {
    await store.close();
  }
}

/** The demo's latest event sequence number, read from the server's LMDB env by a fresh reader (read-only). */
async function demoEventSequence(dataDir: string): Promise<number> {
  const store = Store.open(dataDir);
  try {
    return store.events.eventSequence("demo");
  } finally {
    await store.close();
  }
}

/** A v4-shaped uuid from a seeded generator: two runs post the same sessions. */
function uuidV4(random: () => number): string {
  const hex = (digits: number) => Array.from({ length: digits }, () => Math.floor(random() * 16).toString(16)).join("");
  const variant = "89ab"[Math.floor(random() * 4)]!;
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
}

/**
 * Event URLs as a storefront sends them: EVENT_SESSIONS sessions, each posting
 * EVENTS_PER_SESSION events per pass about products drawn uniformly from the
 * real handles, sessions interleaved (session k % EVENT_SESSIONS), one event in
 * ADDED_EVERY an add-to-cart.
 */
export function eventPaths(apiKey: string, handles: readonly string[]): string[] {
  const random = prng(31);
  const uuids = Array.from({ length: EVENT_SESSIONS }, () => uuidV4(random));
  if (new Set(uuids).size !== uuids.length) throw new Error("duplicate session uuids");
  return Array.from({ length: EVENT_SESSIONS * EVENTS_PER_SESSION }, (_, k) => {
    const verb = k % ADDED_EVERY === ADDED_EVERY - 1 ? "added" : "viewed";
    const handle = handles[Math.floor(random() * handles.length)]!;
    return `${ANALYTICS_EVENT.path}?key=${apiKey}&verb=${verb}&uuid=${uuids[k % EVENT_SESSIONS]}&platform_product_handle=${encodeURIComponent(handle)}`;
  });
}

/**
 * One run of the event POSTs (one shared rotation over the paths file, so
 * concurrent requests are different sessions) against `origin`; `acknowledged`
 * counts the whole run's 2xx, warm-up included.
 */
async function eventRun(
  name: string,
  target: ScenarioResult["target"],
  origin: string,
  pathsFile: string,
  settings: LoadSettings,
  budgets: ScenarioBudgets,
  generator: LoadGenerator,
): Promise<{ result: ScenarioResult; acknowledged: number }> {
  if (!generator.wrk) {
    const run = await runScenario(name, target, origin, [], settings, budgets, { method: "POST", pathsFile, rotation: "shared" });
    return { result: { ...run.result, generator: generator.label }, acknowledged: run.acknowledged };
  }
  return wrkScenario(name, target, origin, pathsFile, "POST", settings, budgets, generator);
}

/**
 * Event ingest at one concurrency, with the store's event count read before
 * and after: every 2xx must be a stored event.
 */
async function eventScenario(
  aisle: AisleProcess,
  origin: string,
  dataDir: string,
  pathsFile: string,
  rotation: EventRotation,
  settings: LoadSettings,
  generator: LoadGenerator,
): Promise<ScenarioResult> {
  const sequenceBefore = await demoEventSequence(dataDir);
  const cpuBefore = cpuMicros(aisle.pid);
  const { result, acknowledged } = await eventRun(
    `event ingest (POST analytics/event, ${rotation.sessions.toLocaleString("en-US")} sessions), ${settings.connections} connections`,
    "aisle",
    origin,
    pathsFile,
    settings,
    { okRate: "eventIngestThroughput" },
    generator,
  );
  const catchUp = await awaitCatchUp(origin);
  const serverCpuMicrosPerEvent = (cpuMicros(aisle.pid) - cpuBefore) / Math.max(1, acknowledged);
  // The client has exited: every event it saw acknowledged was committed before its answer.
  const sequenceAfter = await demoEventSequence(dataDir);
  const stored = sequenceAfter - sequenceBefore;
  process.stderr.write(
    `  load: events stored ${stored.toLocaleString("en-US")} (sequence ${sequenceBefore} → ${sequenceAfter}) vs ${acknowledged.toLocaleString("en-US")} acknowledged (2xx): ${stored >= acknowledged ? "ok" : "LOST ACKNOWLEDGED EVENTS"}\n`,
  );
  return { ...result, events: { sequenceBefore, sequenceAfter, acknowledged, serverCpuMicrosPerEvent, ...catchUp } };
}

export async function runLoad(options: { quick: boolean }): Promise<LoadReport> {
  const settings = loadSettings(options.quick);
  const dataDir = makeTempDir("aisle-bench-data-");
  const scratch = makeTempDir("aisle-bench-scratch-");
  let aisle: AisleProcess | null = null;
  let ceiling: Ceiling | null = null;
  let eventCeiling: Ceiling | null = null;
  const generator = loadGenerator(scratch);
  if (!generator.wrk)
    process.stderr.write(
      '  load: wrk not found (Debian: apt-get install -y wrk); event ingest falls back to the autocannon client, whose own ceiling is below the 30k events/s target, and the rows marked ", wrk" are not run\n',
    );
  try {
    process.stderr.write("  load: starting aisle serve on an empty data dir (seeds the demo)…\n");
    aisle = await startAisle(dataDir, "adm_bench", true, RATE_LIMITS_OFF);
    // The demo's similar-products model trains on a background thread after listening: measured from here on, it
    // would take one of the two cores from the load runs, and context=similar would not answer from it yet.
    process.stderr.write("  load: waiting for the demo's similar-products model (trained in the background)…\n");
    await aisle.untilTrained("demo", DEMO_MODEL_TIMEOUT_MS);
    const rssAfterStartMB = rssMB(aisle.pid);
    const { origin, apiKey } = aisle;

    // Sanity checks before measuring: the key, the admin token and the ids all work.
    const merchants = Buffer.from(await fetchOk(`${origin}/admin/v1/merchants`, { Authorization: `Bearer ${aisle.adminToken}` })).toString(
      "utf8",
    );
    if (!merchants.includes('"demo"')) throw new Error(`admin merchant list lacks the demo: ${merchants.slice(0, 200)}`);
    const { listed, handles, withNeighbours, rotations, pageMix } = await demoInputs(dataDir, apiKey);
    if (listed.length < 5) throw new Error(`the demo has only ${listed.length} listed products`);
    if (withNeighbours.length < 3) throw new Error(`only ${withNeighbours.length} demo products have a bought-together list`);
    if (handles.length < 100) throw new Error(`the demo has only ${handles.length} active products with handles`);

    const hitPath = `${STATIC_PRODUCTS.path}?key=${apiKey}&ids=${staticIdSet(listed, 0)}`;
    const missPaths = rotations.staticMiss.paths;

    // Recommendations for real products the model knows: one URL for the hit, and
    // rotating sets of 1–3 ids (product pages and carts) recomputed on every request.
    const recommendedHitPath = `${RECOMMENDED.path}?key=${apiKey}&platform_product_ids=${withNeighbours[0]}`;
    const recommendedMissPaths = rotations.recommendedMiss.paths;
    const trendingMissPath = rotations.trendingMiss.paths[0]!;
    const topSellersMissPaths = rotations.topSellersMiss.paths;

    await fetchOk(`${origin}${hitPath}`); // the miss that fills the cache
    const hitBody = await fetchOk(`${origin}${hitPath}`);
    const shown = (JSON.parse(Buffer.from(hitBody).toString("utf8")) as { data: unknown[] }).data.length;
    if (shown !== 5) throw new Error(`the cache-hit URL returns ${shown} products, not 5`);
    await fetchOk(`${origin}${missPaths[0]}`);
    await fetchList(`${origin}${recommendedHitPath}`); // fills the cache
    const recommendedHit = await fetchList(`${origin}${recommendedHitPath}`);
    if ((recommendedHit.metadata?.cache_info?.cached_at_time ?? "never") === "never")
      throw new Error("the recommended cache-hit URL was not answered from the cache");
    for (const path of recommendedMissPaths.slice(0, 3)) await fetchList(`${origin}${path}`);
    await fetchList(`${origin}${trendingMissPath}`);
    // A collection may hold no product that sold in the window: only the whole-shop list must be non-empty.
    await fetchList(`${origin}${topSellersMissPaths[0]}`);
    for (const path of topSellersMissPaths) await fetchOk(`${origin}${path}`);

    // Event ingest: tens of thousands of URLs, so they go to the client by file.
    const events = eventPaths(apiKey, handles);
    const eventsFile = join(scratch, "event-paths.txt");
    writeFileSync(eventsFile, `${events.join("\n")}\n`);
    const eventRotation: EventRotation = {
      sessions: EVENT_SESSIONS,
      handles: handles.length,
      paths: events.length,
      addedShare: 1 / ADDED_EVERY,
    };
    // One event of each verb, each acknowledged and then found in the store.
    let receipt = "";
    for (const path of [events[0]!, events[ADDED_EVERY - 1]!]) {
      const before = await demoEventSequence(dataDir);
      const response = await fetch(`${origin}${path}`, { method: "POST" });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      receipt = text;
      const after = await demoEventSequence(dataDir);
      if (after !== before + 1) throw new Error(`POST ${path} was acknowledged but the event sequence went ${before} → ${after}`);
    }

    // The ceiling answers with exactly the cache-hit bytes.
    const bodyFile = join(scratch, "static-hit.json");
    writeFileSync(bodyFile, hitBody);
    ceiling = await startCeiling(bodyFile);
    const ceilingBody = await fetchOk(`${ceiling.origin}${hitPath}`);
    if (!Buffer.from(ceilingBody).equals(Buffer.from(hitBody))) throw new Error("raw-uws body differs from aisle's");

    // The ceiling runs first and last: their spread shows how much the machine drifted meanwhile.
    const scenarios: ScenarioResult[] = [];
    scenarios.push(await scenario("raw uWS ceiling (before)", "ceiling", ceiling.origin, [hitPath], settings));
    scenarios.push(
      await scenario("static cache hit", "aisle", origin, [hitPath], settings, { p99: "staticHitP99", throughput: "staticHitThroughput" }),
    );
    // Every other scenario is paired with raw uWS answering the same requests with aisle's own bytes.
    const paired = async (name: string, paths: string[], budgets: ScenarioBudgets, shape?: Parameters<typeof pairedScenario>[6]) => {
      const run = await pairedScenario(name, origin, paths, settings, budgets, scratch, shape);
      scenarios.push(run.aisle, run.reference);
      return run.aisle;
    };
    await paired("recommended cache hit", [recommendedHitPath], { p99: "recommendedHitP99", throughput: "recommendedHitThroughput" });
    const missRotations = [
      rotations.staticMiss,
      rotations.recommendedMiss,
      rotations.similarContextMiss,
      rotations.similarProductsMiss,
      rotations.trendingMiss,
      rotations.topSellersMiss,
      rotations.viewed,
      rotations.viewedRelated,
      rotations.purchased,
    ];
    const budgetsOf = (rotation: Rotation): ScenarioBudgets => ({
      p99: rotation.budget,
      ...(rotation.throughputBudget ? { throughput: rotation.throughputBudget } : {}),
    });
    for (const rotation of missRotations) await paired(rotation.name, rotation.paths, budgetsOf(rotation));
    // Keystrokes and the page mix by file (thousands of lines), one rotation shared by all connections.
    const byFile = (name: string, lines: string[]) => {
      const pathsFile = join(scratch, `${name}.txt`);
      writeFileSync(pathsFile, `${lines.join("\n")}\n`);
      return { pathsFile, rotation: "shared" as const };
    };
    await paired(
      rotations.quickView.name,
      rotations.quickView.paths,
      { p99: rotations.quickView.budget },
      byFile("keystrokes", rotations.quickView.paths),
    );
    const mix = await paired(
      `page mix (${PAGE_MIX_PAGES} page views × 7 requests)`,
      pageMix,
      { p99: "pageMixP99" },
      byFile("page-mix", pageMix),
    );
    mix.pageRequests = PAGE_VIEW_REQUESTS;
    // The hits and the judged misses again under wrk, a faster client than autocannon, whose own ceiling
    // can pass for the server's: raw uWS then reaches more than autocannon lets it, and so may aisle.
    if (generator.wrk) {
      const wrkRows = [
        { name: "static cache hit", paths: [hitPath], budgets: { p99: "staticHitP99", throughput: "staticHitThroughput" } as const },
        {
          name: "recommended cache hit",
          paths: [recommendedHitPath],
          budgets: { p99: "recommendedHitP99", throughput: "recommendedHitThroughput" } as const,
        },
        // The misses whose throughput is judged.
        ...missRotations
          .filter((rotation) => rotation.throughputBudget !== undefined)
          .map((rotation) => ({ name: rotation.name, paths: rotation.paths, budgets: budgetsOf(rotation) })),
      ];
      const pathsFile = join(scratch, "wrk-paths.txt");
      for (const { name, paths, budgets } of wrkRows) {
        writeFileSync(pathsFile, `${paths.join("\n")}\n`);
        const wrk = wrkRun(pathsFile, "GET", settings, generator);
        // The reference is named after its client too: the table tells the pairs apart by name.
        const run = await pairedRun(`${name}, wrk`, origin, paths, budgets, scratch, (runName, target, runOrigin, runBudgets) =>
          wrk(target === "reference" ? `${runName}, wrk` : runName, target, runOrigin, runBudgets),
        );
        scenarios.push(run.aisle, run.reference);
      }
    }
    if (!options.quick) {
      // One connection: a recompute as a single shopper sees it, without the queue that
      // ten closed-loop connections build in front of the worker. Not judged: the
      // budgets above are judged under load, as for static.
      const single = { ...settings, connections: 1, durationS: 5, warmupS: 1 };
      scenarios.push(await scenario("recommended cache miss, 1 connection", "aisle", origin, recommendedMissPaths, single));
      scenarios.push(await scenario("trending_products cache miss, 1 connection", "aisle", origin, [trendingMissPath], single));
      scenarios.push(await scenario("top_sellers cache miss, 1 connection", "aisle", origin, topSellersMissPaths, single));
    }
    // Event ingest last among aisle's runs: its add-to-cart events feed trending, and the store grows.
    // Each concurrency first measures a raw uWS server answering the same POSTs with the same
    // receipt, with the same generator: the ceiling for exactly these requests, in this run.
    const receiptFile = join(scratch, "event-receipt.json");
    writeFileSync(receiptFile, receipt);
    eventCeiling = await startCeiling(receiptFile, { age: false });
    for (const connections of EVENT_CONNECTIONS) {
      const eventSettings = { ...settings, connections };
      const reference = await eventRun(
        `raw uWS, the same event POSTs, ${connections} connections`,
        "reference",
        eventCeiling.origin,
        eventsFile,
        eventSettings,
        {},
        generator,
      );
      scenarios.push(reference.result);
      const ingest = await eventScenario(aisle, origin, dataDir, eventsFile, eventRotation, eventSettings, generator);
      scenarios.push({ ...ingest, sameRequestCeiling: reference.result.okPerSec });
    }
    scenarios.push(await scenario("raw uWS ceiling (after)", "ceiling", ceiling.origin, [hitPath], settings));

    const rssAfterLoadMB = rssMB(aisle.pid);
    const ceilings = scenarios.filter((s) => s.target === "ceiling").map((s) => s.reqPerSec);
    return {
      settings,
      service: { seedMs: aisle.seedMs, startMs: aisle.startMs, coldStartMs: aisle.coldStartMs, rssAfterStartMB, rssAfterLoadMB },
      hitBodyBytes: hitBody.byteLength,
      recommendedHitBodyBytes: recommendedHit.body.byteLength,
      rotations: {
        staticMiss: missPaths.length,
        recommendedMiss: recommendedMissPaths.length,
        topSellersMiss: topSellersMissPaths.length,
        events: eventRotation,
        pageMixPages: PAGE_MIX_PAGES,
      },
      scenarios,
      ceilingReqPerSec: ceilings.reduce((a, b) => a + b, 0) / ceilings.length,
      eventGenerator: generator.label,
    };
  } catch (error) {
    if (aisle) process.stderr.write(`  aisle output (last lines):\n${aisle.tail.map((l) => `    ${l}`).join("\n")}\n`);
    throw error;
  } finally {
    await ceiling?.stop();
    await eventCeiling?.stop();
    if (aisle) await stopChild(aisle.child, 10_000);
    removeTempDir(scratch);
    removeTempDir(dataDir);
  }
}
