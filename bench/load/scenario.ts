// One load run as the bench does it everywhere: a load-client process (autocannon)
// against an origin, with only the measured seconds counted; a run paired with
// raw uWS replaying aisle's bytes, by whichever client; plus the raw-uWS
// ceiling process and the fetch helpers that check an endpoint before it is loaded.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { outputOf, spawnTracked, stopChild } from "../shared/children.js";
import type { LoadClientOutput, LoadSpec } from "./load-client.js";
import { methodAndPath } from "./request-line.js";
import type { LoadSettings, ScenarioBudgets, ScenarioResult } from "../shared/results.js";

const LOAD_CLIENT = fileURLToPath(new URL("./load-client.js", import.meta.url));
const RAW_UWS = fileURLToPath(new URL("./raw-uws.js", import.meta.url));

/** GETs a product list and checks it is a 200 with at least one product. */
export async function fetchList(
  url: string,
): Promise<{ body: Uint8Array; data: unknown[]; metadata?: { cache_info?: { cached_at_time?: string } } }> {
  const body = await fetchOk(url);
  const parsed = JSON.parse(Buffer.from(body).toString("utf8")) as {
    data: unknown[];
    metadata?: { cache_info?: { cached_at_time?: string } };
  };
  if (!Array.isArray(parsed.data) || parsed.data.length === 0) throw new Error(`GET ${url} answered no products`);
  return { body, ...parsed };
}

export async function fetchOk(url: string, headers: Record<string, string> = {}): Promise<Uint8Array> {
  const response = await fetch(url, { headers });
  const body = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200)
    throw new Error(`GET ${url} answered ${response.status}: ${Buffer.from(body).toString("utf8").slice(0, 300)}`);
  return body;
}

export interface Ceiling {
  origin: string;
  stop: () => Promise<void>;
}

/**
 * A raw uWS process answering every request with one body, with the headers
 * of a cache hit. `replay`: the file maps each URL to its own body; `age`
 * false: no Age header (an event's receipt has none).
 */
