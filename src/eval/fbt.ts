// `aisle eval fbt`: the Online Retail "bought together" protocol of the data README,
// scored through the recommended endpoint's own worker code, beside EASE as aisle
// computes it on the same data and the popularity baseline.
import { performance } from "node:perf_hooks";
import { listOptionsFrom, type RecommendedTask } from "../core/products/query.js";
import { recommended } from "../lists/recommended.js";
import { trainFbt } from "../recs/train-fbt.js";
import { fitEaseBaseline } from "./ease-baseline.js";
import { bootstrapInterval, percentile, RankingMetrics } from "./metrics.js";
import { fbtCases, loadOnlineRetail, protocolSplit, type RetailSplit } from "./online-retail.js";
import { loadRetailMerchant } from "./retail-merchant.js";

export interface FbtOptions {
  data: string;
  /** validation: train before October 2011, evaluate on October (for tuning); test: the reported split. */
  split: RetailSplit;
  log: (line: string) => void;
}

const REFERENCE = [
  { system: "popularity (units, last 30 days of train)", hr: 0.049, ndcg: 0.025, coverage: 0.004 },
  { system: "item-kNN cosine", hr: 0.104, ndcg: 0.063, coverage: 0.534 },
  { system: "item-kNN, lift damped (β = 0.25)", hr: 0.11, ndcg: 0.067, coverage: 0.436 },
  { system: "item-kNN cosine, large baskets down-weighted", hr: 0.112, ndcg: 0.066, coverage: 0.622 },
  { system: "EASE (λ = 50) — the reference to beat", hr: 0.121, ndcg: 0.072, coverage: 0.546 },
];

const K = 10;
/** The popularity baseline's window of sales. */
const POPULARITY_DAYS = 30;
/** Seeds the bootstrap's resamples: the same for every system, so their intervals and differences are paired. */
const BOOTSTRAP_SEED = 1;
const decoder = new TextDecoder();

/** One system's per-case figures: what its intervals and the paired differences resample. */
class SystemScores {
  readonly hits: number[] = [];
  readonly gains: number[] = [];
  readonly ms: number[] = [];
  private readonly metrics = new RankingMetrics(K);

  constructor(readonly name: string) {}

  add<T extends string | number>(ranked: readonly T[], target: T, ms: number): void {
    const rank = ranked.slice(0, K).indexOf(target);
    this.hits.push(rank < 0 ? 0 : 1);
    this.gains.push(rank < 0 ? 0 : 1 / Math.log2(rank + 2));
    this.ms.push(ms);
    this.metrics.add(ranked, new Set([target]));
  }

  summary(catalogueSize: number) {
    const { hr, ndcg, coverage } = this.metrics.result(catalogueSize);
    const ms = Float64Array.from(this.ms).sort();
    return {
      hr,
      hr_95: bootstrapInterval(this.hits, BOOTSTRAP_SEED),
      ndcg,
      ndcg_95: bootstrapInterval(this.gains, BOOTSTRAP_SEED),
      coverage,
      p50_ms: percentile(ms, 0.5),
      p99_ms: percentile(ms, 0.99),
    };
  }

  /** This system's figures minus another's, case by case, with intervals. */
  minus(other: SystemScores) {
    const hits = this.hits.map((hit, i) => hit - other.hits[i]!);
    const gains = this.gains.map((gain, i) => gain - other.gains[i]!);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
    return {
      hr: mean(hits),
      hr_95: bootstrapInterval(hits, BOOTSTRAP_SEED),
      ndcg: mean(gains),
      ndcg_95: bootstrapInterval(gains, BOOTSTRAP_SEED),
    };
  }
}

