// Ranking and order-update suites (tinybench, in this process) on a seeded
// store: the demo in `npm run bench`, 100k products in the scale suite.
//
// Ranking: the worker task functions themselves — recommended(store, task) and
// salesList(store, task) — with tasks built by the real storefront routes, so
// they carry exactly the parameters the server would send to the pool. Rows
// marked "ranking only" time the candidate ranking without render and JSON.
// The shop-wide rankings are refreshed first, as the applier thread stores them.
//
// Updates: store.orders.upsertOrders with one new order, awaited: the order, the
// customer index, daily sales and the bought-together model in one committed
// transaction, which is what an orders/create webhook waits for before its ack.
// Sampled in interleaved rounds, not by tinybench: see interleaved(). Then the
// ranking writer's refresh after a new order, as the applier thread runs it.
import { performance } from "node:perf_hooks";
import { RECOMMENDED, TOP_SELLERS, TRENDING_PRODUCTS } from "../../src/core/api/endpoints.js";
import { normaliseOrder } from "../../src/core/ingest/records.js";
import type { RecommendedTask, SalesListTask } from "../../src/core/products/query.js";
import { formatTimestamp } from "../../src/core/timestamps.js";
import type { Order } from "../../src/core/types.js";
import { boughtTogether } from "../../src/recs/copurchase-ranking.js";
import { topSellers, trending } from "../../src/recs/sales-rankings.js";
import { DEFAULT_WINDOW_DAYS } from "../../src/stores/ranked-lists.js";
import type { Located } from "../../src/stores/catalogue-store.js";
import type { Store } from "../../src/stores/store.js";
import { recommended } from "../../src/lists/recommended.js";
import { salesList } from "../../src/lists/sales-lists.js";
import type { BudgetName } from "../report/budgets.js";
import { TaskRecorder } from "../shared/task-recorder.js";
import { inputSets, prng, recommendationInputs, sampleOrderLines } from "../shared/inputs.js";
import type { MicroResult, RankingFacts } from "../shared/results.js";
import { fromSamples, judgedBench, type SuiteTiming } from "./measure.js";

const SETS = 256;

/** Products in a list's answer: a bench of empty lists would flatter the code. */
function shown(body: Uint8Array): number {
  return (JSON.parse(Buffer.from(body).toString("utf8")) as { data: unknown[] }).data.length;
}

export interface RankingSuiteOptions {
  timing: SuiteTiming;
  /** rankingDemoP99 on the demo, rankingScaleP99 at 100k products. */
  budget: BudgetName;
}

