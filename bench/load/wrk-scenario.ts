// One load run by wrk, reported as every other load run of the bench is: the
// default bench's wrk rows and event ingest use it, and so do the scale
// curve's endpoint runs.
import { scenarioResult, type LoadRun } from "./scenario.js";
import { findWrk, runWrk } from "./wrk-client.js";
import type { LoadSettings, ScenarioBudgets, ScenarioResult } from "../shared/results.js";

/** Which client sends a run's requests: wrk when installed (the autocannon client tops out below uWS on two cores). */
export interface LoadGenerator {
  /** Shown in scenario names and the notes. */
  label: string;
  wrk: boolean;
  /** Where wrk's Lua script is written. */
  scratch: string;
}

/** wrk when installed, else the autocannon client. */
export function loadGenerator(scratch: string): LoadGenerator {
  const wrk = findWrk();
  return { label: wrk ? `${wrk}, 1 thread` : "autocannon client", wrk: wrk !== null, scratch };
}

/** One wrk run of the paths file's requests, one rotation shared by its connections; `acknowledged`: its 2xx, warm-up included. */
export async function wrkScenario(
  name: string,
  target: ScenarioResult["target"],
  origin: string,
  pathsFile: string,
  method: "GET" | "POST",
  settings: LoadSettings,
  budgets: ScenarioBudgets,
  generator: LoadGenerator,
): Promise<{ result: ScenarioResult; acknowledged: number }> {
  process.stderr.write(`  load: ${name} (${generator.label}, ${settings.warmupS} s warm-up + ${settings.durationS} s)…\n`);
  const out = await runWrk({ origin, pathsFile, method, ...settings, scratch: generator.scratch });
  const result = {
    ...scenarioResult(name, target, settings.connections, budgets, { ...out, errors: out.socketErrors }),
    generator: generator.label,
  };
  return { result, acknowledged: out.acknowledged };
}

/** wrkScenario as a paired run's client (see pairedRun): the paths file's requests, by `method`. */
export function wrkRun(pathsFile: string, method: "GET" | "POST", settings: LoadSettings, generator: LoadGenerator): LoadRun {
  return async (name, target, origin, budgets) =>
    (await wrkScenario(name, target, origin, pathsFile, method, settings, budgets, generator)).result;
}
