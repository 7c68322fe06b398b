// `aisle eval sessions`: the Diginetica next-item protocol of the data README.
// Train sessions go in as view events through the store (as the event endpoint
// writes them); the tune step the service runs then picks the shop's settings
// from those sessions alone (its validation is their most recent end, never a
// test case), and the test cases are ranked by the viewed-related code the
// server runs, first with the defaults, then with the tuned settings. Beside
// them, baselines computed here on the same data: S-POP, and session kNN with
// the tuned settings alone. Each figure has a 95% bootstrap interval over test
// sessions.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { carveNextItemCases, type NextItemCase } from "../core/recs/next-item-cases.js";
import { NEXT_ITEM_K } from "../core/recs/next-item-figures.js";
import { rankByScore } from "../core/recs/sales.js";
import { sessionPopularity } from "../core/recs/session-popularity.js";
import type { ViewedRelatedMode } from "../core/recs/viewed-related-settings.js";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import { ingest, MAX_BATCH_ITEMS } from "../ingest/ingest.js";
import { createMerchant } from "../ingest/merchants.js";
import { rankRelatedToViews, relatedToViews } from "../recs/related-to-views.js";
import { scoreNextViews } from "../recs/session-model.js";
import { describeReranker } from "../recs/train-viewed-reranker.js";
import { DEFAULT_TUNE_OPTIONS, tuneViewedRelated } from "../recs/tune-viewed-related.js";
import { Store } from "../stores/store.js";
import { groupedBootstrapInterval } from "../core/bootstrap.js";

export interface SessionsOptions {
  train: string;
  /** Test cases; ignored with `carve`. */
  test: string;
  /** Instead of `test`: the first `carve` share of the train sessions (by time), of which the last CARVED_TEST_SHARE are test sessions. */
  carve: number | null;
  /** Seeds the tune step's validation sample and the bootstrap. */
  seed: number;
  log: (line: string) => void;
}

const REFERENCE = [
  { system: "item-to-item transitions from the last item", hr: 34.75, mrr: 12.96 },
  { system: "sequential rules with decay", hr: 46.89, mrr: 15.43 },
  { system: "SKNN (tuned)", hr: 49.68, mrr: 17.25 },
  { system: "V-SKNN (tuned)", hr: 51.58, mrr: 18.28 },
  { system: "V-SKNN + boost for items in the session", hr: 52.56, mrr: 18.95 },
  { system: "SR-GNN (Wu et al., AAAI 2019)", hr: 50.73, mrr: 17.59 },
  { system: "GCE-GNN (Wang et al., SIGIR 2020)", hr: 54.22, mrr: 19.04 },
];

const EVENTS_PER_WRITE = 50_000;
/** A carved test set: the last tenth of the sessions kept, about the share Diginetica's test week is of its sessions. */
const CARVED_TEST_SHARE = 0.1;

function readSessions(path: string): number[][] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.trim().split(/\s+/).map(Number));
}

/**
 * Test cases of a file, `prefix TAB next` a line. A session's cases are
 * consecutive, longest prefix first: a case whose prefix is the previous
 * one's but its last item, and whose next item is that last item, belongs to
 * the same session.
 */
function readCases(path: string): NextItemCase[] {
  const cases: NextItemCase[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const [prefixText = "", nextText = ""] = line.split("\t");
    const prefix = prefixText.trim().split(/\s+/).map(Number);
    const before = cases[cases.length - 1];
    const continues =
      before !== undefined &&
      before.prefix.length === prefix.length + 1 &&
      before.prefix[prefix.length] === Number(nextText) &&
      prefix.every((item, i) => before.prefix[i] === item);
    cases.push({ prefix, next: Number(nextText), session: before === undefined ? 0 : before.session + (continues ? 0 : 1) });
  }
  return cases;
}

