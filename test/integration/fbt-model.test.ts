// A shop's bought-together model trained on its own orders (src/recs/train-fbt.ts):
// deterministic, validated on the shop's most recent orders, bounded, stored so
// that a retrain swaps it whole, trained in the background on a thread of its
// own, shown by `aisle merchants show`, and what the recommended endpoint
// answers with; a shop without it (no orders, too many products) keeps today's
// co-purchase lists.
import { spawnSync } from "node:child_process";
import { open } from "lmdb";
import { join } from "node:path";
import { setImmediate as turn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { normaliseProduct } from "../../src/core/ingest/product.js";
import { listOptionsFrom, type RecommendedTask } from "../../src/core/products/query.js";
import { combineNeighbours } from "../../src/core/recs/copurchase.js";
import { easeBytes } from "../../src/core/recs/ease.js";
import { Rng } from "../../src/core/random.js";
import type { Order } from "../../src/core/types.js";
import { recommended } from "../../src/lists/recommended.js";
import { boughtTogether, boughtTogetherScores } from "../../src/recs/copurchase-ranking.js";
import { FbtTrainer, fbtTrainingDue, MIN_ORDERS_TO_TRAIN } from "../../src/recs/fbt-trainer.js";
import { DEFAULT_FBT_TRAIN_OPTIONS, FbtTrainCancelled, objective, trainFbt, type FbtTrainOptions } from "../../src/recs/train-fbt.js";
import { FbtModelStore, type FbtManifest } from "../../src/stores/fbt-model.js";
import type { Key } from "../../src/stores/merchant-keys.js";
import { recommendationDependencies } from "../../src/stores/recommendation-versions.js";
import { Store } from "../../src/stores/store.js";
import { product } from "../helpers/fixtures.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-fbt-");
const PRODUCTS = 40;
/** Small enough to train in a moment, with as many validation cases as a few hundred orders give. */
const OPTIONS: FbtTrainOptions = { ...DEFAULT_FBT_TRAIN_OPTIONS, minValidationCases: 20, lambdas: [0.5, 2, 8, 32, 128] };
const silent = { info: () => {}, error: () => {} };

/** `count` orders of a shop of 40 products in 8 themes of 5: each order buys 2–5 of one theme, now and then a stray product. */
function shopOrders(count: number, seed = 3, firstId = 1): Order[] {
  const rng = new Rng(seed);
  const start = Date.parse("2026-01-01T00:00:00Z");
  return Array.from({ length: count }, (_, n) => {
    const theme = rng.int(0, 7);
    const items = new Set<number>();
    for (let k = rng.int(2, 5); k > 0; k--) items.add(rng.chance(0.1) ? rng.int(1, PRODUCTS) : 1 + theme * 5 + rng.int(0, 4));
    const at = new Date(start + (firstId + n) * 3_600_000).toISOString().replace(/\.\d+Z$/, "+00:00");
    return {
      id: firstId + n,
      created_at: at,
      customer_id: null,
      line_items: [...items].map((id) => ({ product_id: id, variant_id: null, quantity: 1, price: "1.00" })),
      cancelled_at: null,
    };
  });
}

async function shop(orders: Order[], dir = tempDir()): Promise<Store> {
  const store = await storeWithMerchant(dir);
  await store.catalogue.upsertProducts(
    "shop",
    Array.from({ length: PRODUCTS }, (_, i) => ({
      path: `p${i}`,
      value: normaliseProduct(product(i + 1), `p${i}`, "2026-01-01T00:00:00+00:00"),
    })),
  );
  if (orders.length > 0)
    await store.orders.upsertOrders(
      "shop",
      orders.map((value) => ({ path: "o", value })),
    );
  return store;
}

function boughtTogetherTask(productIds: number[]): RecommendedTask {
  return {
    kind: "recommended",
    merchantId: "shop",
    context: "bought_together",
    inputs: { productIds, variantIds: [], collectionId: null },
    list: listOptionsFrom({ limit: 10, filter_oos: false }, "reduced", { ranked: true }),
  };
}

const answerIds = (store: Store, productIds: number[]) =>
  (JSON.parse(new TextDecoder().decode(recommended(store, boughtTogetherTask(productIds)))) as { data: { id: number }[] }).data.map(
    (p) => p.id,
  );

/** What two trainings decided, without when they ran and how long they took. */
const decided = ({ trainedAt: _at, seconds: _s, ...rest }: FbtTraining["manifest"]) => rest;
type FbtTraining = ReturnType<typeof trainFbt>;

