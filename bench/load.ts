// Load runs against a real `aisle serve` on loopback, with the raw-uWS ceiling
// measured in the same run. Each scenario is one load-client process; the
// server, the ceiling and the client are separate processes sharing the cores.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { isProductAvailable } from "../src/core/availability.js";
import { Store } from "../src/stores/store.js";
import { rssMB, startAisle, type AisleProcess } from "./aisle-process.js";
import { makeTempDir, removeTempDir, spawnTracked, stopChild } from "./children.js";
import type { LatencySummaryMs, LoadClientOutput, LoadSpec } from "./load-client.js";

export interface LoadSettings {
  connections: number;
  durationS: number;
  warmupS: number;
  timeoutS: number;
}

export interface ScenarioResult {
  name: string;
  target: "aisle" | "ceiling";
  reqPerSec: number;
  latencyMs: LatencySummaryMs;
  /** Connection errors, timeouts and non-2xx answers: a scenario with any is not a clean figure. */
  errors: number;
  timeouts: number;
  non2xx: number;
}

export interface ServiceFigures {
  seedMs: number;
  startMs: number;
  coldStartMs: number;
  rssAfterStartMB: number;
  rssAfterLoadMB: number;
}

export interface LoadReport {
  settings: LoadSettings;
  service: ServiceFigures;
  /** Size of the static cache-hit body (5 products, full projection) that the ceiling also serves. */
  hitBodyBytes: number;
  scenarios: ScenarioResult[];
  /** Mean req/s of the ceiling runs before and after the aisle scenarios. */
  ceilingReqPerSec: number;
}

const LOAD_CLIENT = fileURLToPath(new URL("./load-client.js", import.meta.url));
const RAW_UWS = fileURLToPath(new URL("./raw-uws.js", import.meta.url));
const STATIC = "/api/v1/products/static";
const MISS_ID_SETS = 64;

/**
 * The request timeout is far above any budget, but short enough that a request
 * stuck for good (a starved queue) shows up as timeouts within the run instead
 * of silently idling one connection and vanishing from the latency figures.
 */
export function loadSettings(quick: boolean): LoadSettings {
  const timeoutS = 2;
  return quick ? { connections: 10, durationS: 3, warmupS: 1, timeoutS } : { connections: 10, durationS: 10, warmupS: 2, timeoutS };
}

/** Ids of the demo that static returns (active, in stock), read from the server's own LMDB env. */
async function listedDemoIds(dataDir: string): Promise<number[]> {
  // LMDB allows readers in other processes; this one only reads and closes at once.
  const store = Store.open(dataDir);
  try {
    return store.productIds("demo").filter((id) => {
      const product = store.product("demo", id);
      return product !== undefined && product.status === "active" && isProductAvailable(product);
    });
  } finally {
    await store.close();
  }
}

async function fetchOk(url: string, headers: Record<string, string> = {}): Promise<Uint8Array> {
  const response = await fetch(url, { headers });
  const body = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${Buffer.from(body).toString("utf8").slice(0, 300)}`);
  return body;
}

async function startCeiling(bodyFile: string): Promise<{ origin: string; stop: () => Promise<void> }> {
  const child = spawnTracked(process.execPath, [RAW_UWS, bodyFile, "0"], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  const port = await new Promise<number>((resolve, reject) => {
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`raw-uws exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const port = /^raw-uws ready on (\d+)/.exec(line)?.[1];
      if (port !== undefined) resolve(Number(port));
    });
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

