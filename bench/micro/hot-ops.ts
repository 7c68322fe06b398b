// Micro suite of the hot operations a product request is made of, each timed
// alone on a seeded demo store (tinybench, in this process): the cache key a
// request is looked up by, the co-occurrence merge, session kNN, the
// eligibility checks, serialization, and text search with aisle's scorer and
// with FlexSearch; then the quick-view worker task per keystroke, without and
// with search settings (search-keystrokes.ts). Store reads, the pool hop and
// ONNX inference have their rows in micro.ts and similar.ts.
import { RECOMMENDED, STATIC_PRODUCTS, TRENDING_PRODUCTS } from "../../src/core/api/endpoints.js";
import { isProductAvailable, isProductPublished } from "../../src/core/availability.js";
import { jsonBytes } from "../../src/core/json.js";
import { canonicalParams, parseParams } from "../../src/core/params/parse.js";
import { isInMarket, marketForCountry, withMarketPrices } from "../../src/core/products/market.js";
import { applyPriceFilter, type PriceFilter } from "../../src/core/products/price-filter.js";
import { projectProduct } from "../../src/core/products/projection.js";
import { listOptionsFrom, metafieldSelectionFrom, staticSelectionFrom } from "../../src/core/products/query.js";
import { combineNeighbours, type WeightedIds } from "../../src/core/recs/copurchase.js";
import { planQuery } from "../../src/core/search/query-plan.js";
import { rankProducts } from "../../src/core/search/ranker.js";
import type { Product } from "../../src/core/types.js";
import { relatedToViews } from "../../src/recs/related-to-views.js";
import { scoreNextViews } from "../../src/recs/session-model.js";
import { DEFAULT_TUNE_OPTIONS, tuneViewedRelated } from "../../src/recs/tune-viewed-related.js";
import { answerListTask, type SyncListTask } from "../../src/lists/list-task.js";
import { flexsearchOnlyRanking } from "../../src/search/flexsearch-baseline.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import { forgetRenderReads } from "../../src/stores/render-cache.js";
import type { Store } from "../../src/stores/store.js";
import { inputSets, recommendationInputs, sessionPrefixes, titleKeystrokes } from "../shared/inputs.js";
import type { MicroSuite } from "../shared/results.js";
import { customSourceEvaluation } from "./custom-source.js";
import { judgedBench, type SuiteTiming } from "./measure.js";
import { searchKeystrokeRows } from "./search-keystrokes.js";

const SETS = 256;
/** Candidates a ranked list typically offers the renderer before `limit` is reached. */
const CANDIDATES = 100;