export async function runRankingSuites(
  store: Store,
  merchantId: string,
  apiKey: string,
  options: RankingSuiteOptions,
): Promise<{ results: MicroResult[]; facts: RankingFacts }> {
  const recorder = new TaskRecorder(store);
  store.rankingWriter.refreshSync(merchantId, Date.now());
  const inputs = recommendationInputs(store, merchantId);
  if (inputs.withNeighbours.length < 3) throw new Error(`only ${inputs.withNeighbours.length} products have co-purchase neighbours`);
  const recommendedTasks = async (sets: number[][]) => {
    const tasks: RecommendedTask[] = [];
    for (const ids of sets)
      tasks.push(
        await recorder.task<RecommendedTask>(RECOMMENDED.path, `key=${apiKey}&platform_product_ids=${ids.join(",")}`, "recommended"),
      );
    return tasks;
  };
  const oneSets = inputSets(inputs.withNeighbours, SETS, () => 1, 1);
  const threeSets = inputSets(inputs.withNeighbours, SETS, () => 3, 3);
  const fallbackSets = inputSets(inputs.withoutNeighbours, 64, () => 1, 5);
  const one = await recommendedTasks(oneSets);
  const three = await recommendedTasks(threeSets);
  const fallback = await recommendedTasks(fallbackSets);
  const trendingTask = await recorder.task<SalesListTask>(TRENDING_PRODUCTS.path, `key=${apiKey}`, "trending");
  const topTask = await recorder.task<SalesListTask>(TOP_SELLERS.path, `key=${apiKey}`, "top_sellers");

  // Sanity: every list the bench times answers products.
  for (const [what, result] of [
    ["recommended, 1 input", recommended(store, one[0]!)],
    ["recommended, 3 inputs", recommended(store, three[0]!)],
    ["trending", salesList(store, trendingTask)],
    ["top_sellers", salesList(store, topTask)],
  ] as const) {
    if (shown(result) === 0) throw new Error(`${what} answered no products`);
  }

  const judged = { name: options.budget, stat: "p99" } as const;
  const { add, run } = judgedBench(options.timing);
  let i = 0;
  let sink = 0;
  const bytes = (body: Uint8Array) => body.byteLength;
  add(`recommended(), 1 input product (${one.length} rotating)`, () => (sink += bytes(recommended(store, one[i++ % one.length]!))), judged);
  add(
    `recommended(), 3 input products (${three.length} rotating sets)`,
    () => (sink += bytes(recommended(store, three[i++ % three.length]!))),
    judged,
  );
  if (fallback.length > 0) {
    add(
      "recommended(), 1 input, no bought-together list",
      () => (sink += bytes(recommended(store, fallback[i++ % fallback.length]!))),
      judged,
    );
  }
  add("salesList(), trending_products", () => (sink += bytes(salesList(store, trendingTask))), judged);
  add(`salesList(), top_sellers (whole shop, ${topTask.windowDays} days)`, () => (sink += bytes(salesList(store, topTask))), judged);
  add(
    "ranking only: boughtTogether(), 3 inputs, first 50 ranks",
    () => (sink += firstRanks(boughtTogether(store, merchantId, threeSets[i++ % threeSets.length]!))),
  );
  // Read from the stored lists as far as a list reads.
  add("ranking only: trending, first 50 ranks of the stored list", () => (sink += firstRanks(trending(store, merchantId))));
  add(
    `ranking only: top sellers, ${DEFAULT_WINDOW_DAYS} days, first 50 ranks of the stored list`,
    () => (sink += firstRanks(topSellers(store, merchantId, DEFAULT_WINDOW_DAYS))),
  );
  const results = await run();
  if (sink === -1) console.log(sink);
  return {
    results,
    facts: {
      productsWithNeighbours: inputs.withNeighbours.length,
      productsWithoutNeighbours: inputs.withoutNeighbours.length,
      // Before eligibility filters (stock, exclude_service…), so a lower bound.
      shortOneInputSets: one.filter((task, k) => [...boughtTogether(store, merchantId, oneSets[k]!)].length < task.list.limit).length,
      oneInputSets: one.length,
    },
  };
}

export interface UpdateSuiteOptions {
  timing: SuiteTiming;
}

/**
 * New orders of 1–4 lines drawn from the lines of real orders (so popular
 * products, with the longest co-occurrence rows, come up as often as they sell),
 * with fresh ids and the current time. Writes to the store: run it last.
 */
