// `npm run bench`: micro suites, then load runs against a real server, then one
// table. Benchmarks are not tests: whatever is measured or over budget, the exit
// code is 0 (130 only on an interrupt); every child and temp dir is cleaned up.
//
// usage: node dist/bench/run.js [--quick]   (--quick: a ~1 min smoke run with short durations)
//        node dist/bench/run.js --search [--quick]   (only the quick-view search suite)
//        node dist/bench/run.js --scale [--sizes 10000,100000,1000000] [--max-import-min M] [--similar-up-to N] [--max-customers N]
//        node dist/bench/run.js --scale --reuse-shop DIR   (serve and load a shop kept by a standalone bench/scale/scale-shop.ts run)
//          (only the opt-in scale curve, scale-curve.ts: a shop per size, generated and imported by a
//          child process with a big heap (scale-shop.ts), then served; 30+ minutes)
//          (dist/bench/scale/scale.js alone still runs the in-process 100k ranking and order-update suites)
//        node dist/bench/run.js --similar-products 100000
//          (only the similar-products suite, on a synthetic shop of that size)
//        node dist/bench/run.js --abuse [--quick]
//          (only the abuse suite: another key's latency while one key floods past its rate limit; ~2 min)
//        node dist/bench/run.js --memory [--quick]
//          (only the memory suite: RSS over 1M events, 1M cache keys and 1M pool tasks, a fresh server each; 10+ min)
//        node dist/bench/run.js --cluster [--quick]
//          (only the cluster bench: 3 nats-servers and 3 nodes; writes/s through one and three, replication lag, catch-up; ~3 min)
import { loadavg } from "node:os";
import { installCleanup } from "./shared/children.js";
import { describeError } from "./shared/exit-cause.js";
import { runAbuse } from "./load/abuse.js";
import { runLoad } from "./load/load.js";
import { runMemory } from "./load/memory.js";
import { runCluster } from "./cluster/cluster.js";
import { formatClusterReport } from "./report/cluster-report.js";
import { formatAbuseReport } from "./report/abuse-report.js";
import { formatMemoryReport } from "./report/memory-report.js";
import { runMicro } from "./micro/micro.js";
import { budgetsMarkdown, formatReport } from "./report/report.js";
import { writeResultsSection, type ResultsSection } from "./report/results-file.js";
import { curveOptionsFrom, runScaleCurve } from "./scale/scale-curve.js";
import { formatCurveReport } from "./report/curve-report.js";
import { runSimilarBench } from "./micro/similar.js";
import { runSearchBench } from "./micro/search.js";
import type { MicroSuite } from "./shared/results.js";

installCleanup();
const quick = process.argv.includes("--quick");
const scale = process.argv.includes("--scale");
const errors: string[] = [];
const loadAtStart = loadavg()[0] ?? NaN;

const HOME_DEPOT_MISSING =
  "quick-view search on the 54k Home Depot titles (the real queries typed character by character): ../shared/data/homedepot_products.tsv or homedepot_dev_judgments.tsv not found; the synthetic replay of demo titles (hot operations, and the quick-view load row) stands in";

/** Runs one part of the bench: a failure is reported (NOT MEASURED, with its stack) and the other parts still run. */
async function attempt<T>(what: string, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    errors.push(`${what} failed: ${describeError(error)}`);
    return null;
  }
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
  const search = await attempt("search bench", () => runSearchBench({ quick }));
  if (search === null) errors.push(HOME_DEPOT_MISSING);
  console.log(formatReport({ quick, loadAtStart, micro: search ? [search] : [], load: null, errors }));
  process.exit(0);
}

/** Prints an opt-in suite's report and exits; a full-length run that measured writes it to its own RESULTS.md section. */
function finishSuite(section: ResultsSection, measured: boolean, report: string): never {
  console.log(report);
  if (quick || !measured) process.stderr.write(`aisle bench --${section}: bench/RESULTS.md left as it was\n`);
  else process.stderr.write(`aisle bench --${section}: wrote ${writeResultsSection(section, report)}\n`);
  process.exit(0);
}

if (process.argv.includes("--abuse")) {
  process.stderr.write(`aisle bench --abuse: key B's latency alone and while key A floods past its rate limit…\n`);
  const abuse = await attempt("abuse suite", () => runAbuse({ quick }));
  finishSuite("abuse", abuse !== null, formatAbuseReport(abuse, loadAtStart, quick, errors));
}

if (process.argv.includes("--memory")) {
  process.stderr.write(`aisle bench --memory: the server's RSS under events, cache keys and pool tasks, a fresh server per run…\n`);
  const memory = await attempt("memory suite", () => runMemory({ quick }));
  finishSuite("memory", memory !== null, formatMemoryReport(memory, loadAtStart, quick, errors));
}

if (process.argv.includes("--cluster")) {
  process.stderr.write("aisle bench --cluster: 3 nats-servers and 3 aisle nodes on this machine: writes/s, replication lag, catch-up…\n");
  const cluster = await attempt("cluster bench", () => runCluster({ quick }));
  finishSuite("cluster", cluster !== null, formatClusterReport(cluster, loadAtStart, quick, errors));
}

if (scale) {
  const options = curveOptionsFrom(process.argv);
  process.stderr.write(
    `aisle bench --scale: shops of ${options.sizes.map((n) => n.toLocaleString("en-US")).join(", ")} products: generate, import, serve, load…\n`,
  );
  // RESULTS.md gets the curve after every size, so a run stopped during the 1M shop keeps the others.
  const points = await runScaleCurve(options, (sofar) => {
    // A kept shop re-served is reported beside the curve, not in place of it.
    const section = options.reuseShop !== null ? "scale-reused" : options.maxCustomers === null ? "scale" : "scale-capped";
    process.stderr.write(`aisle bench --scale: wrote ${writeResultsSection(section, formatCurveReport(sofar, loadAtStart, options))}\n`);
  });
  console.log(formatCurveReport(points, loadAtStart, options));
  process.exit(0);
}

process.stderr.write(`aisle bench${quick ? " --quick" : ""}: micro suites…\n`);
const micro: MicroSuite[] = (await attempt("micro suites", () => runMicro({ quick }))) ?? [];
const similar = await attempt("similar-products suite", () => runSimilarBench({ quick }));
if (similar) micro.push(similar);

process.stderr.write("aisle bench: quick-view search on the Home Depot titles…\n");
await attempt("search bench", async () => {
  const search = await runSearchBench({ quick, sample: true });
  if (search) micro.push(search);
  else errors.push(HOME_DEPOT_MISSING);
});

process.stderr.write("aisle bench: load runs…\n");
const load = await attempt("load runs", () => runLoad({ quick }));

const report = formatReport({ quick, loadAtStart, micro, load, errors });
console.log(report);
if (quick) process.stderr.write("aisle bench --quick: bench/RESULTS.md left as it was (only a full run writes it)\n");
else process.stderr.write(`aisle bench: wrote ${writeResultsSection("default", report, budgetsMarkdown())}\n`);
process.exit(0);