export async function runHotOps(store: Store, merchantId: string, apiKey: string, timing: SuiteTiming): Promise<MicroSuite> {
  const catalog = merchantCatalog(store, merchantId);
  const ids = store.catalogue.productIds(merchantId);
  const { withNeighbours } = recommendationInputs(store, merchantId);

  // Key encoding: what the product endpoint builds before every cache lookup (hit or miss).
  const queries = inputSets(withNeighbours, SETS, (k) => 1 + (k % 3), 41).map(
    (set) => new URLSearchParams(`key=${apiKey}&platform_product_ids=${set.join(",")}&limit=5`),
  );
  const versions = () => ["catalogue", "orders"].map((domain) => store.version(merchantId, domain as "catalogue" | "orders")).join(".");

  // Co-occurrence merge: neighbour lists of 3 inputs read beforehand, so only the merge is timed.
  const neighbourSets: WeightedIds[][] = inputSets(withNeighbours, SETS, () => 3, 43).map((set) =>
    set.map((id) => store.orders.copurchaseNeighbours(merchantId, id)!),
  );
  const exclusions = inputSets(withNeighbours, SETS, () => 3, 43).map((set) => new Set(set));

  // Session kNN: prefixes of the demo's own view sessions, as the viewed-related endpoint sends them.
  const prefixes = sessionPrefixes(store, merchantId, SETS, 5);
  if (prefixes.length === 0) throw new Error("the demo has no view sessions");

  // Eligibility: the checks renderProductList applies to each candidate, on products already read.
  const products: Product[] = ids.slice(0, CANDIDATES).map((id) => store.catalogue.product(merchantId, id)!);
  const market = marketForCountry(catalog.markets(), "CA");
  const priceOf = catalog.marketPrice.bind(catalog);
  const priceFilter: PriceFilter = { atLeast: 1_00, atMost: 500_00 };

  // Serialization: five products in the full projection, as a static list answers them.
  const projection = {
    projection: "full" as const,
    metafields: metafieldSelectionFrom({}),
    sellingPlans: false,
    loadMetafields: catalog.metafields.bind(catalog),
  };
  const fivePerSet = Array.from({ length: 64 }, (_, set) =>
    ids.slice(set * 5, set * 5 + 5).map((id) => projectProduct(catalog.product(id)!, projection)),
  );

  // Text search: keystrokes of demo titles against aisle's index and a FlexSearch index of the same titles.
  const typed = titleKeystrokes(store, merchantId, 200);

  const flex = flexsearchOnlyRanking(ids.map((id) => ({ id, title: store.catalogue.product(merchantId, id)!.title })));

  const { add, run } = judgedBench(timing);
  let i = 0;
  let sink = 0;
  add("key encoding: parseParams + canonicalParams + versions → cache key (recommended, 1–3 ids)", () => {
    const parsed = parseParams(RECOMMENDED.params, queries[i++ % queries.length]!);
    if (!parsed.ok) throw new Error(parsed.message);
    sink += `${merchantId}|${RECOMMENDED.path}|${canonicalParams(RECOMMENDED.params, parsed.params)}|v${versions()}|`.length;
  });
  add("co-occurrence merge: combineNeighbours of 3 neighbour lists", () => {
    const k = i++ % neighbourSets.length;
    sink += combineNeighbours(neighbourSets[k]!, exclusions[k]!).size;
  });
  add(`session kNN: scoreNextViews over the stored index, demo sessions' prefixes (≤ 5 views, ${prefixes.length} rotating)`, () => {
    sink += scoreNextViews(store, merchantId, prefixes[i++ % prefixes.length]!, null).size;
  });
  // What a tuned shop serves: the demo shop's re-rankers trained on its own sessions as the background tuning
  // trains them (beside its default kNN settings: the minute-long search of settings changes no cost here).
  const tuned = tuneViewedRelated(store, merchantId, { ...DEFAULT_TUNE_OPTIONS, maxEvaluations: 1 });
  if (tuned !== null) await store.viewedRelatedTuning.write(merchantId, tuned.tuning, tuned.rerankers);
  const reranked = tuned?.tuning.rerankers?.served?.adopted === true;
  // The ranking is sorted as it is read: read as far as an answer of the default 5 reads it, with the
  // session's viewed products (up to 5 here) left out and as many again for products it may not show.
  const readAsAnAnswer = (ranking: Iterable<number>) => {
    let read = 0;
    for (const id of ranking) if (++read === 15) return id;
    return read;
  };
  add(
    `viewed-related compute: relatedToViews, session kNN + bought-together blend, ${reranked ? "re-ranked by the shop's re-ranker in ONNX Runtime" : "its re-ranker not adopted"}, read as an answer of 5 reads it`,
    async () => (sink += readAsAnAnswer(await relatedToViews(store, merchantId, prefixes[i++ % prefixes.length]!, null))),
    { name: "viewedRelatedComputeP99", stat: "p99" },
  );
  const eligible = (within: typeof market) => {
    for (const stored of products) {
      if (!isInMarket(stored, within)) continue;
      const priced = applyPriceFilter(withMarketPrices(stored, within, priceOf), priceFilter, false);
      if (priced !== null && isProductAvailable(priced) && isProductPublished(priced)) sink++;
    }
  };
  add(`eligibility filter: price, stock, publication over ${CANDIDATES} read products`, () => eligible(null));
  // With country_code, each variant's market price is read from the store first.
  add(`  same with country_code=CA (market catalogue + market price per variant)`, () => eligible(market));
  add(
    "serialization: jsonBytes of 5 projected products (full)",
    () => (sink += jsonBytes({ data: fivePerSet[i++ % fivePerSet.length] }).byteLength),
    {
      name: "serializeFiveP50",
      stat: "p50",
    },
  );
  add(`text search, aisle's index: planQuery + rankProducts, ${typed.length} demo-title keystrokes`, () => {
    const prefix = typed[i++ % typed.length]!;
    const index = store.searchIndex.view(merchantId);
    sink += rankProducts(index, planQuery(index, prefix), { k: 10, outOfStock: "last" }).length;
  });
  add(
    `text search, FlexSearch 0.8 query (forward, suggest), same keystrokes`,
    () => (sink += flex.search(typed[i++ % typed.length]!, 10).length),
  );
  // Cache-miss tasks as a worker (or the HTTP thread, for these) answers them: limit 5, no metafields.
  const missTasks = missTaskKinds(store, merchantId, ids, withNeighbours);
  for (const [label, tasks] of missTasks) {
    add(
      `cache-miss task, ${label}: answerListTask, limit 5, no metafields (${tasks.length} rotating)`,
      () => {
        const result = answerListTask(store, tasks[i++ % tasks.length]!);
        if (!result.ok) throw new Error(`${label} task failed`);
        sink += result.body.byteLength;
      },
      { name: "missTaskP50", stat: "p50" },
    );
    // A miss whose products no answer of this thread read since the last catalogue write: every read decompresses.
    add(`  same, ${label}, every product read from LMDB (the thread's render cache emptied before each task)`, () => {
      forgetRenderReads(store);
      const result = answerListTask(store, tasks[i++ % tasks.length]!);
      if (!result.ok) throw new Error(`${label} task failed`);
      sink += result.body.byteLength;
    });
  }
  const evaluateCustomSource = await customSourceEvaluation(store, merchantId);
  add(
    "custom source of 20 rules: facts, matching, products through the filters, pins (no built-in source, no render)",
    () => (sink += evaluateCustomSource()),
    { name: "customSourceEvalP50", stat: "p50" },
  );
  const timed = await run();
  if (sink === -1) console.log(sink);

  return {
    title: "hot operations on the demo store (tinybench, in the bench process)",
    results: [...timed, ...(await searchKeystrokeRows(store, merchantId, typed))],
    note: `FlexSearch indexes the ${ids.length} demo titles in ${flex.buildMs.toFixed(0)} ms; aisle serves search with its own scorer (README, "Search") and keeps FlexSearch only as the baseline timed here`,
  };
}