export async function startCeiling(
  bodyFile: string,
  { replay = false, age = true }: { replay?: boolean; age?: boolean } = {},
): Promise<Ceiling> {
  const flags = [...(replay ? ["--replay"] : []), ...(age ? [] : ["--no-age"])];
  const child = spawnTracked(process.execPath, [RAW_UWS, ...flags, bodyFile, "0"], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
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

export function runClient(spec: LoadSpec): Promise<LoadClientOutput> {
  return runJsonClient<LoadClientOutput>(LOAD_CLIENT, spec);
}

/** Runs a client script of the bench as a Node process, its spec as one JSON argument; its last stdout line is its JSON output. */
export async function runJsonClient<Output>(script: string, spec: unknown): Promise<Output> {
  const child = spawnTracked(process.execPath, [script, JSON.stringify(spec)], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  const { code, stdout, stderr } = await outputOf(child);
  const last = stdout.trim().split("\n").at(-1) ?? "";
  if (code !== 0 || !last.startsWith("{")) throw new Error(`client ${script} failed (${code}): ${stderr.slice(-1000)}`);
  return JSON.parse(last) as Output;
}

/** What any load generator measured, as one row of the report. */
export function scenarioResult(
  name: string,
  target: ScenarioResult["target"],
  connections: number,
  budgets: ScenarioBudgets,
  measured: Pick<ScenarioResult, "reqPerSec" | "okPerSec" | "latencyMs" | "errors" | "timeouts" | "non2xx">,
): ScenarioResult {
  const { reqPerSec, okPerSec, latencyMs, errors, timeouts, non2xx } = measured;
  return { name, target, connections, reqPerSec, okPerSec, latencyMs, errors, timeouts, non2xx, budgets };
}

/** How a scenario's requests are sent, when not the default (GET, `paths` cycled per connection). */
export type RequestShape = Pick<LoadSpec, "method" | "pathsFile" | "rotation">;

/** One load-client run; `acknowledged` is the whole run's 2xx count (warm-up included). */
export async function runScenario(
  name: string,
  target: ScenarioResult["target"],
  origin: string,
  paths: string[],
  settings: LoadSettings,
  budgets: ScenarioBudgets = {},
  shape: RequestShape = {},
): Promise<{ result: ScenarioResult; acknowledged: number }> {
  process.stderr.write(
    `  load: ${name} (${settings.warmupS} s warm-up + ${settings.durationS} s, ${settings.connections} connection${settings.connections === 1 ? "" : "s"})…\n`,
  );
  const out = await runClient({ origin, paths, ...settings, ...shape });
  const { errors, timeouts, non2xx } = out.autocannon;
  const result = scenarioResult(name, target, settings.connections, budgets, { ...out, errors, timeouts, non2xx });
  return { result, acknowledged: out.autocannon["2xx"] };
}

export async function scenario(...args: Parameters<typeof runScenario>): Promise<ScenarioResult> {
  return (await runScenario(...args)).result;
}

/**
 * Each distinct request of a rotation sent once, its answer kept: the bytes the
 * replay ceiling will write for it. A non-2xx answer stops the bench (a
 * scenario of errors would measure nothing).
 */
export async function recordBodies(origin: string, lines: readonly string[]): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  for (const line of new Set(lines)) {
    const { method, path } = methodAndPath(line, "GET");
    const response = await fetch(`${origin}${path}`, { method });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    bodies.set(path, text);
  }
  return bodies;
}

export interface PairedRun {
  /** aisle's run, its sameRequestCeiling set from the reference. */
  aisle: ScenarioResult;
  /** raw uWS answering the same requests with the same bytes, run just after. */
  reference: ScenarioResult;
}

/** One load run of a paired scenario against `origin`, by whichever client the pair uses. */
export type LoadRun = (name: string, target: ScenarioResult["target"], origin: string, budgets: ScenarioBudgets) => Promise<ScenarioResult>;

/**
 * A scenario and its own ceiling: raw uWS replaying aisle's bytes for exactly
 * these requests, same client, settings and rotation, measured right after
 * aisle, so the ratio compares the same wire traffic at the same moment.
 * aisle runs first: recording its bytes fills its response cache, which would
 * turn a first pass of keystrokes or widgets into hits.
 */
export async function pairedRun(
  name: string,
  origin: string,
  paths: string[],
  budgets: ScenarioBudgets,
  scratch: string,
  run: LoadRun,
): Promise<PairedRun> {
  const aisle = await run(name, "aisle", origin, budgets);
  const reference = await ceilingRun(origin, paths, scratch, run);
  return { aisle: { ...aisle, sameRequestCeiling: reference.reqPerSec }, reference };
}

/**
 * The ceiling of a run just made against aisle at `origin`: its answers to
 * `paths` recorded, then raw uWS replaying them, loaded by `run`.
 */
export async function ceilingRun(origin: string, paths: string[], scratch: string, run: LoadRun): Promise<ScenarioResult> {
  const bodies = await recordBodies(origin, paths);
  const file = join(scratch, "replay.json");
  writeFileSync(file, JSON.stringify(Object.fromEntries(bodies)));
  const ceiling = await startCeiling(file, { replay: true });
  try {
    return await run("  raw uWS, same requests and bytes", "reference", ceiling.origin, {});
  } finally {
    await ceiling.stop();
  }
}

/** pairedRun with the autocannon client. */
export function pairedScenario(
  name: string,
  origin: string,
  paths: string[],
  settings: LoadSettings,
  budgets: ScenarioBudgets,
  scratch: string,
  shape: RequestShape = {},
): Promise<PairedRun> {
  // With a paths file, the list stays out of the client's argv (Linux caps one argument at 128 KiB).
  const sent = shape.pathsFile === undefined ? paths : [];
  return pairedRun(name, origin, paths, budgets, scratch, (runName, target, runOrigin, runBudgets) =>
    scenario(runName, target, runOrigin, sent, settings, runBudgets, shape),
  );
}
