// `aisle eval search`: the Home Depot quick-view protocol of the data README.
// The titles go in as products of one merchant through the ingest path the
// admin API uses, which writes the stored search index workers read, and every
// ranking comes from the endpoint's own searchProductIds.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { quickViewRequest } from "../core/search/request.js";
import { quickView, searchProductIds } from "../search/quick-view.js";
import { Store } from "../stores/store.js";
import { flexsearchOnlyRanking } from "../search/flexsearch-baseline.js";
import { loadTitledMerchant, readTitledProducts } from "./search-catalogue.js";
import { SearchJudgments, type SearchMetrics } from "./search-metrics.js";

export interface SearchEvalOptions {
  products: string;
  judgments: string;
  /** Also rank with FlexSearch alone (same normaliser), for the README's comparison. */
  flexsearchBaseline: boolean;
  log: (line: string) => void;
}

/** The data README's BM25 reference rows (k1 = 1.2, b = 0.75). */
const REFERENCE: { system: string; metrics: Omit<SearchMetrics, "queries"> }[] = [
  { system: "BM25 plain tokens", metrics: { ndcg10: 0.337, condensed: 0.826, s5k3: 0.015, s5k5: 0.053, s5k8: 0.121, s5full: 0.498 } },
  {
    system: "BM25 light plural stemmer",
    metrics: { ndcg10: 0.381, condensed: 0.858, s5k3: 0.015, s5k5: 0.053, s5k8: 0.124, s5full: 0.559 },
  },
  {
    system: "BM25 prefix-match of the last word",
    metrics: { ndcg10: 0.304, condensed: 0.829, s5k3: 0.039, s5k5: 0.104, s5k8: 0.176, s5full: 0.46 },
  },
  {
    system: "BM25 stemmer + most frequent completion",
    metrics: { ndcg10: 0.373, condensed: 0.855, s5k3: 0.044, s5k5: 0.117, s5k8: 0.186, s5full: 0.549 },
  },
];

/**
 * Ranked products kept per full query: condensed NDCG drops unjudged ones from
 * the whole ranked list, so it needs the list far beyond the 10 shown.
 */
const DEPTH = 5000;
/** What the endpoint shows by default: NDCG@10 and Success@5 are measured on it. */
const SHOWN = 10;
/** Queries also run through the worker task itself, to show it returns the same top 10. */
const TASK_CHECKS = 300;

/** Half "A" or "B" of the queries by a hash of their text: tune on one, check on the other. */
export function halfOf(query: string): "A" | "B" {
  return (createHash("sha1").update(query).digest()[0]! & 1) === 0 ? "A" : "B";
}

export async function evalSearch(options: SearchEvalOptions): Promise<Record<string, unknown>> {
  const started = performance.now();
  const products = readTitledProducts(options.products);
  const judgments = SearchJudgments.read(options.judgments);
  options.log(
    `${products.length} products, ${judgments.queries.length} queries (${judgments.withExactMatch} with a product of relevance ≥ 2.67)`,
  );

  const dir = mkdtempSync(join(tmpdir(), "aisle-eval-search-"));
  const store = Store.open(dir);
  try {
    const ingestStarted = performance.now();
    // Untracked inventory: every product can be bought, so availability reorders nothing.
    const merchant = await loadTitledMerchant(store, "homedepot", products);
    const ingestMs = performance.now() - ingestStarted;

    // As the applier's ranking job would after the import (shops below its size have none: the build writes nothing).
    store.searchIndex.leaders.buildSync(merchant.id);
    const index = store.searchIndex.view(merchant.id);
    options.log(
      `ingested through the store, the search index written with the products, in ${(ingestMs / 1000).toFixed(1)} s (${index.size} products)`,
    );

    const rankStarted = performance.now();
    const aisle = judgments.evaluate(
      (text) => searchProductIds(store, index, quickViewRequest(text, SHOWN), SHOWN),
      (query) => searchProductIds(store, index, quickViewRequest(query, DEPTH), DEPTH),
      halfOf,
    );
    const rankMs = performance.now() - rankStarted;

    // The worker task renders what searchProductIds ranks: check it on a sample.
    let identical = 0;
    const sample = judgments.queries.slice(0, TASK_CHECKS);
    for (const query of sample) {
      const result = await quickView(store, {
        kind: "quick_view",
        merchantId: merchant.id,
        request: quickViewRequest(query, 10),
      });
      if (!result.ok) throw new Error(`quick-view task failed: ${result.message}`);
      const shown = (
        JSON.parse(new TextDecoder().decode(result.body)) as { data: { productSuggestions: { id: string }[] } }
      ).data.productSuggestions.map((s) => Number(s.id));
      const ranked = searchProductIds(store, index, quickViewRequest(query, SHOWN), SHOWN);
      if (shown.join(",") === ranked.join(",")) identical++;
    }

    const rows: { system: string; metrics: SearchMetrics | Omit<SearchMetrics, "queries"> }[] = [
      { system: "aisle quick-view (all queries)", metrics: aisle.all },
      ...Object.entries(aisle.groups)
        .sort()
        .map(([half, metrics]) => ({ system: `aisle quick-view, half ${half}`, metrics })),
    ];
    let flexsearch: SearchMetrics | null = null;
    if (options.flexsearchBaseline) {
      const baseline = flexsearchOnlyRanking(products);
      flexsearch = judgments.evaluate(
        (text) => baseline.search(text, SHOWN),
        (query) => baseline.search(query, DEPTH),
        halfOf,
      ).all;
      rows.push({ system: `FlexSearch 0.8 alone (built in ${(baseline.buildMs / 1000).toFixed(1)} s)`, metrics: flexsearch });
    }
    rows.push(...REFERENCE.map((row) => ({ system: `reference: ${row.system}`, metrics: row.metrics })));

    const fmt = (value: number) => value.toFixed(3).padStart(9);
    options.log("");
    options.log(
      `${"system".padEnd(52)} ${["NDCG@10", "condensed", "S@5 k=3", "S@5 k=5", "S@5 k=8", "S@5 full"].map((h) => h.padStart(9)).join(" ")}`,
    );
    for (const { system, metrics: m } of rows) {
      options.log(`${system.padEnd(52)} ${[m.ndcg10, m.condensed, m.s5k3, m.s5k5, m.s5k8, m.s5full].map(fmt).join(" ")}`);
    }
    options.log("");
    options.log(
      `S@5 counts the ${judgments.withExactMatch} queries with a product of relevance ≥ 2.67; NDCG@10 all ${judgments.queries.length} (0 where no judged product has gain).`,
    );
    options.log(
      `halves by a hash of the query text: ${Object.entries(aisle.groups)
        .sort()
        .map(([half, m]) => `${half} ${m.queries} queries`)
        .join(", ")}`,
    );
    options.log(`worker task top 10 identical to the ranking on ${identical}/${sample.length} sampled queries`);
    options.log(
      `ranking ${(rankMs / 1000).toFixed(1)} s for ${judgments.queries.length} queries and their prefixes; total ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return {
      eval: "search",
      products: index.size,
      queries: judgments.queries.length,
      aisle,
      flexsearch_only: flexsearch,
      reference: Object.fromEntries(REFERENCE.map((row) => [row.system, row.metrics])),
      task_check: { identical, sampled: sample.length },
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