export async function runUpdateSuites(store: Store, merchantId: string, options: UpdateSuiteOptions): Promise<MicroResult[]> {
  const { lines, customerIds, maxOrderId } = sampleOrderLines(store, merchantId, 20_000, 7);
  if (lines.length === 0) throw new Error("the store has no order lines to sample");
  const random = prng(11);
  let nextId = maxOrderId + 1;
  const newOrder = (): Located<Order> => {
    const count = 1 + Math.floor(random() * 4);
    const picked = new Map<number, (typeof lines)[number]>();
    for (let tries = 0; picked.size < count && tries < 20; tries++) {
      const line = lines[Math.floor(random() * lines.length)]!;
      picked.set(line.product_id, line);
    }
    const guest = customerIds.length === 0 || random() < 0.25;
    const now = formatTimestamp(new Date());
    const raw = {
      id: nextId++,
      created_at: now,
      customer: guest ? null : { id: customerIds[Math.floor(random() * customerIds.length)]! },
      line_items: [...picked.values()].map((line) => ({ ...line, quantity: random() < 0.8 ? 1 : 2 })),
      cancelled_at: null,
    };
    // The same validation as the admin API and webhooks, outside the timed call.
    return { path: "orders[0]", value: normaliseOrder(raw, "orders[0]", now) };
  };

  const updates = await interleaved(
    [
      {
        name: "store.upsertOrders(1 order, 1–4 lines), commit awaited",
        run: async (order) => store.orders.upsertOrders(merchantId, [order]),
        budget: { name: "orderUpdateP99", stat: "p99" },
      },
      {
        name: "  same, deferNeighbours (no neighbour-list refresh)",
        run: async (order) => store.orders.upsertOrders(merchantId, [order], { deferNeighbours: true }),
      },
      {
        // Nothing to write but a version bump: what one committed LMDB transaction costs here.
        name: "  empty write transaction, commit awaited (upsertCustomers([]))",
        run: async () => store.catalogue.upsertCustomers(merchantId, []),
      },
    ],
    newOrder,
    options.timing,
  );
  return [...updates, await rankingRefreshResult(store, merchantId, newOrder, options.timing)];
}

/**
 * The ranking writer's refresh after one new order, as the applier thread runs
 * it once the interval has passed: today's sales read again, every list
 * computed, the chunks that changed written in one transaction. The order's
 * own commit is not timed.
 */
async function rankingRefreshResult(
  store: Store,
  merchantId: string,
  newOrder: () => Located<Order>,
  timing: SuiteTiming,
): Promise<MicroResult> {
  // The first refresh reads every kept day; the others, as in the service, only the days that changed.
  store.rankingWriter.refreshSync(merchantId, Date.now());
  const samples: number[] = [];
  const end = performance.now() + timing.timeMs;
  while (performance.now() < end || samples.length < MIN_SAMPLES) {
    await store.orders.upsertOrders(merchantId, [newOrder()]);
    const started = performance.now();
    store.rankingWriter.refreshSync(merchantId, Date.now());
    samples.push((performance.now() - started) * 1000);
  }
  return fromSamples("rankingWriter.refreshSync after 1 new order (today re-read, every list computed and written)", samples);
}

interface Variant<I> {
  name: string;
  /** The timed call, given an input prepared outside the clock. */
  run: (input: I) => Promise<void>;
  budget?: MicroResult["budget"];
}

const ROUND = 8;
const MIN_SAMPLES = 64;

/**
 * Samples variants in interleaved rounds rather than one after another (as
 * tinybench would): every order grows today's sales row and co-occurrence
 * rows, so a variant run later would pay for a bigger store than one run first.
 * Times each awaited call with performance.now(); same p50/p99 as the other rows.
 */
async function interleaved<I>(variants: Variant<I>[], prepare: () => I, timing: SuiteTiming): Promise<MicroResult[]> {
  const samples = variants.map(() => [] as number[]);
  const phase = async (ms: number, record: boolean) => {
    const end = performance.now() + ms;
    while (performance.now() < end || (record && samples.some((s) => s.length < MIN_SAMPLES))) {
      for (const [index, variant] of variants.entries()) {
        for (let k = 0; k < ROUND; k++) {
          const input = prepare();
          const started = performance.now();
          await variant.run(input);
          if (record) samples[index]!.push(performance.now() - started);
        }
      }
    }
  };
  await phase(timing.warmupMs * variants.length, false);
  await phase(timing.timeMs * variants.length, true);
  return variants.map((variant, index) => {
    const sorted = samples[index]!.sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! * 1000;
    const meanMs = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
    return {
      name: variant.name,
      p50Us: at(0.5),
      p99Us: at(0.99),
      opsPerSec: 1000 / meanMs,
      samples: sorted.length,
      ...(variant.budget ? { budget: variant.budget } : {}),
    };
  });
}

/** Reads the first 50 ranks, as a list endpoint does; their count. */
function firstRanks(ranking: Iterable<number>): number {
  let read = 0;
  for (const _id of ranking) if (++read === 50) break;
  return read;
}
