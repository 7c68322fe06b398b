// `npm run bench -- --memory`: does the server's memory level off under
// requests that each leave something new behind? Three runs, each on a fresh
// `aisle serve` of the demo with every rate limit off, each of `total`
// requests from one wrk process that builds a new URL per request: events of
// sessions never seen before, product lists of cache keys never asked before,
// and pool tasks (bust_cache). The server's anonymous and file-backed RSS are
// read from /proc every `every` requests, while the load runs.
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ANALYTICS_EVENT, STATIC_PRODUCTS } from "../../src/core/api/endpoints.js";
import { Store } from "../../src/stores/store.js";
import { RATE_LIMITS_OFF, rssPartsMB, startAisle, type AisleProcess } from "../shared/aisle-process.js";
import { makeTempDir, removeTempDir, stopChild } from "../shared/children.js";
import { describeError, describeExit } from "../shared/exit-cause.js";
import { listedIds } from "../shared/inputs.js";
import type { MemoryReport, MemoryRun, MemorySample } from "../shared/results.js";
import { endpointRotations } from "./endpoint-paths.js";
import { findWrk, startWrk, wrkFigures } from "./wrk-client.js";
import { countedScript, type CountedLoad } from "./wrk-scripts.js";

interface Scale {
  total: number;
  every: number;
  plateauWindow: number;
  /** wrk's -d: an upper bound; the script ends the run at `total`. */
  capS: number;
}

/** The plateau rule (see plateauOf): the floor of anonymous RSS over the last 30% of the requests, less than 5% above the 30% before. */
const PLATEAU_GROWTH = 0.05;

/** Six samples per plateau window: enough for its lowest to be after a collection of every heap that swings. */
function scaleOf(quick: boolean): Scale {
  return quick
    ? { total: 100_000, every: 5_000, plateauWindow: 30_000, capS: 600 }
    : { total: 1_000_000, every: 50_000, plateauWindow: 300_000, capS: 3_600 };
}

/** Requests of the probe run that checks, before a run, that its requests are answered 2xx. */
const PROBE_REQUESTS = 200;
const TIMEOUT_S = 2;
const DEMO_MODEL_TIMEOUT_MS = 180_000;
/** After the load: how long the applier may take to apply the events still held, then seconds left idle before the last sample. */
const CATCH_UP_LIMIT_MS = 300_000;
const IDLE_MS = 5_000;

/** The server settings that bound its memory, as the runs inherit them from the bench's environment. */
const MEMORY_SETTINGS = ["AISLE_CACHE_MB", "AISLE_WORKER_HEAP_MB", "AISLE_SEARCH_CACHE_MB", "AISLE_WORKERS"] as const;

interface RunSpec {
  name: string;
  load: CountedLoad;
  method: "GET" | "POST";
  connections: number;
  requestShape: string;
  /** The script's base and values, from the fresh server's own data. */
  inputs(store: Store, apiKey: string, scale: Scale): { base: string; values: string[] };
}

const RUNS: RunSpec[] = [
  {
    name: "events, each of a new session",
    load: "session-events",
    method: "POST",
    // As the default bench's event-ingest row: concurrent events share commits.
    connections: 64,
    requestShape:
      "POST analytics/event, verb=viewed, a uuid no request used before (the run's random prefix, then the request's number), the demo's active product handles in turn",
    inputs(store, apiKey) {
      const handles = store.catalogue
        .productIds("demo")
        .map((id) => store.catalogue.product("demo", id))
        .filter((product) => product?.status === "active")
        .map((product) => encodeURIComponent(product!.handle));
      // The first four groups of a random v4 uuid; the request's number is the fifth.
      const prefix = randomUUID().slice(0, 23);
      return { base: `${ANALYTICS_EVENT.path}?key=${apiKey}&verb=viewed&uuid=${prefix}-`, values: handles };
    },
  },
  {
    name: "distinct response-cache keys",
    load: "cache-keys",
    method: "GET",
    connections: 10,
    requestShape:
      "GET static with ids= three distinct listed demo products, a different ordered triple per request (ids keep their order, so each is its own canonical parameters and cache key): a miss computed in the pool, then stored in the cache",
    inputs(store, apiKey, scale) {
      const listed = listedIds(store, "demo").map(String);
      const n = listed.length;
      if (n * (n - 1) * (n - 2) < scale.total + PROBE_REQUESTS) throw new Error(`${n} listed demo products give too few id triples`);
      return { base: `${STATIC_PRODUCTS.path}?key=${apiKey}&ids=`, values: listed };
    },
  },
  {
    name: "pool tasks (bust_cache)",
    load: "pool-tasks",
    method: "GET",
    connections: 10,
    requestShape:
      "GET static (64 id sets) and recommended (128 id sets) with bust_cache=yes, in turn: the default bench's cache-miss rotations, each request a task for the pool",
    inputs(store, apiKey) {
      const rotations = endpointRotations(store, "demo", apiKey);
      return { base: "", values: [...rotations.staticMiss.paths, ...rotations.recommendedMiss.paths] };
    },
  },
];

