// `aisle eval fbt`: the Online Retail "bought together" protocol of the data README,
// scored through the recommended endpoint's own worker code.
import { performance } from "node:perf_hooks";
import { listOptionsFrom, type RecommendedTask } from "../core/products/query.js";
import { recommended } from "../lists/recommended.js";
import { RankingMetrics } from "./metrics.js";
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
const decoder = new TextDecoder();

export async function evalFbt(options: FbtOptions): Promise<Record<string, unknown>> {
  const started = performance.now();
  const { invoices, descriptions } = await loadOnlineRetail(options.data);
  const { train, test, boundary } = protocolSplit(invoices, options.split);
  const cases = fbtCases(train, test);
  options.log(`${options.split} split: ${train.length} train invoices, ${cases.length} cases`);

  const loadStarted = performance.now();
  const retail = await loadRetailMerchant(train, descriptions);
  const loadMs = performance.now() - loadStarted;
  options.log(`ingested ${train.length} orders through the store in ${(loadMs / 1000).toFixed(1)} s (model updated incrementally)`);
  try {
    const catalogueSize = new Set(train.flatMap((invoice) => invoice.items)).size;
    const list = listOptionsFrom({ limit: K, filter_oos: false }, "reduced", { ranked: true });
    const engine = new RankingMetrics(K);
    const popularity = new RankingMetrics(K);
    // The stored rankings as of the split, as the applier thread would have refreshed them: the endpoint's fallbacks and the baseline.
    retail.store.rankingWriter.refreshSync(retail.merchantId, boundary - 1, [POPULARITY_DAYS]);
    const popular = [...retail.store.rankings.read(retail.merchantId, { kind: "top_sellers", days: POPULARITY_DAYS, collectionId: null })];
    let scoringMs = 0;

    for (const testCase of cases) {
      const query = testCase.query.map(retail.productId);
      const relevant = new Set([retail.productId(testCase.target)]);
      const task: RecommendedTask = {
        kind: "recommended",
        merchantId: retail.merchantId,
        context: "bought_together",
        inputs: { productIds: query, variantIds: [], collectionId: null },
        list,
      };
      const t0 = performance.now();
      const body = recommended(retail.store, task);
      scoringMs += performance.now() - t0;
      const ranked = (JSON.parse(decoder.decode(body)) as { data: { id: number }[] }).data.map((p) => p.id);
      engine.add(ranked, relevant);
      popularity.add(
        popular.filter((id) => !query.includes(id)),
        relevant,
      );
    }

    const ours = engine.result(catalogueSize);
    const baseline = popularity.result(catalogueSize);
    const perQueryMs = scoringMs / Math.max(1, cases.length);
    const row = (name: string, r: { hr: number; ndcg: number; coverage: number }) =>
      `${name.padEnd(52)} ${r.hr.toFixed(3).padStart(6)} ${r.ndcg.toFixed(3).padStart(8)} ${r.coverage.toFixed(3).padStart(12)}`;
    options.log("");
    options.log(`${"system".padEnd(52)} ${"HR@10".padStart(6)} ${"NDCG@10".padStart(8)} ${"coverage@10".padStart(12)}`);
    options.log(row("aisle recommended (co-purchase + fallbacks)", ours));
    options.log(row("aisle popularity baseline (top sellers, 30 days)", baseline));
    if (options.split === "test") for (const ref of REFERENCE) options.log(row(`reference: ${ref.system}`, ref));
    options.log("");
    options.log(
      `${ours.cases} cases; ${perQueryMs.toFixed(3)} ms per query (full endpoint work: ranking, filters, JSON); total ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return {
      eval: "fbt",
      split: options.split,
      cases: ours.cases,
      engine: ours,
      popularity: baseline,
      ms_per_query: perQueryMs,
      ingest_ms: loadMs,
      reference_best: REFERENCE[REFERENCE.length - 1],
    };
  } finally {
    await retail.close();
  }
}