describe("training bought-together on a shop's own orders", () => {
  it("is deterministic, validates on the most recent orders, and never ends below today's lists there", async () => {
    const store = await shop(shopOrders(600));
    const first = trainFbt(store, "shop", OPTIONS);
    const again = trainFbt(store, "shop", OPTIONS);
    expect(decided(again.manifest)).toEqual(decided(first.manifest));
    expect([...again.lists]).toEqual([...first.lists]);

    const { settings, validation, skipped } = first.manifest;
    expect(skipped).toBeNull();
    expect(OPTIONS.lambdas).toContain(settings!.lambda);
    expect(OPTIONS.copurchaseWeights).toContain(settings!.blend.copurchaseWeight);
    expect([0, ...OPTIONS.textWeights]).toContain(settings!.textWeight);
    // The 60 most recent orders are held out; those with two known products or more are the cases.
    expect(validation!.cases).toBeGreaterThan(40);
    expect(validation!.cases).toBeLessThanOrEqual(60);
    expect(objective(validation!.tuned)).toBeGreaterThanOrEqual(objective(validation!.copurchase));
    // Every product is covered, each list keeping its own theme first.
    expect(first.manifest.products).toBe(PRODUCTS);
    for (const [id, list] of first.lists) expect(Math.ceil(list.ids[0]! / 5)).toBe(Math.ceil(id / 5));
    await store.close();
  });

  it("is what the endpoint answers with once stored, and a retrain moves the answers' cache keys", async () => {
    const store = await shop(shopOrders(600));
    const today = boughtTogetherScores(store, "shop", [1, 2]);
    const keyBefore = recommendationDependencies(store, "shop", "bought_together", boughtTogetherTask([1, 2]).inputs).versionTag;

    const { manifest, lists } = trainFbt(store, "shop", OPTIONS);
    const stored = await store.fbtModel.replace("shop", manifest, lists);
    expect(store.fbtModel.manifest("shop")).toEqual(stored);
    expect(recommendationDependencies(store, "shop", "bought_together", boughtTogetherTask([1, 2]).inputs).versionTag).not.toBe(keyBefore);

    // A hand-made model shows the endpoint reads it: all of it EASE, and product 1's list says 40.
    await store.fbtModel.replace(
      "shop",
      { ...manifest, settings: { lambda: 1, textWeight: 0, blend: { copurchaseWeight: 0, copurchaseScale: 1 } } },
      new Map([[1, { ids: [40, 39], weights: [2, 1] }]]),
    );
    expect([...boughtTogether(store, "shop", [1])]).toEqual([40, 39]);
    expect(answerIds(store, [1]).slice(0, 2)).toEqual([40, 39]);
    // Product 2 is not covered: its co-purchase list answers alone, as today.
    expect([...boughtTogether(store, "shop", [2])]).toEqual(
      [...combineNeighbours([store.orders.copurchaseNeighbours("shop", 2)!], new Set([2]))]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .map(([id]) => id),
    );
    expect(today.size).toBeGreaterThan(0);
    await store.close();
  });

  it("adds the products whose text says they are siblings when its validation shows siblings are bought together", async () => {
    // 100 families of 5 siblings, each family's titles sharing two made-up words: an order buys 2–3 siblings of one
    // family, so that 600 orders pair a family's siblings once each at most, on average, and their titles say the rest.
    const families = 100;
    const dir = tempDir();
    const store = await storeWithMerchant(dir);
    const words = new Rng(9);
    const word = () => Array.from({ length: 7 }, () => String.fromCharCode(97 + words.int(0, 25))).join("");
    const familyWords = Array.from({ length: families }, () => `${word()} ${word()}`);
    const colours = ["red", "blue", "green", "ivory", "black"];
    await store.catalogue.upsertProducts(
      "shop",
      Array.from({ length: families * 5 }, (_, i) => ({
        path: `p${i}`,
        value: normaliseProduct(
          product(i + 1, { title: `${colours[i % 5]} ${familyWords[Math.floor(i / 5)]}`, body_html: "", product_type: "", tags: "" }),
          `p${i}`,
          "2026-01-01T00:00:00+00:00",
        ),
      })),
    );
    const rng = new Rng(5);
    const start = Date.parse("2026-01-01T00:00:00Z");
    const orders: Order[] = Array.from({ length: 600 }, (_, n) => {
      const family = rng.int(0, families - 1);
      const items = new Set<number>();
      for (let k = rng.int(2, 3); k > 0; k--) items.add(1 + family * 5 + rng.int(0, 4));
      return {
        id: n + 1,
        created_at: new Date(start + n * 3_600_000).toISOString().replace(/\.\d+Z$/, "+00:00"),
        customer_id: null,
        line_items: [...items].map((id) => ({ product_id: id, variant_id: null, quantity: 1, price: "1.00" })),
        cancelled_at: null,
      };
    });
    await store.orders.upsertOrders(
      "shop",
      orders.map((value) => ({ path: "o", value })),
    );

    const withText = trainFbt(store, "shop", OPTIONS);
    const without = trainFbt(store, "shop", { ...OPTIONS, textWeights: [] });
    expect(without.manifest.settings!.textWeight).toBe(0);
    expect(withText.manifest.settings!.textWeight).toBeGreaterThan(0);
    expect(objective(withText.manifest.validation!.tuned)).toBeGreaterThan(objective(without.manifest.validation!.tuned));
    // Most siblings were never bought together in the earlier orders: without their text, most lists lack one of them.
    // (A product no order holds is nobody's candidate.)
    const bought = new Set(orders.flatMap((order) => order.line_items.map((line) => line.product_id)));
    const family = (id: number) => Math.floor((id - 1) / 5);
    const siblings = (id: number) => [...bought].filter((j) => j !== id && family(j) === family(id)).sort((a, b) => a - b);
    const holdsSiblings = (id: number, list: { ids: number[] }) => {
      const held = list.ids.filter((j) => family(j) === family(id)).sort((a, b) => a - b);
      return held.length === siblings(id).length && held.every((j, index) => j === siblings(id)[index]);
    };
    expect([...withText.lists].every(([id, list]) => holdsSiblings(id, list))).toBe(true);
    expect([...without.lists].filter(([id, list]) => holdsSiblings(id, list)).length).toBeLessThan(without.lists.size / 2);
    await store.close();
  });

  it("leaves a shop without orders, or with more products than it covers, on today's lists, which still answer", async () => {
    const empty = await shop([]);
    const none = trainFbt(empty, "shop", OPTIONS);
    expect(none.manifest).toMatchObject({ settings: null, skipped: "no orders", orders: 0, products: 0, peakBytes: 0 });
    await empty.fbtModel.replace("shop", none.manifest, none.lists);
    // No list of any model: the answer is the shop's fallbacks, full.
    expect(answerIds(empty, [1])).toHaveLength(10);
    await empty.close();

    const store = await shop(shopOrders(600));
    const trained = trainFbt(store, "shop", OPTIONS);
    await store.fbtModel.replace("shop", trained.manifest, trained.lists);
    const tooLarge = trainFbt(store, "shop", { ...OPTIONS, maxProducts: PRODUCTS - 1 });
    expect(tooLarge.manifest.skipped).toBe(`more than the ${PRODUCTS - 1} products a trained model covers`);
    expect(tooLarge.manifest.peakBytes).toBe(0);
    await store.fbtModel.replace("shop", tooLarge.manifest, tooLarge.lists);
    expect(store.fbtModel.list("shop", 1)).toBeUndefined();
    expect(boughtTogetherScores(store, "shop", [1, 2])).toEqual(
      combineNeighbours(
        [1, 2].map((id) => store.orders.copurchaseNeighbours("shop", id)!),
        new Set([1, 2]),
      ),
    );

    const tooFew = trainFbt(store, "shop", { ...OPTIONS, minValidationCases: 1_000 });
    expect(tooFew.manifest.skipped).toMatch(/^\d+ validation cases, fewer than 1000$/);
    await store.close();
  });

  it("holds one matrix of 8·products² bytes at most, keeps at most `neighbours` per list, and stops when asked, having written nothing", async () => {
    const store = await shop(shopOrders(600));
    const { manifest, lists } = trainFbt(store, "shop", { ...OPTIONS, neighbours: 3 });
    expect(manifest.peakBytes).toBe(easeBytes(PRODUCTS));
    for (const list of lists.values()) expect(list.ids.length).toBeLessThanOrEqual(3);
    expect(() => trainFbt(store, "shop", { ...OPTIONS, stop: () => true })).toThrow(FbtTrainCancelled);
    expect(store.fbtModel.manifest("shop")).toBeUndefined();
    await store.close();
  });

  it("swaps a retrained model whole: a reader sees the old model or the new one, never a mix", async () => {
    const store = await shop([]);
    const products = 5_000;
    const model = (partner: number, lambda: number) => ({
      manifest: {
        settings: { lambda, textWeight: 0, blend: { copurchaseWeight: 0, copurchaseScale: 1 } },
        skipped: null,
        validation: null,
        orders: 0,
        products,
        trainedAt: 0,
        seconds: 0,
        peakBytes: 0,
      },
      lists: new Map(Array.from({ length: products }, (_, i) => [i + 1, { ids: [partner], weights: [1] }])),
    });
    const a = model(7, 1);
    await store.fbtModel.replace("shop", a.manifest, a.lists);
    const b = model(8, 2);
    let settled = false;
    const writing = store.fbtModel.replace("shop", b.manifest, b.lists).finally(() => (settled = true));
    const seen = new Set<string>();
    while (!settled) {
      const lambda = store.fbtModel.manifest("shop")!.settings!.lambda;
      const partners = new Set(Array.from({ length: products }, (_, i) => store.fbtModel.list("shop", i + 1)!.ids[0]));
      seen.add(`${lambda}:${[...partners].join(",")}`);
      await turn();
    }
    await writing;
    seen.add(`${store.fbtModel.manifest("shop")!.settings!.lambda}:${store.fbtModel.list("shop", products)!.ids[0]}`);
    expect(seen).toEqual(new Set(["1:7", "2:8"]));
    expect(store.fbtModel.manifest("shop")!.generation).toBe(2);
    await store.close();
  });
});