async function runClient(spec: LoadSpec): Promise<LoadClientOutput> {
  const child = spawnTracked(process.execPath, [LOAD_CLIENT, JSON.stringify(spec)], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const last = stdout.trim().split("\n").at(-1) ?? "";
  if (code !== 0 || !last.startsWith("{")) throw new Error(`load client failed (${code}): ${stderr.slice(-1000)}`);
  return JSON.parse(last) as LoadClientOutput;
}

async function scenario(name: string, target: ScenarioResult["target"], origin: string, paths: string[], settings: LoadSettings): Promise<ScenarioResult> {
  process.stderr.write(`  load: ${name} (${settings.warmupS} s warm-up + ${settings.durationS} s)…\n`);
  const out = await runClient({ origin, paths, ...settings });
  return {
    name,
    target,
    reqPerSec: out.autocannon.requests.average,
    latencyMs: out.latencyMs,
    errors: out.autocannon.errors,
    timeouts: out.autocannon.timeouts,
    non2xx: out.autocannon.non2xx,
  };
}

export async function runLoad(options: { quick: boolean }): Promise<LoadReport> {
  const settings = loadSettings(options.quick);
  const dataDir = makeTempDir("aisle-bench-data-");
  const scratch = makeTempDir("aisle-bench-scratch-");
  let aisle: AisleProcess | null = null;
  let ceiling: Awaited<ReturnType<typeof startCeiling>> | null = null;
  try {
    process.stderr.write("  load: starting aisle serve on an empty data dir (seeds the demo)…\n");
    aisle = await startAisle(dataDir, "adm_bench");
    const rssAfterStartMB = rssMB(aisle.pid);
    const { origin, apiKey } = aisle;

    // Sanity checks before measuring: the key, the admin token and the ids all work.
    const merchants = Buffer.from(await fetchOk(`${origin}/admin/v1/merchants`, { Authorization: `Bearer ${aisle.adminToken}` })).toString("utf8");
    if (!merchants.includes('"demo"')) throw new Error(`admin merchant list lacks the demo: ${merchants.slice(0, 200)}`);
    const listed = await listedDemoIds(dataDir);
    if (listed.length < 5) throw new Error(`the demo has only ${listed.length} listed products`);
    const idsAt = (set: number) => Array.from({ length: 5 }, (_, j) => listed[(set * 5 + j) % listed.length]!).join(",");

    const hitPath = `${STATIC}?key=${apiKey}&ids=${idsAt(0)}`;
    const missPaths = Array.from({ length: MISS_ID_SETS }, (_, set) => `${STATIC}?key=${apiKey}&ids=${idsAt(set + 1)}&bust_cache=yes`);
    const sourcesPath = `/api/v1/sources?key=${apiKey}`;

    await fetchOk(`${origin}${hitPath}`); // the miss that fills the cache
    const hitBody = await fetchOk(`${origin}${hitPath}`);
    const shown = (JSON.parse(Buffer.from(hitBody).toString("utf8")) as { data: unknown[] }).data.length;
    if (shown !== 5) throw new Error(`the cache-hit URL returns ${shown} products, not 5`);
    await fetchOk(`${origin}${missPaths[0]}`);
    await fetchOk(`${origin}${sourcesPath}`);

    // The ceiling answers with exactly the cache-hit bytes.
    const bodyFile = join(scratch, "static-hit.json");
    writeFileSync(bodyFile, hitBody);
    ceiling = await startCeiling(bodyFile);
    const ceilingBody = await fetchOk(`${ceiling.origin}${hitPath}`);
    if (!Buffer.from(ceilingBody).equals(Buffer.from(hitBody))) throw new Error("raw-uws body differs from aisle's");

    // The ceiling runs first and last: their spread shows how much the machine drifted meanwhile.
    const scenarios: ScenarioResult[] = [];
    scenarios.push(await scenario("raw uWS ceiling (before)", "ceiling", ceiling.origin, [hitPath], settings));
    scenarios.push(await scenario("static cache hit", "aisle", origin, [hitPath], settings));
    scenarios.push(await scenario(`static cache miss (bust_cache, ${MISS_ID_SETS} id sets)`, "aisle", origin, missPaths, settings));
    scenarios.push(await scenario("sources", "aisle", origin, [sourcesPath], settings));
    scenarios.push(await scenario("raw uWS ceiling (after)", "ceiling", ceiling.origin, [hitPath], settings));

    const rssAfterLoadMB = rssMB(aisle.pid);
    const ceilings = scenarios.filter((s) => s.target === "ceiling").map((s) => s.reqPerSec);
    return {
      settings,
      service: { seedMs: aisle.seedMs, startMs: aisle.startMs, coldStartMs: aisle.coldStartMs, rssAfterStartMB, rssAfterLoadMB },
      hitBodyBytes: hitBody.byteLength,
      scenarios,
      ceilingReqPerSec: ceilings.reduce((a, b) => a + b, 0) / ceilings.length,
    };
  } catch (error) {
    if (aisle) process.stderr.write(`  aisle output (last lines):\n${aisle.tail.map((l) => `    ${l}`).join("\n")}\n`);
    throw error;
  } finally {
    await ceiling?.stop();
    if (aisle) await stopChild(aisle.child, 10_000);
    removeTempDir(scratch);
    removeTempDir(dataDir);
  }
}
