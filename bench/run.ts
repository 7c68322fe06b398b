// `npm run bench`: micro suites, then load runs against a real server, then one
// table. Benchmarks are not tests: whatever is measured or over budget, the exit
// code is 0 (130 only on an interrupt); every child and temp dir is cleaned up.
//
// usage: node dist/bench/run.js [--quick]   (--quick: a ~1 min smoke run with short durations)
//        node dist/bench/run.js --search [--quick]   (only the quick-view search suite)
//        node dist/bench/run.js --scale [--sizes 10000,100000,1000000] [--max-import-min M] [--similar-up-to N] [--max-customers N]
//          (only the opt-in scale curve, scale-curve.ts: a shop per size, imported and served; 30+ minutes)
//          (dist/bench/scale.js alone still runs the in-process 100k ranking and order-update suites)
//        node dist/bench/run.js --similar-products 100000
//          (only the similar-products suite, on a synthetic shop of that size)
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { getHeapStatistics } from "node:v8";
import { installCleanup } from "./children.js";
import { runLoad, type LoadReport } from "./load.js";
import type { MicroSuite } from "./micro-result.js";
import { runMicro } from "./micro.js";
import { budgetsMarkdown, formatReport } from "./report.js";
import { writeResultsSection } from "./results-file.js";
import { curveOptionsFrom, runScaleCurve } from "./scale-curve.js";
import { formatCurveReport } from "./curve-report.js";
import { runSimilarBench } from "./similar.js";
import { runSearchBench } from "./search.js";

installCleanup();
const quick = process.argv.includes("--quick");
const scale = process.argv.includes("--scale");
const errors: string[] = [];
const loadAtStart = loadavg()[0] ?? NaN;

/** V8 heap for the scale curve's generator: the 1M-product shop needs well over the default. */
const SCALE_HEAP_MB = 16_384;

const HOME_DEPOT_MISSING =
  "quick-view search on the 54k Home Depot titles (issue 7's keystroke replay): ../shared/data/homedepot_products.tsv or homedepot_dev_judgments.tsv not found; the synthetic replay of demo titles (hot operations, and the quick-view load row) stands in";

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
  if (search === null) errors.push(HOME_DEPOT_MISSING);
  console.log(formatReport({ quick, loadAtStart, micro: search ? [search] : [], load: null, errors }));
  process.exit(0);
}

if (scale && getHeapStatistics().heap_size_limit < SCALE_HEAP_MB * 1024 * 1024) {
  // The 1M-product shop is generated in this process: tens of millions of objects
  // need a bigger V8 heap than the default. Run again with one, same arguments.
  const rerun = spawnSync(process.execPath, [`--max-old-space-size=${SCALE_HEAP_MB}`, ...process.argv.slice(1)], { stdio: "inherit" });
  process.exit(rerun.status ?? 0);
}

if (scale) {
  const options = curveOptionsFrom(process.argv);
  process.stderr.write(`aisle bench --scale: shops of ${options.sizes.map((n) => n.toLocaleString("en-US")).join(", ")} products: generate, import, serve, load…\n`);
  // RESULTS.md gets the curve after every size, so a run stopped during the 1M shop keeps the others.
  const points = await runScaleCurve(options, (sofar) => {
    const section = options.maxCustomers === null ? "scale" : "scale-capped";
    process.stderr.write(`aisle bench --scale: wrote ${writeResultsSection(section, formatCurveReport(sofar, loadAtStart))}\n`);
  });
  console.log(formatCurveReport(points, loadAtStart));
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
  const search = await runSearchBench({ quick, sample: true });
  if (search) micro = [...(micro ?? []), search];
  else errors.push(HOME_DEPOT_MISSING);
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

const report = formatReport({ quick, loadAtStart, micro, load, errors });
console.log(report);
if (quick) process.stderr.write("aisle bench --quick: bench/RESULTS.md left as it was (only a full run writes it)\n");
else process.stderr.write(`aisle bench: wrote ${writeResultsSection("default", report, budgetsMarkdown())}\n`);
process.exit(0);
