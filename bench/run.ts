// `npm run bench`: micro suites, then load runs against a real server, then one
// table. Benchmarks are not tests: whatever is measured or over budget, the exit
// code is 0 (130 only on an interrupt); every child and temp dir is cleaned up.
//
// usage: node dist/bench/run.js [--quick]   (--quick: a ~30 s smoke run with short durations)
import { loadavg } from "node:os";
import { installCleanup } from "./children.js";
import { runLoad, type LoadReport } from "./load.js";
import { runMicro, type MicroResult } from "./micro.js";
import { formatReport } from "./report.js";

installCleanup();
const quick = process.argv.includes("--quick");
const errors: string[] = [];
const loadAtStart = loadavg()[0] ?? NaN;

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

process.stderr.write(`aisle bench${quick ? " --quick" : ""}: micro suites…\n`);
let micro: MicroResult[] | null = null;
try {
  micro = await runMicro({ quick });
} catch (error) {
  errors.push(`micro suites failed: ${describe(error)}`);
}

process.stderr.write("aisle bench: load runs…\n");
let load: LoadReport | null = null;
try {
  load = await runLoad({ quick });
} catch (error) {
  errors.push(`load runs failed: ${describe(error)}`);
}

console.log(formatReport({ quick, loadAtStart, micro, load, errors }));
process.exit(0);
