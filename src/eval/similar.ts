// `aisle eval similar`: the Online Retail "similar products" protocol of the
// data README. The model is trained, exported and served exactly as for a
// shop (src/similar/build.ts), and lists come from the recommended worker code
// with context=similar.
import { performance } from "node:perf_hooks";
import { listOptionsFrom, type RecommendationContext, type RecommendedTask } from "../core/products/query.js";
import { recommended } from "../lists/recommended.js";
import { buildSimilarModel, DEFAULT_BUILD } from "../similar/build.js";
import { bootstrapInterval, percentile, RankingMetrics } from "./metrics.js";
import { fbtCases, loadOnlineRetail, protocolSplit, type RetailSplit } from "./online-retail.js";
import { loadRetailMerchant, type RetailMerchant } from "./retail-merchant.js";

export interface SimilarEvalOptions {
  data: string;
  split: RetailSplit;
  log: (line: string) => void;
}

const K = 10;
/** Seeds the bootstrap's resamples: the same for every system, so their intervals are paired. */
const BOOTSTRAP_SEED = 1;
const decoder = new TextDecoder();

interface Case {
  query: number;
  relevant: Set<number>;
}

/** A case's hit (0 or 1) and NDCG@K, as RankingMetrics counts them: what the intervals resample. */
function caseScores(ranked: readonly number[], relevant: ReadonlySet<number>): { hit: number; ndcg: number } {
  let dcg = 0;
  ranked.slice(0, K).forEach((id, index) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(index + 2);
  });
  let ideal = 0;
  for (let index = 0; index < Math.min(relevant.size, K); index++) ideal += 1 / Math.log2(index + 2);
  return { hit: dcg > 0 ? 1 : 0, ndcg: ideal > 0 ? dcg / ideal : 0 };
}

function score(retail: RetailMerchant, cases: Case[], context: RecommendationContext, catalogueSize: number) {
  const list = listOptionsFrom({ limit: K, filter_oos: false }, "reduced", { ranked: true });
  const metrics = new RankingMetrics(K);
  const hits: number[] = [];
  const gains: number[] = [];
  const ms = new Float64Array(cases.length);
  for (const [index, { query, relevant }] of cases.entries()) {
    const task: RecommendedTask = {
      kind: "recommended",
      merchantId: retail.merchantId,
      context,
      inputs: { productIds: [query], variantIds: [], collectionId: null },
      list,
    };
    const started = performance.now();
    const body = recommended(retail.store, task);
    ms[index] = performance.now() - started;
    const ranked = (JSON.parse(decoder.decode(body)) as { data: { id: number }[] }).data.map((product) => product.id);
    metrics.add(ranked, relevant);
    const { hit, ndcg } = caseScores(ranked, relevant);
    hits.push(hit);
    gains.push(ndcg);
  }
  return {
    ...metrics.result(catalogueSize),
    hr_95: bootstrapInterval(hits, BOOTSTRAP_SEED),
    ndcg_95: bootstrapInterval(gains, BOOTSTRAP_SEED),
    ms_per_query: ms.reduce((sum, value) => sum + value, 0) / Math.max(1, cases.length),
    p50_ms: percentile(ms.sort(), 0.5),
    p99_ms: percentile(ms, 0.99),
  };
}

export async function evalSimilar(options: SimilarEvalOptions): Promise<Record<string, unknown>> {
  const started = performance.now();
  const { invoices, descriptions } = await loadOnlineRetail(options.data);
  const { train, test, boundary } = protocolSplit(invoices, options.split);
  const retail = await loadRetailMerchant(train, descriptions);
  try {
    // The stored rankings as of the split, as the applier thread would have refreshed them: the endpoint's fallbacks.
    retail.store.rankingWriter.refreshSync(retail.merchantId, boundary - 1);
    // The protocol: the first query item alone; every other item of the invoice (known in train) is a hit.
    const cases: Case[] = fbtCases(train, test).map(({ invoice, query }) => {
      const known = invoice.items.map(retail.productId).filter((id) => id !== 0);
      const first = retail.productId(query[0]!);
      return { query: first, relevant: new Set(known.filter((id) => id !== first)) };
    });
    const catalogueSize = new Set(train.flatMap((invoice) => invoice.items)).size;
    options.log(`${options.split} split: ${train.length} train invoices, ${cases.length} cases, ${catalogueSize} products`);

    const rows: Record<string, ReturnType<typeof score> & { build_s?: number }> = {};
    for (const [name, useBehaviour] of [
      ["text_only", false],
      ["behaviour_tuned", true],
    ] as const) {
      const buildStarted = performance.now();
      const manifest = await buildSimilarModel(retail.store, retail.dataDir, retail.merchantId, { ...DEFAULT_BUILD, useBehaviour });
      const buildSeconds = (performance.now() - buildStarted) / 1000;
      options.log(
        `${name}: model ${manifest.version} (${manifest.hashing.buckets} buckets × ${manifest.dims}), ${manifest.training.samples} behaviour pairs, built in ${buildSeconds.toFixed(1)} s`,
      );
      rows[name] = { ...score(retail, cases, "similar", catalogueSize), build_s: buildSeconds };
    }
    rows.bought_together = score(retail, cases, "bought_together", catalogueSize);

    const interval = ([low, high]: [number, number]) => `[${low.toFixed(3)}, ${high.toFixed(3)}]`;
    const line = (name: string, r: ReturnType<typeof score>) =>
      `${name.padEnd(44)} ${r.hr.toFixed(3).padStart(6)} ${r.ndcg.toFixed(3).padStart(8)} ${r.coverage.toFixed(3).padStart(12)} ${r.p50_ms.toFixed(3).padStart(7)} ${r.p99_ms.toFixed(3).padStart(7)}   HR ${interval(r.hr_95)}, NDCG ${interval(r.ndcg_95)}`;
    options.log("");
    options.log(
      `${"system".padEnd(44)} ${"HR@10".padStart(6)} ${"NDCG@10".padStart(8)} ${"coverage@10".padStart(12)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)}   95% bootstrap intervals over cases (compute per query: the worker's code)`,
    );
    options.log(line("similar: text-only starting point", rows.text_only!));
    options.log(line("similar: behaviour-tuned (served model)", rows.behaviour_tuned!));
    options.log(line("for context: bought-together model", rows.bought_together!));
    options.log("");
    options.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { eval: "similar", split: options.split, cases: cases.length, ...rows };
  } finally {
    await retail.close();
  }
}
