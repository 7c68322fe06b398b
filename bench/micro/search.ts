// Quick-view search per keystroke on the 54k Home Depot titles: every distinct
// query of the judgments file typed character by character. Server-side: the
// worker task in this process (ranking over the stored index, render, JSON bytes).
// Over HTTP: a real `aisle serve`, the titles loaded through the admin API, one
// shopper replaying the same keystrokes on one keep-alive connection.
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { planQuery } from "../../src/core/search/query-plan.js";
import { rankProducts } from "../../src/core/search/ranker.js";
import { quickViewRequest } from "../../src/core/search/request.js";
import { loadTitledMerchant, readTitledProducts, titledProductBatches } from "../../src/eval/search-catalogue.js";
import { SearchJudgments } from "../../src/eval/search-metrics.js";
import { quickView } from "../../src/search/quick-view.js";
import { Store } from "../../src/stores/store.js";
import { RATE_LIMITS_OFF, rssMB, startAisle } from "../shared/aisle-process.js";
import { makeTempDir, removeTempDir, stopChild } from "../shared/children.js";
import { keystrokes } from "../shared/inputs.js";
import type { MicroResult, MicroSuite } from "../shared/results.js";
import { fromSamples } from "./measure.js";

export interface SearchBenchOptions {
  quick: boolean;
  /** A sample of the queries (every tenth), as part of the whole bench. */
  sample?: boolean;
  products?: string;
  judgments?: string;
}

const DEFAULT_PRODUCTS = "../shared/data/homedepot_products.tsv";
const DEFAULT_JUDGMENTS = "../shared/data/homedepot_dev_judgments.tsv";

/** Samples taken in ms with performance.now(). */
function percentiles(name: string, samplesMs: number[], budget?: MicroResult["budget"]): MicroResult {
  return fromSamples(
    name,
    samplesMs.map((ms) => ms * 1000),
    budget,
  );
}

export async function runSearchBench(options: SearchBenchOptions): Promise<MicroSuite | null> {
  const productsFile = options.products ?? DEFAULT_PRODUCTS;
  const judgmentsFile = options.judgments ?? DEFAULT_JUDGMENTS;
  if (!existsSync(productsFile) || !existsSync(judgmentsFile)) {
    process.stderr.write(`search bench skipped: ${productsFile} or ${judgmentsFile} not found\n`);
    return null;
  }
  const products = readTitledProducts(productsFile);
  const allQueries = SearchJudgments.read(judgmentsFile).queries;
  // Quick runs type every tenth query.
  // Inside `npm run bench` (sample) every tenth query is typed, keeping the whole bench
  // under 10 minutes; --quick every fiftieth. `--search` alone types them all.
  const every = options.sample ? (options.quick ? 50 : 10) : options.quick ? 10 : 1;
  const queries = allQueries.filter((_, i) => i % every === 0);
  const typed = keystrokes(queries);
  const results: MicroResult[] = [];
  const notes: string[] = [];

  const dir = makeTempDir("aisle-bench-search-");
  const store = Store.open(dir);
  try {
    const importStarted = performance.now();
    const merchant = await loadTitledMerchant(store, "homedepot", products);
    const importMs = performance.now() - importStarted;
    results.push({
      name: `import of ${products.length} products, the stored search index written with them`,
      p50Us: importMs * 1000,
      p99Us: importMs * 1000,
      opsPerSec: 1000 / importMs,
      samples: 1,
    });

    // Ranking alone with nothing cached: the work a keystroke nobody typed before costs.
    const rankTimes: number[] = [];
    for (const prefix of typed) {
      const started = performance.now();
      const index = store.searchIndex.view(merchant.id);
      rankProducts(index, planQuery(index, prefix), { k: 10, outOfStock: "last" });
      rankTimes.push(performance.now() - started);
    }
    results.push(percentiles("keystroke: plan + rank, uncached", rankTimes));

    // The whole worker task as served, its per-index ranking cache included.
    const taskTimes: number[] = [];
    for (const prefix of typed) {
      const started = performance.now();
      const result = await quickView(store, {
        kind: "quick_view",
        merchantId: merchant.id,
        request: quickViewRequest(prefix),
      });
      taskTimes.push(performance.now() - started);
      if (!result.ok) throw new Error(`quick-view task failed: ${result.message}`);
    }
    results.push(percentiles("keystroke: worker task (rank + render + JSON)", taskTimes, { name: "searchKeystrokeP99", stat: "p99" }));
  } finally {
    await store.close();
    removeTempDir(dir);
  }

  const httpDir = makeTempDir("aisle-bench-search-http-");
  const aisle = await startAisle(httpDir, "bench-search-admin-token", true, RATE_LIMITS_OFF);
  try {
    const admin = { Authorization: `Bearer ${aisle.adminToken}` };
    const created = await fetch(`${aisle.origin}/admin/v1/merchants`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ id: "homedepot", name: "Home Depot titles", domain: "homedepot.example.com" }),
    });
    if (created.status !== 201) throw new Error(`merchant create: ${created.status} ${await created.text()}`);
    const { api_key: key } = (await created.json()) as { api_key: string };
    for (const batch of titledProductBatches(products)) {
      const res = await fetch(`${aisle.origin}/admin/v1/merchants/homedepot/products`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify(batch),
      });
      if (res.status !== 200) throw new Error(`product import: ${res.status} ${await res.text()}`);
    }
    const rssBefore = rssMB(aisle.pid);
    const url = `${aisle.origin}/api/v1/smart-search/search/quick-view?Service-Api-Key=${encodeURIComponent(key)}`;
    const post = async (query: string) => {
      const res = await fetch(url, { method: "POST", body: JSON.stringify({ query }) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`search answered ${res.status}`);
      return res.headers.get("age") !== "0";
    };
    // The first search after the import: timed apart.
    const firstStarted = performance.now();
    await post("warm up");
    const firstMs = performance.now() - firstStarted;
    const httpTimes: number[] = [];
    let cached = 0;
    for (const prefix of typed) {
      const started = performance.now();
      if (await post(prefix)) cached++;
      httpTimes.push(performance.now() - started);
    }
    results.push(percentiles("keystroke over HTTP (one shopper, keep-alive)", httpTimes));
    notes.push(
      `HTTP: ${typed.length} keystrokes of ${queries.length} queries, ${((100 * cached) / typed.length).toFixed(0)}% answered from the response cache (prefixes other queries typed first); ` +
        `first search after the import ${firstMs.toFixed(0)} ms; server RSS ${rssBefore.toFixed(0)} → ${rssMB(aisle.pid).toFixed(0)} MB with the demo and this merchant; client is fetch in the bench process, sharing the cores`,
    );
  } finally {
    await stopChild(aisle.child);
    removeTempDir(httpDir);
  }

  return {
    title: `quick-view search, 54k Home Depot titles, ${typed.length} keystrokes of ${queries.length} real queries${every > 1 ? ` (every ${every}th of ${allQueries.length})` : ""}`,
    results,
    note: notes.join("\n"),
  };
}