/** The server's /metrics, as a reader of series: `series` is a name with its labels, as /metrics writes it. */
async function metrics(origin: string): Promise<(series: string) => number> {
  const lines = (await (await fetch(`${origin}/metrics`)).text()).split("\n");
  return (series) => {
    const line = lines.find((l) => l.startsWith(`${series} `));
    if (line === undefined) throw new Error(`/metrics has no ${series}`);
    return Number(line.slice(series.length + 1));
  };
}

async function cacheLookups(origin: string): Promise<{ hits: number; misses: number }> {
  const value = await metrics(origin);
  return {
    hits: value('aisle_response_cache_lookups_total{result="hit"}'),
    misses: value('aisle_response_cache_lookups_total{result="miss"}'),
  };
}

/** RSS first, at once: the gauges come a request later. */
async function sample(aisle: AisleProcess, requests: number, startedAt: number): Promise<MemorySample> {
  const { anon, file } = rssPartsMB(aisle.pid);
  const atS = (performance.now() - startedAt) / 1000;
  const value = await metrics(aisle.origin);
  const mb = (series: string) => value(series) / 1024 / 1024;
  return {
    requests,
    atS,
    anonMB: anon,
    fileMB: file,
    httpHeapMB: mb("aisle_nodejs_heap_size_total_bytes"),
    httpExternalMB: mb("aisle_nodejs_external_memory_bytes"),
    workersHeapUsedMB: mb('aisle_pool_workers_heap_bytes{kind="used"}'),
    workersHeapMB: mb('aisle_pool_workers_heap_bytes{kind="committed"}'),
    workersExternalMB: mb("aisle_pool_workers_external_memory_bytes"),
    cacheMB: mb("aisle_response_cache_bytes"),
    unappliedEvents: value("aisle_events_unapplied"),
  };
}

interface CountedRun {
  first: number;
  total: number;
  every: number;
  capS: number;
  /** Called with the requests sent at every WRK_SENT line. */
  onSent: (sent: number) => void;
}

/** One wrk process of the run's script; interrupted once the script has sent `total` requests. */
async function counted(spec: RunSpec, origin: string, script: string, valuesFile: string, base: string, run: CountedRun) {
  const wrk = startWrk({
    origin,
    connections: spec.connections,
    durationS: run.capS,
    timeoutS: TIMEOUT_S,
    script,
    env: {
      AISLE_BASE: base,
      AISLE_VALUES: valuesFile,
      AISLE_METHOD: spec.method,
      AISLE_TOTAL: String(run.total),
      AISLE_REPORT_EVERY: String(run.every),
      AISLE_FIRST: String(run.first),
    },
    onLine(line) {
      const sent = /^WRK_SENT (\d+)$/.exec(line)?.[1];
      if (sent === undefined) return;
      run.onSent(Number(sent));
      if (Number(sent) >= run.total) wrk.interrupt();
    },
  });
  return wrk.result;
}