describe("training in the background", () => {
  it("is due at enough orders and again once they have grown, or at once when an earlier build wrote the model", () => {
    expect(fbtTrainingDue(MIN_ORDERS_TO_TRAIN - 1, undefined)).toBe(false);
    expect(fbtTrainingDue(MIN_ORDERS_TO_TRAIN, undefined)).toBe(true);
    expect(fbtTrainingDue(3_700, 3_000)).toBe(false);
    expect(fbtTrainingDue(3_750, 3_000)).toBe(true);
    expect(fbtTrainingDue(120_000, 100_000)).toBe(true);
    expect(fbtTrainingDue(3_100, 3_000, true)).toBe(true);
    expect(fbtTrainingDue(MIN_ORDERS_TO_TRAIN - 1, undefined, true)).toBe(false);
  });

  it("serves a model an earlier build wrote (format 1: EASE lists alone, text weight 0) until the retraining it is due", async () => {
    const store = await shop(shopOrders(400));
    const trained = trainFbt(store, "shop", OPTIONS);
    await store.close();
    const root = open({ path: tempDir() });
    const model = new FbtModelStore(root);
    await model.replace("shop", trained.manifest, trained.lists);
    const served = () => {
      const list = model.list("shop", 1);
      return { ids: list?.ids, weights: list?.weights, blend: model.blend("shop"), generation: model.generation("shop") };
    };
    const current = served();
    expect(current.ids!.length).toBeGreaterThan(0);
    expect(model.writtenInEarlierFormat("shop")).toBe(false);
    // Every record of the model as the earlier build wrote it: format 1, no text weight in its settings.
    for (const name of ["fbt_manifests", "fbt_lists", "fbt_serving"]) {
      const db = root.openDB<Record<string, unknown>, Key>({ name, encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") });
      for (const { key, value } of [...db.getRange()]) {
        const { textWeight: _dropped, ...settings } = (value.settings ?? {}) as Record<string, unknown>;
        await db.put(key, { ...value, format: 1, ...(value.settings ? { settings } : {}) });
      }
    }
    expect(model.writtenInEarlierFormat("shop")).toBe(true);
    expect(model.manifest("shop")!.settings!.textWeight).toBe(0);
    expect(served()).toEqual(current);
    await root.close();
  });

  it("trains a due shop on a thread of its own and stores the model, which is not due again until its orders grow", async () => {
    const dir = tempDir();
    // A quarter cancelled: they count among the shop's orders (what growth is measured in), though not in the model.
    const orders = shopOrders(4_000).map((order) => (order.id % 4 === 0 ? { ...order, cancelled_at: order.created_at } : order));
    const store = await shop(orders, dir);
    const trainer = new FbtTrainer(store, dir, silent, 3_600_000);
    try {
      trainer.look();
      await trainer.idle();
      store.refreshSnapshot();
      const manifest: FbtManifest | undefined = store.fbtModel.manifest("shop");
      expect(manifest).toMatchObject({ orders: 4_000, products: PRODUCTS, skipped: null, generation: 1 });
      expect(store.fbtModel.list("shop", 1)!.ids.length).toBeGreaterThan(0);
      trainer.look();
      await trainer.idle();
      store.refreshSnapshot();
      expect(store.fbtModel.manifest("shop")!.generation).toBe(1);
    } finally {
      await trainer.close();
      await store.close();
    }
  });
});

describe("aisle merchants show", () => {
  const CLI = join(import.meta.dirname, "../../dist/src/cli.js");
  const show = (dir: string) =>
    JSON.parse(
      spawnSync(process.execPath, [CLI, "merchants", "show", "shop", "--data", dir], {
        encoding: "utf8",
        env: { ...process.env, AISLE_ADMIN_TOKEN: "" },
      }).stdout,
    ) as { bought_together: Record<string, unknown> };

  it("shows the trained model's settings, validation figures and costs, or that the shop has none yet", async () => {
    const dir = tempDir();
    const store = await shop(shopOrders(600), dir);
    await store.close();
    expect(show(dir).bought_together).toEqual({ trained: false });

    const reopened = Store.open(dir);
    const { manifest, lists } = trainFbt(reopened, "shop", OPTIONS);
    const stored = await reopened.fbtModel.replace("shop", manifest, lists);
    await reopened.close();
    expect(show(dir).bought_together).toEqual(
      JSON.parse(JSON.stringify({ ...stored, trainedAt: new Date(stored.trainedAt).toISOString() })),
    );
  });
});