export async function evalFbt(options: FbtOptions): Promise<Record<string, unknown>> {
  const started = performance.now();
  const { invoices, descriptions } = await loadOnlineRetail(options.data);
  const { train, test, boundary } = protocolSplit(invoices, options.split);
  const cases = fbtCases(train, test);
  options.log(`${options.split} split: ${train.length} train invoices, ${cases.length} cases`);

  const loadStarted = performance.now();
  const retail = await loadRetailMerchant(train, descriptions);
  const loadMs = performance.now() - loadStarted;
  options.log(
    `ingested ${train.length} orders through the store in ${(loadMs / 1000).toFixed(1)} s (co-purchase lists updated incrementally)`,
  );
  try {
    // The background training step, run here synchronously: the same code and the same store write as its thread.
    const trainStarted = performance.now();
    const training = trainFbt(retail.store, retail.merchantId);
    const manifest = await retail.store.fbtModel.replace(retail.merchantId, training.manifest, training.lists);
    const trainSeconds = (performance.now() - trainStarted) / 1000;
    options.log(
      `aisle's model trained on the shop's own orders in ${trainSeconds.toFixed(1)} s, largest matrix ${(manifest.peakBytes / 2 ** 20).toFixed(0)} MB: ${JSON.stringify({ settings: manifest.settings, skipped: manifest.skipped, validation: manifest.validation, products: manifest.products })}`,
    );

    options.log("fitting the EASE baseline (λ chosen on the last month of train)…");
    const ease = fitEaseBaseline(train, boundary, K, options.log);
    options.log(
      `  chose λ = ${ease.lambda}; final fit over ${ease.items} items in ${ease.fitSeconds.toFixed(1)} s, ${(ease.bytes / 2 ** 20).toFixed(0)} MB`,
    );

    const catalogueSize = new Set(train.flatMap((invoice) => invoice.items)).size;
    const list = listOptionsFrom({ limit: K, filter_oos: false }, "reduced", { ranked: true });
    const ours = new SystemScores("aisle recommended (trained model + fallbacks)");
    const baseline = new SystemScores(`EASE computed by aisle (λ = ${ease.lambda})`);
    const popularity = new SystemScores("popularity (top sellers, 30 days)");
    // The stored rankings as of the split, as the applier thread would have refreshed them: the endpoint's fallbacks and the baseline.
    retail.store.rankingWriter.refreshSync(retail.merchantId, boundary - 1, [POPULARITY_DAYS]);
    const popular = [...retail.store.rankings.read(retail.merchantId, { kind: "top_sellers", days: POPULARITY_DAYS, collectionId: null })];

    for (const testCase of cases) {
      const query = testCase.query.map(retail.productId);
      const target = retail.productId(testCase.target);
      const task: RecommendedTask = {
        kind: "recommended",
        merchantId: retail.merchantId,
        context: "bought_together",
        inputs: { productIds: query, variantIds: [], collectionId: null },
        list,
      };
      let t0 = performance.now();
      const body = recommended(retail.store, task);
      const ranked = (JSON.parse(decoder.decode(body)) as { data: { id: number }[] }).data.map((p) => p.id);
      ours.add(ranked, target, performance.now() - t0);
      t0 = performance.now();
      const easeRanked = ease.recommend(testCase.query);
      baseline.add(easeRanked, testCase.target, performance.now() - t0);
      popularity.add(
        popular.filter((id) => !query.includes(id)),
        target,
        0,
      );
    }

    const systems = [ours, baseline, popularity].map((system) => ({ name: system.name, ...system.summary(catalogueSize) }));
    const difference = ours.minus(baseline);
    const interval = ([low, high]: [number, number]) => `[${low.toFixed(3)}, ${high.toFixed(3)}]`;
    const row = (name: string, r: { hr: number; ndcg: number; coverage: number }, extra = "") =>
      `${name.padEnd(52)} ${r.hr.toFixed(3).padStart(6)} ${r.ndcg.toFixed(3).padStart(8)} ${r.coverage.toFixed(3).padStart(12)}${extra}`;
    options.log("");
    options.log(
      `${"system".padEnd(52)} ${"HR@10".padStart(6)} ${"NDCG@10".padStart(8)} ${"coverage@10".padStart(12)}   95% intervals, compute per query`,
    );
    for (const s of systems) {
      const time = s.name.startsWith("popularity") ? "" : `, p50 ${s.p50_ms.toFixed(3)} ms, p99 ${s.p99_ms.toFixed(3)} ms`;
      options.log(row(s.name, s, `   HR ${interval(s.hr_95)}, NDCG ${interval(s.ndcg_95)}${time}`));
    }
    if (options.split === "test") for (const ref of REFERENCE) options.log(row(`reference: ${ref.system}`, ref));
    options.log("");
    options.log(
      `aisle − EASE (paired, same cases): HR@10 ${difference.hr >= 0 ? "+" : ""}${difference.hr.toFixed(4)} ${interval(difference.hr_95)}, NDCG@10 ${difference.ndcg >= 0 ? "+" : ""}${difference.ndcg.toFixed(4)} ${interval(difference.ndcg_95)}`,
    );
    options.log(
      `${cases.length} cases; aisle's time is the full endpoint work (ranking, filters, JSON); total ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return {
      eval: "fbt",
      split: options.split,
      cases: cases.length,
      engine: systems[0],
      ease: { ...systems[1], lambda: ease.lambda, tried: ease.tried, validation_cases: ease.validationCases },
      popularity: systems[2],
      engine_minus_ease: difference,
      training: {
        seconds: trainSeconds,
        peak_bytes: manifest.peakBytes,
        settings: manifest.settings,
        skipped: manifest.skipped,
        validation: manifest.validation,
        products: manifest.products,
      },
      ingest_ms: loadMs,
      reference_best: REFERENCE[REFERENCE.length - 1],
    };
  } finally {
    await retail.close();
  }
}
