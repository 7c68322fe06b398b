#!/usr/bin/env node
// The `aisle` command: serve, snapshot, import, merchants, tune, train, eval, bench.
// First, before any module that may start a thread: the main thread keeps the heap flag it was started with, alone.
import "./main-thread-heap.js";
import { Command, InvalidArgumentError } from "commander";
import cliProgress from "cli-progress";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { ConfigError, loadConfig } from "./config.js";
import { InvalidInput } from "./core/ingest/fields.js";
import { importCommands } from "./ingest/import-commands.js";
import { importFiles, IMPORT_KINDS, isImportKind, type ImportKind } from "./ingest/import-files.js";
import { createMerchant } from "./ingest/merchants.js";
import { createMerchantCommand } from "./ingest/write-commands.js";
import { StreamWriter, StreamWriteError } from "./cluster/stream-writer.js";
import { printBanner } from "./banner.js";
import { jsonLogger } from "./observability/logger.js";
import type { RetailSplit } from "./eval/online-retail.js";
import { evalSimilar } from "./eval/similar.js";
import { evalFbt } from "./eval/fbt.js";
import { evalSessions } from "./eval/sessions.js";
import { evalSearch } from "./eval/search.js";
import { DEFAULT_VIEWED_RELATED } from "./core/recs/viewed-related-settings.js";
import { describeReranker } from "./recs/train-viewed-reranker.js";
import { DEFAULT_TUNE_OPTIONS, tuneViewedRelated } from "./recs/tune-viewed-related.js";
import { ListenError } from "./http/server.js";
import { startService } from "./main.js";
import { modelDirectory } from "./similar/build.js";
import { trainInWorker } from "./similar/trainer.js";
import { DataDirInUseError } from "./stores/serve-lock.js";
import { AlreadyExistsError } from "./stores/catalogue-store.js";
import { DataDirUnusableError, StoreNotFoundError } from "./stores/environment.js";
import { SnapshotTargetError, writeSnapshot } from "./stores/snapshot.js";
import { Store } from "./stores/store.js";
import { StoreFormatError } from "./stores/store-format.js";
import { VERSION } from "./version.js";

function portOption(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError("must be a port number");
  return port;
}

function shareOption(value: string): number {
  const share = Number(value);
  if (!(share > 0 && share <= 1)) throw new InvalidArgumentError("must be a number above 0 and at most 1");
  return share;
}

function integerOption(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError("must be an integer");
  return n;
}

function kindOption(value: string): ImportKind {
  if (!isImportKind(value)) throw new InvalidArgumentError(`must be one of ${IMPORT_KINDS.join(", ")}`);
  return value;
}