/** A stable UUID-shaped id for train session n. */
function sessionUuid(n: number): string {
  const hex = createHash("sha1").update(`session-${n}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A system's ranking of a case: product ids, best first (the endpoint's code may await its re-ranker). It may be
 * sorted as it is read, as the endpoint reads it: it is read once, as far as the cut.
 */
type Ranker = (prefix: readonly number[]) => Iterable<number> | Promise<Iterable<number>>;

interface Variant {
  name: string;
  mode: ViewedRelatedMode;
  rank: Ranker;
}

interface Scored {
  name: string;
  mode: ViewedRelatedMode;
  hr: number;
  hr_95: [number, number];
  mrr: number;
  mrr_95: [number, number];
  p50_us: number;
  p99_us: number;
}

/**
 * Scores a ranking over the cases: HR@20 and MRR@20 with their intervals, and
 * the time per case (ranking included). Served: the prefix's items are never
 * shown (as the endpoint leaves every viewed product out), so a repeat view
 * is a miss.
 */
async function score(variant: Variant, cases: readonly NextItemCase[], seed: number): Promise<Scored> {
  const hits = new Float64Array(cases.length);
  const reciprocal = new Float64Array(cases.length);
  const times = new Float64Array(cases.length);
  for (const [index, { prefix, next }] of cases.entries()) {
    const t0 = performance.now();
    const shown = firstShown(await variant.rank(prefix), variant.mode === "served" ? prefix : [], NEXT_ITEM_K);
    times[index] = performance.now() - t0;
    const rank = shown.indexOf(next);
    if (rank >= 0) {
      hits[index] = 100;
      reciprocal[index] = 100 / (rank + 1);
    }
  }
  times.sort();
  const groups = Int32Array.from(cases, (c) => c.session);
  const mean = (values: Float64Array) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return {
    name: variant.name,
    mode: variant.mode,
    hr: mean(hits),
    hr_95: groupedBootstrapInterval(hits, groups, seed),
    mrr: mean(reciprocal),
    mrr_95: groupedBootstrapInterval(reciprocal, groups, seed),
    p50_us: 1000 * times[Math.floor(times.length * 0.5)]!,
    p99_us: 1000 * times[Math.floor(times.length * 0.99)]!,
  };
}

/** The first `count` of the ranking that are not left out, read no further. */
function firstShown(ranked: Iterable<number>, leftOut: readonly number[], count: number): number[] {
  const shown: number[] = [];
  if (count === 0) return shown;
  for (const item of ranked) {
    if (leftOut.includes(item)) continue;
    shown.push(item);
    if (shown.length === count) break;
  }
  return shown;
}

async function fillStore(store: Store, merchant: MerchantId, sessions: readonly number[][]): Promise<void> {
  const items = [...new Set(sessions.flat())];
  for (let start = 0; start < items.length; start += MAX_BATCH_ITEMS) {
    const products = items.slice(start, start + MAX_BATCH_ITEMS).map((id) => ({
      id,
      title: `Item ${id}`,
      variants: [{ id, price: "1.00", inventory_management: null }],
    }));
    await ingest(store, merchant, "products", products);
  }
  // Sessions in file order are in time order: give their events increasing timestamps.
  let batch: BehaviourEvent[] = [];
  let at = Date.parse("2016-01-01T00:00:00Z");
  for (const [n, session] of sessions.entries()) {
    const uuid = sessionUuid(n);
    for (const item of session) batch.push({ at: at++, uuid, customer_id: null, verb: "viewed", product_id: item, theme_id: null });
    if (batch.length >= EVENTS_PER_WRITE) {
      await store.applied.appendEvents(merchant, batch);
      batch = [];
    }
  }
  if (batch.length > 0) await store.applied.appendEvents(merchant, batch);
}

/** Train items by views, most viewed first (ties: the smaller id): S-POP's popular tail. */
function byViews(sessions: readonly number[][]): number[] {
  const views = new Map<number, number>();
  for (const session of sessions) for (const item of session) views.set(item, (views.get(item) ?? 0) + 1);
  return [...views].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([item]) => item);
}

const interval = ([low, high]: [number, number]) => `[${low.toFixed(2)}, ${high.toFixed(2)}]`;

export async function evalSessions(options: SessionsOptions): Promise<Record<string, unknown>> {
  const started = performance.now();
  const log = options.log;
  const all = readSessions(options.train);
  let sessions = all;
  let cases: NextItemCase[];
  if (options.carve === null) cases = readCases(options.test);
  else {
    const carved = carveNextItemCases(all.slice(0, Math.round(options.carve * all.length)), CARVED_TEST_SHARE);
    sessions = carved.train;
    cases = carved.cases;
    log(
      `carved: the first ${options.carve} of ${all.length} train sessions, the last ${CARVED_TEST_SHARE} of them held out as test sessions`,
    );
  }
  const inPrefix = cases.filter((c) => c.prefix.includes(c.next)).length;
  log(
    `${sessions.length} train sessions, ${cases.length} test cases of ${cases[cases.length - 1]!.session + 1} sessions (${((100 * inPrefix) / cases.length).toFixed(1)}% of targets were already viewed in the prefix)`,
  );

  const dir = mkdtempSync(join(tmpdir(), "aisle-eval-sessions-"));
  const store = Store.open(dir);
  try {
    const merchant = (await createMerchant(store, { id: "sessions", name: "Sessions", domain: "sessions.example.com" })).id;
    const ingestStarted = performance.now();
    await fillStore(store, merchant, sessions);
    const ingestMs = performance.now() - ingestStarted;
    log(`events written through the store, with the session index, in ${(ingestMs / 1000).toFixed(1)} s`);

    const endpoint =
      (mode: ViewedRelatedMode): Ranker =>
      (prefix) =>
        relatedToViews(store, merchant, prefix, null, mode);
    const results: Scored[] = [];
    const run = async (variant: Variant) => {
      const scored = await score(variant, cases, options.seed);
      results.push(scored);
      log(`  scored ${variant.name}`);
    };
    // A shop not tuned yet is answered with the defaults: this is where tuning starts from.
    await run({ name: "aisle viewed-related, defaults (before tuning)", mode: "served", rank: endpoint("served") });
    await run({ name: "aisle viewed-related, defaults (before tuning)", mode: "protocol", rank: endpoint("protocol") });

    // The service trains the served setting's re-ranker only (the one the endpoint serves); both are scored here.
    const tuned = tuneViewedRelated(store, merchant, {
      ...DEFAULT_TUNE_OPTIONS,
      seed: options.seed,
      rerankerModes: ["served", "protocol"],
    });
    if (tuned === null) throw new Error("the train sessions left the session index empty");
    const { tuning } = tuned;
    await store.viewedRelatedTuning.write(merchant, tuning, tuned.rerankers);
    log(
      `tuned on ${tuning.validationSessions} validation sessions (the train sessions' most recent ${DEFAULT_TUNE_OPTIONS.validationShare}) in ${tuning.seconds} s, ${tuning.evaluated} settings scored:`,
    );
    for (const mode of ["served", "protocol"] as const) {
      const { defaults, tuned } = tuning.validation[mode];
      log(
        `  ${mode.padEnd(8)} validation HR@20 / MRR@20 ${defaults.hr.toFixed(2)} / ${defaults.mrr.toFixed(2)} (defaults) → ${tuned.hr.toFixed(2)} / ${tuned.mrr.toFixed(2)} over ${tuned.cases} cases: ${JSON.stringify(tuning.settings[mode])}`,
      );
      log(`           ${describeReranker(tuning.rerankers?.[mode] ?? null)}`);
    }

    await run({ name: "aisle viewed-related, tuned", mode: "served", rank: endpoint("served") });
    await run({ name: "aisle viewed-related, tuned", mode: "protocol", rank: endpoint("protocol") });
    for (const mode of ["served", "protocol"] as const)
      if (tuning.rerankers?.[mode]?.adopted === true)
        await run({
          name: "aisle viewed-related, tuned, its re-ranker left out",
          mode,
          rank: (prefix) => rankRelatedToViews(store, merchant, prefix, null, mode).ranking,
        });
    const popular = byViews(sessions);
    const knnAlone = (mode: ViewedRelatedMode): Ranker => {
      const knn = { ...tuning.settings[mode].knn, boost: 0 };
      return (prefix) => rankByScore(scoreNextViews(store, merchant, prefix, null, knn));
    };
    await run({
      name: "baseline: S-POP (popular; viewed left out)",
      mode: "served",
      rank: (prefix) => sessionPopularity(prefix, popular, NEXT_ITEM_K, false),
    });
    await run({
      name: "baseline: S-POP (own items, then popular)",
      mode: "protocol",
      rank: (prefix) => sessionPopularity(prefix, popular, NEXT_ITEM_K, true),
    });
    await run({ name: "baseline: session kNN, tuned settings alone", mode: "served", rank: knnAlone("served") });
    await run({ name: "baseline: session kNN, tuned settings, no boost", mode: "protocol", rank: knnAlone("protocol") });

    const row = (name: string, hr: string, mrr: string, extra = "") => `${name.padEnd(60)} ${hr.padEnd(22)} ${mrr.padEnd(22)} ${extra}`;
    for (const mode of ["served", "protocol"] as const) {
      log("");
      log(
        mode === "served"
          ? "served setting: viewed items left out, as the endpoint answers (a repeat view is a miss)"
          : "protocol setting: repeat views count as hits",
      );
      log(row("system", "HR@20 [95%]", "MRR@20 [95%]", "compute per case"));
      for (const r of results.filter((result) => result.mode === mode)) {
        const time = r.name.startsWith("aisle") ? `p50 ${r.p50_us.toFixed(0)} µs, p99 ${r.p99_us.toFixed(0)} µs` : "";
        log(row(r.name, `${r.hr.toFixed(2)} ${interval(r.hr_95)}`, `${r.mrr.toFixed(2)} ${interval(r.mrr_95)}`, time));
      }
      if (mode === "protocol" && options.carve === null)
        for (const ref of REFERENCE) log(row(`reference: ${ref.system}`, ref.hr.toFixed(2), ref.mrr.toFixed(2)));
    }
    log("");
    log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return {
      eval: "sessions",
      carve: options.carve,
      train_sessions: sessions.length,
      cases: cases.length,
      results,
      tuning: {
        settings: tuning.settings,
        validation: tuning.validation,
        rerankers: tuning.rerankers,
        seconds: tuning.seconds,
        evaluated: tuning.evaluated,
      },
      ingest_ms: ingestMs,
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