/** The list tasks the miss budget names, each kind over rotating inputs of the demo store. */
function missTaskKinds(store: Store, merchantId: string, ids: number[], withNeighbours: number[]): [string, SyncListTask[]][] {
  // As the routes make them: ranked lists leave out what is unpublished or tagged exclude_service.
  const ranked = { ranked: true };
  const staticTasks: SyncListTask[] = inputSets(ids, SETS, () => 5, 47).map((set) => ({
    kind: "static_products",
    merchantId,
    selection: staticSelectionFrom({ ids: set }),
    list: listOptionsFrom({ limit: 5 }, STATIC_PRODUCTS.answer.projection),
  }));
  const recommendedTasks: SyncListTask[] = inputSets(withNeighbours, SETS, (k) => 1 + (k % 3), 53).map((set) => ({
    kind: "recommended",
    merchantId,
    context: "bought_together",
    inputs: { productIds: set, variantIds: [], collectionId: null },
    list: listOptionsFrom({ limit: 5 }, RECOMMENDED.answer.projection, ranked),
  }));
  const collections = store.catalogue.collectionsOf(merchantId).map(({ id }) => id);
  const trendingTasks: SyncListTask[] = [null, ...collections].map((collectionId) => ({
    kind: "trending",
    merchantId,
    list: listOptionsFrom({ limit: 5 }, TRENDING_PRODUCTS.answer.projection, ranked),
    collectionId,
    windowDays: 0,
  }));
  return [
    ["static, 5 ids", staticTasks],
    ["recommended, 1–3 inputs", recommendedTasks],
    ["trending, the shop and each collection", trendingTasks],
  ];
}
