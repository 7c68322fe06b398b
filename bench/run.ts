// `npm run bench`: micro suites, then load runs against a real server, then one
// table. Benchmarks are not tests: whatever is measured or over budget, the exit
// code is 0 (130 only on an interrupt); every child and temp dir is cleaned up.
//
// usage: node dist/bench/run.js [--quick]   (--quick: a ~1 min smoke run with short durations)
//        node dist/bench/run.js --search [--quick]   (only the quick-view search suite)
//        node dist/bench/run.js --scale [options of scale.ts]
//          (only the opt-in scale suite: 100k products, ~340k orders; 10+ minutes)
//        node dist/bench/run.js --similar-products 100000
//          (only the similar-products suite, on a synthetic shop of that size)
import { loadavg } from "node:os";
import { installCleanup } from "./children.js";
import { runLoad, type LoadReport } from "./load.js";
import type { MicroSuite } from "./micro-result.js";
import { runMicro } from "./micro.js";
import { formatReport } from "./report.js";
import { runScaleAndReport } from "./scale.js";
import { runSimilarBench } from "./similar.js";
import { runSearchBench } from "./search.js";

installCleanup();
const quick = process.argv.includes("--quick");
const scale = process.argv.includes("--scale");
const errors: string[] = [];
const loadAtStart = loadavg()[0] ?? NaN;

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

// --similar-products N: only the similar-products suite, on a synthetic shop of N products.
const similarSizeAt = process.argv.indexOf("--similar-products");
if (similarSizeAt !== -1) {
  const products = Number(process.argv[similarSizeAt + 1]);
  const suite = await runSimilarBench({ quick, products });
  console.log(formatReport({ quick, loadAtStart, micro: [suite], load: null, errors }));
  process.exit(0);
}

if (process.argv.includes("--search")) {
  process.stderr.write("aisle bench --search: quick-view search on the Home Depot titles…\n");
  let search: MicroSuite | null = null;
  try {
    search = await runSearchBench({ quick });
  } catch (error) {
    errors.push(`search bench failed: ${describe(error)}`);
  }
  console.log(formatReport({ quick, loadAtStart, micro: search ? [search] : [], load: null, errors }));
  process.exit(0);
}

if (scale) {
  process.stderr.write("aisle bench --scale: generate, import, then ranking and update suites…\n");
  await runScaleAndReport(loadAtStart);
  process.exit(0);
}

process.stderr.write(`aisle bench${quick ? " --quick" : ""}: micro suites…\n`);
let micro: MicroSuite[] | null = null;
try {
  micro = await runMicro({ quick });
} catch (error) {
  errors.push(`micro suites failed: ${describe(error)}`);
}
try {
  (micro ??= []).push(await runSimilarBench({ quick }));
} catch (error) {
  errors.push(`similar-products suite failed: ${describe(error)}`);
}

process.stderr.write("aisle bench: quick-view search on the Home Depot titles…\n");
try {
  const search = await runSearchBench({ quick });
  if (search) micro = [...(micro ?? []), search];
} catch (error) {
  errors.push(`search bench failed: ${describe(error)}`);
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