async function memoryRun(spec: RunSpec, scale: Scale): Promise<MemoryRun> {
  const run: MemoryRun = {
    name: spec.name,
    requestShape: spec.requestShape,
    connections: spec.connections,
    samples: [],
    idle: null,
    answered: null,
    cacheLookups: null,
    error: null,
  };
  const dataDir = makeTempDir("aisle-bench-memory-");
  let aisle: AisleProcess | null = null;
  try {
    process.stderr.write(`  memory: ${spec.name}: starting aisle serve (rate limits off)…\n`);
    const server = await startAisle(dataDir, "adm_bench_memory", true, RATE_LIMITS_OFF);
    aisle = server;
    // The model trains on a core for ~10 s after listening: sampled from here on, it would be the first rows' growth.
    await server.untilTrained("demo", DEMO_MODEL_TIMEOUT_MS);
    const store = Store.open(dataDir);
    let inputs: { base: string; values: string[] };
    try {
      inputs = spec.inputs(store, server.apiKey, scale);
    } finally {
      await store.close();
    }
    const valuesFile = join(dataDir, "wrk-values.txt");
    writeFileSync(valuesFile, `${inputs.values.join("\n")}\n`);
    const script = join(dataDir, `wrk-${spec.load}.lua`);
    writeFileSync(script, countedScript(spec.load));

    // Requests past the run's own range, so the run still sends only new sessions and cache keys.
    const probe = await counted(spec, server.origin, script, valuesFile, inputs.base, {
      first: scale.total,
      total: PROBE_REQUESTS,
      every: PROBE_REQUESTS,
      capS: 60,
      onSent: () => {},
    });
    const failed = probe.status + probe.connect + probe.read + probe.write + probe.timeout;
    if (failed > 0)
      throw new Error(`${failed} of the ${PROBE_REQUESTS} probe requests failed (non-2xx answers, socket errors or timeouts)`);

    process.stderr.write(`  memory: ${spec.name}: ${scale.total.toLocaleString("en-US")} requests…\n`);
    const lookupsBefore = await cacheLookups(server.origin);
    const startedAt = performance.now();
    const samples: Promise<MemorySample | Error>[] = [sample(server, 0, startedAt)];
    const result = await counted(spec, server.origin, script, valuesFile, inputs.base, {
      first: 0,
      total: scale.total,
      every: scale.every,
      capS: scale.capS,
      // Failures become values: a rejected promise would stay unhandled until the run ends.
      onSent: (sent) => samples.push(sample(server, sent, startedAt).catch((error: unknown) => new Error(describeError(error)))),
    });
    run.answered = wrkFigures(result);
    const lookupsAfter = await cacheLookups(server.origin);
    run.cacheLookups = { hits: lookupsAfter.hits - lookupsBefore.hits, misses: lookupsAfter.misses - lookupsBefore.misses };
    for (const taken of await Promise.all(samples)) {
      if (taken instanceof Error) throw taken;
      run.samples.push(taken);
    }
    if (server.exit !== null) throw new Error(describeExit("aisle serve", server.exit, server.stderrTail));
    const sent = run.samples.at(-1)?.requests ?? 0;
    if (sent < scale.total) throw new Error(`wrk's ${scale.capS} s cap ended the run after ${sent.toLocaleString("en-US")} requests`);

    const caughtUpBy = performance.now() + CATCH_UP_LIMIT_MS;
    while ((await metrics(server.origin))("aisle_events_unapplied") > 0 && performance.now() < caughtUpBy) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    run.idle = await sample(server, sent, startedAt);
  } catch (error) {
    run.error = describeError(error).split("\n")[0] ?? "unknown error";
    process.stderr.write(`  memory: ${spec.name} failed: ${describeError(error)}\n`);
    if (aisle) process.stderr.write(`  aisle output (last lines):\n${aisle.tail.map((l) => `    ${l}`).join("\n")}\n`);
  } finally {
    if (aisle) await stopChild(aisle.child, 10_000);
    removeTempDir(dataDir);
  }
  return run;
}

export async function runMemory(options: { quick: boolean }): Promise<MemoryReport> {
  const generator = findWrk();
  if (generator === null)
    throw new Error("wrk not found (Debian: apt-get install -y wrk): the memory suite builds each request in wrk's Lua");
  const scale = scaleOf(options.quick);
  const runs: MemoryRun[] = [];
  for (const spec of RUNS) runs.push(await memoryRun(spec, scale));
  return {
    total: scale.total,
    every: scale.every,
    plateauWindow: scale.plateauWindow,
    plateauGrowth: PLATEAU_GROWTH,
    idleS: IDLE_MS / 1000,
    settings: Object.fromEntries(MEMORY_SETTINGS.map((name) => [name, process.env[name] ?? "unset (the service's default)"])),
    runs,
    generator,
  };
}