async function serve(options: { port?: number; data?: string; nats?: string }): Promise<void> {
  const startedAt = performance.now();
  const config = loadConfig(process.env, { port: options.port, dataDir: options.data, natsUrl: options.nats });
  const log = jsonLogger(config.logLevel);
  const service = await startService(config, log);
  const shutdown = (signal: string) => {
    log.info(`${signal}: draining requests and shutting down`);
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error("shutdown failed", { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
  // Printed last: whoever waits for the "listening" line may signal us at once.
  printBanner(config, service, performance.now() - startedAt);
}

/** The cluster's nats-servers when `--nats` or AISLE_NATS_URL names them (null: a single box); `--data` with them is refused, as nothing would be written there. */
function clusterUrls(options: { nats?: string; data?: string }): string | null {
  const { cluster } = loadConfig(process.env, { natsUrl: options.nats });
  if (cluster && options.data !== undefined) {
    throw new ConfigError(
      "--data names a data dir, but --nats (or AISLE_NATS_URL) makes this a cluster write, which goes to the stream and to no data dir: drop one of them",
    );
  }
  return cluster?.natsUrl ?? null;
}

function importProgressBar(): cliProgress.SingleBar {
  return new cliProgress.SingleBar(
    {
      format: "importing [{bar}] {percentage}% {value}/{total} objects {eta_formatted} left",
      stream: process.stderr,
      // Also report progress when output goes to a file or a CI log.
      noTTYOutput: true,
      notTTYSchedule: 2_000,
    },
    cliProgress.Presets.shades_classic,
  );
}

/** "3 products, 1 sources", or "nothing". */
function importedCounts(counts: Record<ImportKind, number>): string {
  const written = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(", ");
  return written || "nothing";
}

const secondsSince = (startedAt: number) => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;

/** How an operator knows a node has what the stream acknowledged through `seq`. */
const heldOnceApplied = (what: string, seq: number) =>
  `a node holds ${what} once its aisle_cluster_applied_sequence (/metrics) reaches ${seq}, and a read that sends X-Aisle-After-Seq: ${seq} waits for that`;

async function importCommand(
  files: string[],
  options: { merchant: string; type?: ImportKind; data?: string; nats?: string; train: boolean },
): Promise<void> {
  const urls = clusterUrls(options);
  if (urls !== null) return importThroughStream(urls, files, options);
  const config = loadConfig(process.env, { dataDir: options.data });
  const store = Store.open(config.dataDir, { mustExist: true });
  let productsImported = false;
  try {
    if (!store.catalogue.merchant(options.merchant))
      throw new InvalidInput("--merchant", `no merchant ${options.merchant}; create it with aisle merchants add`);
    const bar = importProgressBar();
    const startedAt = performance.now();
    const { counts, warnings } = await importFiles(store, options.merchant, files, options.type, {
      start: (total) => bar.start(total, 0),
      advance: (count) => bar.increment(count),
      stop: () => bar.stop(),
    });
    console.log(`imported ${importedCounts(counts)} into ${options.merchant} in ${secondsSince(startedAt)}`);
    // Accepted, as the admin API accepts them: the products and collections may come in a later import.
    for (const warning of warnings) console.error(`warning: ${warning}`);
    productsImported = (counts.products ?? 0) > 0;
  } finally {
    await store.close();
  }
  // A new or changed catalogue gets its similar-products model (and every product its vector) now.
  if (productsImported && options.train) await trainWithProgress(config.dataDir, options.merchant, true);
}

/**
 * A cluster's import: published to the stream as a node's admin API publishes
 * it, every file validated first (a bad one publishes nothing). Each node
 * writes it and keeps its own similar-products model in step, so there is no
 * training here, and no warnings of products the shop lacks (they need the shop's data).
 */
async function importThroughStream(urls: string, files: string[], options: { merchant: string; type?: ImportKind }): Promise<void> {
  const writer = await StreamWriter.connect(urls);
  try {
    if (!(await writer.holdsMerchant(options.merchant))) {
      throw new InvalidInput(
        "--merchant",
        `the write stream holds no message of merchant ${options.merchant}: create it with aisle merchants add --nats ` +
          "(a merchant silent for longer than the stream keeps messages is not found there: import through a node's admin API)",
      );
    }
    const { commands, counts } = importCommands(options.merchant, files, options.type, writer.maxPayloadBytes);
    if (commands.length === 0) {
      console.log(`imported nothing into ${options.merchant}: the files hold no objects`);
      return;
    }
    const bar = importProgressBar();
    const startedAt = performance.now();
    bar.start(
      commands.reduce((sum, command) => sum + command.objects, 0),
      0,
    );
    const seq = await writer
      .publish(
        commands.map((command) => command.write),
        (index) => bar.increment(commands[index]!.objects),
      )
      .finally(() => bar.stop());
    console.log(
      `imported ${importedCounts(counts)} into ${options.merchant} through the write stream in ${secondsSince(startedAt)}: ` +
        `${commands.length} messages, the last at sequence ${seq}; ${heldOnceApplied("the import", seq)}`,
    );
  } finally {
    await writer.close();
  }
}

/** A full similar-model build on its own thread, with a progress bar per stage. */
async function trainWithProgress(dataDir: string, merchantId: string, useBehaviour: boolean): Promise<void> {
  const bar = new cliProgress.SingleBar({
    format: "{stage} [{bar}] {percentage}% {value}/{total} {eta_formatted} left",
    stream: process.stderr,
    noTTYOutput: true,
    notTTYSchedule: 2_000,
  });
  let stage = "";
  const manifest = await trainInWorker({ dataDir, merchantId, useBehaviour }, (progress) => {
    if (progress.stage !== stage) {
      if (stage !== "") bar.stop();
      stage = progress.stage;
      bar.start(progress.total, 0, { stage: stage.padEnd(10) });
    }
    bar.update(progress.done, { stage: stage.padEnd(10) });
  });
  if (stage !== "") bar.stop();
  const { training } = manifest;
  console.log(
    `similar-products model ${manifest.version}: ${training.products} products (${training.productsWithBehaviour} with behaviour: ${training.orders} orders, ${training.viewSessions} view sessions), ` +
      `${manifest.hashing.buckets} buckets × ${manifest.dims} dims, ${training.samples} training pairs, ${training.seconds} s`,
  );
  console.log(`files: ${join(modelDirectory(dataDir, merchantId), manifest.file)} and manifest.json beside it`);
}

async function addMerchant(options: {
  id: string;
  name: string;
  domain: string;
  currency: string;
  data?: string;
  nats?: string;
}): Promise<void> {
  const urls = clusterUrls(options);
  if (urls !== null) return addMerchantThroughStream(urls, options);
  const config = loadConfig(process.env, { dataDir: options.data });
  const store = Store.open(config.dataDir);
  try {
    const merchant = await createMerchant(store, {
      id: options.id,
      name: options.name,
      domain: options.domain,
      currency: options.currency,
    });
    console.log(JSON.stringify({ id: merchant.id, api_key: merchant.api_key, webhook_secret: merchant.webhook_secret }, null, 2));
  } finally {
    await store.close();
  }
}

/**
 * A cluster's new merchant: its keys drawn here and published as a node's
 * admin API publishes them; printed once the stream has acknowledged it.
 * An id the stream holds messages of is taken.
 */
async function addMerchantThroughStream(
  urls: string,
  input: { id: string; name: string; domain: string; currency: string },
): Promise<void> {
  const write = createMerchantCommand({ id: input.id, name: input.name, domain: input.domain, currency: input.currency });
  const writer = await StreamWriter.connect(urls);
  try {
    if (await writer.holdsMerchant(write.merchant)) throw new AlreadyExistsError(`Merchant ${write.merchant} already exists`);
    const seq = await writer.publish([write], () => {});
    const merchant = write.payload;
    console.log(JSON.stringify({ id: merchant.id, api_key: merchant.api_key, webhook_secret: merchant.webhook_secret, seq }, null, 2));
    console.error(`merchant ${merchant.id} is message ${seq} of the write stream: ${heldOnceApplied("it", seq)}`);
  } finally {
    await writer.close();
  }
}

const program = new Command("aisle").version(VERSION).description("Self-hosted storefront engine");

program
  .command("snapshot")
  .description(
    "copy a data dir, while aisle serve runs on it too, into a new dir a service can start from: the backup of a single box, and how a new cluster node starts",
  )
  .requiredOption("--out <dir>", "where to write the snapshot (a new or empty dir)")
  .option("--data <dir>", "data directory (env AISLE_DATA_DIR, default ./data)")
  .action(async (options: { out: string; data?: string }) => {
    const { dataDir } = loadConfig(process.env, { dataDir: options.data });
    const out = resolve(options.out);
    const place = await writeSnapshot(dataDir, out);
    const held = place.main === 0 && place.log === 0 ? "" : ` (write stream applied through ${Math.min(place.main, place.log)})`;
    console.log(`snapshot of ${dataDir} written to ${out}${held}`);
  });

program
  .command("serve")
  .description("start the HTTP service (seeds the demo merchant into an empty data dir unless AISLE_DEMO=off)")
  .option("--port <port>", "port to listen on (env PORT, default 8080)", portOption)
  .option("--data <dir>", "data directory (env AISLE_DATA_DIR, default ./data)")
  .option(
    "--nats <urls>",
    "run as a cluster node on these nats-servers, e.g. nats://10.0.0.1:4222,nats://10.0.0.2:4222 (env AISLE_NATS_URL)",
  )
  .action(serve);

program
  .command("import")
  .description("import JSON / NDJSON files of products, collections, customers, orders, markets, custom sources or search settings")
  .requiredOption("--merchant <id>", "merchant to import into")
  .option("--type <kind>", `what the files hold (${IMPORT_KINDS.join(", ")}); default: from the file name`, kindOption)
  .option("--data <dir>", "data directory (env AISLE_DATA_DIR, default ./data)")
  .option("--nats <urls>", "import into a cluster: publish to the write stream on these nats-servers instead (env AISLE_NATS_URL)")
  .option("--no-train", "do not retrain the similar-products model after importing products (cluster nodes keep theirs in step themselves)")
  .argument("<files...>")
  .action(importCommand);

const merchants = program.command("merchants").description("manage merchants");
merchants
  .command("add")
  .description("create a merchant and print its API key and webhook secret")
  .requiredOption("--id <id>", "merchant id (lowercase letters, digits, - and _)")
  .requiredOption("--name <name>", "display name")
  .requiredOption("--domain <domain>", "shop domain, e.g. shop.example.com")
  .option("--currency <code>", "ISO 4217 currency", "USD")
  .option("--data <dir>", "data directory (env AISLE_DATA_DIR, default ./data)")
  .option("--nats <urls>", "create it on a cluster: publish it to the write stream on these nats-servers instead (env AISLE_NATS_URL)")
  .action(addMerchant);
merchants
  .command("list")
  .description("list merchants (of a data dir: on a cluster, any node's, as each holds every merchant)")
  .option("--data <dir>", "data directory")
  .action(async (options: { data?: string }) => {
    const store = Store.open(loadConfig(process.env, { dataDir: options.data }).dataDir, { mustExist: true });
    for (const m of store.catalogue.listMerchants()) console.log(`${m.id}\t${m.domain}\t${m.currency}\t${m.name}`);
    await store.close();
  });

merchants
  .command("show")
  .description(
    "print a merchant with its API key and webhook secret (--api-key: the key alone, for scripts), from a data dir: on a cluster, any node's",
  )
  .argument("<id>")
  .option("--api-key", "print only the public API key")
  .option("--data <dir>", "data directory")
  .action(async (id: string, options: { apiKey?: boolean; data?: string }) => {
    const store = Store.open(loadConfig(process.env, { dataDir: options.data }).dataDir, { mustExist: true });
    try {
      const merchant = store.catalogue.merchant(id);
      if (!merchant) throw new InvalidInput("merchant", `no merchant ${id}`);
      // The tuned viewed-related settings with the validation figures that chose them, or the defaults it is served until then.
      const tuning = store.viewedRelatedTuning.read(id);
      const viewedRelated = tuning
        ? { ...tuning, tunedAt: new Date(tuning.tunedAt).toISOString() }
        : { tuned: false, settings: DEFAULT_VIEWED_RELATED };
      // The trained bought-together model's settings, validation figures and costs, or today's co-purchase lists until it has one.
      const model = store.fbtModel.manifest(id);
      const boughtTogether = model ? { ...model, trainedAt: new Date(model.trainedAt).toISOString() } : { trained: false };
      console.log(
        options.apiKey
          ? merchant.api_key
          : JSON.stringify({ ...merchant, viewed_related: viewedRelated, bought_together: boughtTogether }, null, 2),
      );
    } finally {
      await store.close();
    }
  });

program
  .command("rebuild")
  .description("rebuild a merchant's bought-together model from all its orders")
  .requiredOption("--merchant <id>", "merchant")
  .option("--data <dir>", "data directory")
  .action(async (options: { merchant: string; data?: string }) => {
    const store = Store.open(loadConfig(process.env, { dataDir: options.data }).dataDir, { mustExist: true });
    try {
      if (!store.catalogue.merchant(options.merchant)) throw new InvalidInput("--merchant", `no merchant ${options.merchant}`);
      const started = performance.now();
      await store.orders.rebuildCopurchase(options.merchant);
      console.log(`rebuilt the bought-together model of ${options.merchant} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      await store.close();
    }
  });

program
  .command("tune")
  .description(
    "tune a merchant's viewed-related on its own sessions (validated on the most recent tenth of them) and store the settings, as the service does in the background as sessions grow",
  )
  .requiredOption("--merchant <id>", "merchant")
  .option("--seed <n>", "seed of the validation sample", integerOption, DEFAULT_TUNE_OPTIONS.seed)
  .option("--data <dir>", "data directory")
  .action(async (options: { merchant: string; seed: number; data?: string }) => {
    const store = Store.open(loadConfig(process.env, { dataDir: options.data }).dataDir, { mustExist: true });
    try {
      if (!store.catalogue.merchant(options.merchant)) throw new InvalidInput("--merchant", `no merchant ${options.merchant}`);
      const tuned = tuneViewedRelated(store, options.merchant, { ...DEFAULT_TUNE_OPTIONS, seed: options.seed });
      if (tuned === null) {
        console.log(`${options.merchant} has no viewed sessions yet: viewed-related keeps the defaults`);
        return;
      }
      const { tuning } = tuned;
      await store.viewedRelatedTuning.write(options.merchant, tuning, tuned.rerankers);
      console.log(
        `tuned ${options.merchant} on ${tuning.trainSessions} sessions, validated on the ${tuning.validationSessions} most recent, in ${tuning.seconds} s (${tuning.evaluated} settings scored)`,
      );
      for (const mode of ["served", "protocol"] as const) {
        const { defaults, tuned } = tuning.validation[mode];
        console.log(
          `${mode}: validation HR@20 / MRR@20 ${defaults.hr.toFixed(2)} / ${defaults.mrr.toFixed(2)} with the defaults, ${tuned.hr.toFixed(2)} / ${tuned.mrr.toFixed(2)} tuned (${tuned.cases} cases)`,
        );
        console.log(`  ${JSON.stringify(tuning.settings[mode])}`);
        console.log(`  ${describeReranker(tuning.rerankers?.[mode] ?? null)}`);
      }
    } finally {
      await store.close();
    }
  });

program
  .command("train")
  .description(
    "train a merchant's similar-products model (text, then what is bought and viewed together), export it to ONNX and list every product's neighbours",
  )
  .requiredOption("--merchant <id>", "merchant")
  .option("--text-only", "skip fine-tuning on behaviour")
  .option("--data <dir>", "data directory")
  .action(async (options: { merchant: string; textOnly?: boolean; data?: string }) => {
    const { dataDir } = loadConfig(process.env, { dataDir: options.data });
    const store = Store.open(dataDir, { mustExist: true });
    const known = store.catalogue.merchant(options.merchant) !== undefined;
    await store.close();
    if (!known) throw new InvalidInput("--merchant", `no merchant ${options.merchant}`);
    await trainWithProgress(dataDir, options.merchant, !options.textOnly);
  });

const evaluations = program
  .command("eval")
  .description("quality evaluations on real public datasets (read from ../shared/data unless given)");

/**
 * Gives an eval subcommand its last option and its action: every evaluation logs
 * its progress to stdout and, with --json, ends with its metrics as one JSON object.
 */
function runsEvaluation<Options>(
  command: Command,
  evaluate: (options: Options, log: (line: string) => void) => Promise<Record<string, unknown>>,
): void {
  command
    .option("--json", "print the metrics as one JSON object on the last line")
    .action(async (options: Options & { json?: boolean }) => {
      const metrics = await evaluate(options, (line) => console.log(line));
      if (options.json) console.log(JSON.stringify(metrics));
    });
}

/** The Online Retail evaluations share their data file and split options. */
function onlineRetailEval(
  name: string,
  description: string,
  run: (options: { data: string; split: RetailSplit; log: (line: string) => void }) => Promise<Record<string, unknown>>,
): void {
  runsEvaluation(
    evaluations
      .command(name)
      .description(description)
      .option("--data <file>", "Online Retail parquet file", "../shared/data/online-retail.parquet")
      .option("--split <split>", "test (reported) or validation (for tuning)", "test"),
    (options: { data: string; split: string }, log) => {
      if (options.split !== "test" && options.split !== "validation") throw new InvalidInput("--split", "must be test or validation");
      return run({ data: options.data, split: options.split, log });
    },
  );
}

onlineRetailEval("fbt", "bought together: the Online Retail protocol (HR@10, NDCG@10, coverage@10)", evalFbt);
onlineRetailEval(
  "similar",
  "similar products: the Online Retail protocol, behaviour-tuned model against its text-only start (HR@10, NDCG@10)",
  evalSimilar,
);

runsEvaluation(
  evaluations
    .command("sessions")
    .description(
      "session next item: the Diginetica protocol (HR@20, MRR@20 with 95% intervals, compute per case), after the tune step picks the settings from the train sessions",
    )
    .option("--train <file>", "train sessions, one per line", "../shared/data/diginetica/train_sessions.txt")
    .option("--test <file>", "test cases: prefix TAB next item", "../shared/data/diginetica/test_cases.tsv")
    .option(
      "--carve <share>",
      "instead of --test: keep the first <share> (0 … 1) of the train sessions by time and hold out the last tenth of those as test sessions",
      shareOption,
    )
    .option("--seed <n>", "seed of the tune step's validation sample and of the bootstrap", integerOption, 1),
  (options: { train: string; test: string; carve?: number; seed: number }, log) =>
    evalSessions({ train: options.train, test: options.test, carve: options.carve ?? null, seed: options.seed, log }),
);

runsEvaluation(
  evaluations
    .command("search")
    .description("quick-view search: the Home Depot protocol (NDCG@10, condensed, typeahead Success@5 at 3/5/8 characters)")
    .option("--products <file>", "products: product_uid TAB product_title", "../shared/data/homedepot_products.tsv")
    .option("--judgments <file>", "judgments: search_term TAB product_uid TAB relevance", "../shared/data/homedepot_dev_judgments.tsv")
    .option("--flexsearch-baseline", "also rank with FlexSearch alone, for comparison"),
  (options: { products: string; judgments: string; flexsearchBaseline?: boolean }, log) =>
    evalSearch({ products: options.products, judgments: options.judgments, flexsearchBaseline: options.flexsearchBaseline === true, log }),
);

program
  .command("bench")
  .description("run the benchmark suite (same as npm run bench)")
  .option("--quick", "a ~30 s smoke run with short durations")
  .action(async () => {
    // Resolved at run time: the bench suite is built beside the CLI but is not part of the service.
    const runner = new URL("../bench/run.js", import.meta.url).href;
    await import(runner);
  });

/**
 * An error of the file system about a path the operator gave (a file that is
 * not there, a directory where a file goes, a disk that is read-only): its
 * message names the path and what is wrong, which is all there is to say.
 */
function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  const { code, path } = error as NodeJS.ErrnoException;
  return error instanceof Error && typeof path === "string" && OPERATOR_PATH_CODES.has(code ?? "");
}

/** What a path the operator gave can be wrong by; the others (EMFILE, EXDEV…) are aisle's to explain, with their stack. */
const OPERATOR_PATH_CODES = new Set(["ENOENT", "ENOTDIR", "EISDIR", "EEXIST", "EACCES", "EPERM", "EROFS"]);

program.parseAsync().catch((error: unknown) => {
  if (
    error instanceof InvalidInput ||
    error instanceof ConfigError ||
    error instanceof AlreadyExistsError ||
    error instanceof StoreFormatError ||
    error instanceof StoreNotFoundError ||
    error instanceof DataDirInUseError ||
    error instanceof SnapshotTargetError ||
    error instanceof ListenError ||
    error instanceof DataDirUnusableError ||
    isFileSystemError(error)
  ) {
    console.error(`aisle: ${error.message}`);
    process.exit(2);
  }
  if (error instanceof StreamWriteError) {
    console.error(`aisle: ${error.message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
