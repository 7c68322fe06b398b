// The stored shop-wide rankings: what the ranking writer stores equals the
// rankings computed from scratch over the day counts; refreshed incrementally
// it equals a rebuild, byte for byte; a data dir without them builds them; a
// new day moves the windows; a window that is not kept is asked for and kept.
import fc from "fast-check";
import { open } from "lmdb";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dayNumber } from "../../src/core/recs/days.js";
import { ADD_TO_CART_WEIGHT, DEFAULT_TRENDING, momentum, rankByScore } from "../../src/core/recs/sales.js";
import { formatTimestamp } from "../../src/core/timestamps.js";
import type { BehaviourEvent, Collection, Order } from "../../src/core/types.js";
import { topSellers, trending } from "../../src/recs/sales-rankings.js";
import { ASK_AGAIN_MS, type RankedList } from "../../src/stores/ranked-lists.js";
import { Store } from "../../src/stores/store.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const DAY = 86_400_000;
/** Noon (UTC) today: a test's few seconds never cross midnight, and window requests made now are recent. */
const NOW = dayNumber(Date.now()) * DAY + DAY / 2;
const tempDir = tempDirs("aisle-sales-rankings-");

let nextOrder = 1;
function order(
  at: number,
  lines: [productId: number, quantity: number][],
  cancelled = false,
  id = nextOrder++,
): { path: string; value: Order } {
  const created = formatTimestamp(new Date(at));
  const line_items = lines.map(([product_id, quantity]) => ({ product_id, variant_id: null, quantity, price: "1.00" }));
  return { path: "o", value: { id, created_at: created, customer_id: null, line_items, cancelled_at: cancelled ? created : null } };
}

const added = (productId: number, at: number): BehaviourEvent => ({
  verb: "added",
  product_id: productId,
  at,
  uuid: "5d1f0b6e-3c2a-4f7e-9b8d-1a2c3e4f5a6b",
  customer_id: null,
  theme_id: null,
});

const collection = (id: number, productIds: number[]): { path: string; value: Collection } => ({
  path: "c",
  value: { id, title: `Collection ${id}`, handle: `collection-${id}`, product_ids: productIds },
});

const stored = (store: Store, list: RankedList) => [...store.rankings.read("shop", list)];
const shopTop = (days: number): RankedList => ({ kind: "top_sellers", days, collectionId: null });

/** Top sellers summed from the store's day counts, ranked by rankByScore (not the writer's code). */
function topFromScratch(store: Store, days: number, asOf: number): number[] {
  const today = dayNumber(asOf);
  return rankByScore(store.orders.dailySales.sumByProduct("shop", today - days + 1, today + 1));
}

/** Trending summed from the store's day counts: the momentum of units and weighted adds, recent days against the baseline before. */
function trendingFromScratch(store: Store, asOf: number): number[] {
  const { recentDays, baselineDays } = DEFAULT_TRENDING;
  const recentStart = dayNumber(asOf) - recentDays + 1;
  const demand = (from: number, to: number) => {
    const totals = new Map(store.orders.dailySales.sumByProduct("shop", from, to));
    for (const [id, adds] of store.applied.dailyAdds.sumByProduct("shop", from, to))
      totals.set(id, (totals.get(id) ?? 0) + ADD_TO_CART_WEIGHT * adds);
    return totals;
  };
  const recent = demand(recentStart, recentStart + recentDays);
  const baseline = demand(recentStart - baselineDays, recentStart);
  return rankByScore(new Map([...recent].map(([id, units]) => [id, momentum(units, baseline.get(id) ?? 0, DEFAULT_TRENDING)])));
}

/**
 * A shop with sales on 60 of the last 120 days (product n % 7 steadily, and
 * product 100 + n only n days ago), rising products 20 and 21 (one of them
 * by add-to-cart events), and two collections.
 */
async function shopWithSales(dir = tempDir()): Promise<Store> {
  const store = await storeWithMerchant(dir);
  const orders = [];
  for (let daysAgo = 0; daysAgo < 120; daysAgo += 2)
    orders.push(
      order(NOW - daysAgo * DAY, [
        [daysAgo % 7, 1 + (daysAgo % 3)],
        [100 + daysAgo, 2],
      ]),
    );
  for (let daysAgo = 0; daysAgo < 5; daysAgo++) orders.push(order(NOW - daysAgo * DAY, [[20, 3]]));
  orders.push(order(NOW - 35 * DAY, [[21, 1]]), order(NOW - DAY, [[21, 2]]));
  await store.orders.upsertOrders("shop", orders);
  await store.applied.appendEvents("shop", [
    ...Array.from({ length: 12 }, (_, i) => added(21, NOW - (i % 3) * DAY)),
    added(3, NOW - 50 * DAY),
  ]);
  await store.catalogue.upsertCollections("shop", [collection(70, [1, 3, 20, 104]), collection(71, [2, 21, 999])]);
  return store;
}

describe("stored rankings (real LMDB)", () => {
  it("stores trending and every window's top sellers, for the shop and per collection, as computed from scratch over the day counts", async () => {
    const store = await shopWithSales();
    store.rankingWriter.refreshSync("shop", NOW, [30]);
    expect(store.rankings.state("shop")?.windows).toEqual([30, 90]);
    expect(stored(store, { kind: "trending" })).toEqual(trendingFromScratch(store, NOW));
    expect(stored(store, { kind: "trending" }).slice(0, 2)).toEqual([20, 21]);
    for (const days of [30, 90]) {
      const shop = topFromScratch(store, days, NOW);
      expect(stored(store, shopTop(days))).toEqual(shop);
      for (const { id, members } of [
        { id: 70, members: [1, 3, 20, 104] },
        { id: 71, members: [2, 21, 999] },
      ]) {
        expect(stored(store, { kind: "top_sellers", days, collectionId: id })).toEqual(
          shop.filter((productId) => members.includes(productId)),
        );
      }
    }
    // A product sold only 100 days ago is in no kept window.
    expect(stored(store, shopTop(90))).not.toContain(200);
    await store.close();
  });

  it("ranks a product whose day's units pass 2^31 first, not wrapped below every other", async () => {
    const store = await storeWithMerchant(tempDir());
    // 2,200 lines of 999,999 units (the most a line takes) in one day: 2.2 billion, past a 32-bit count.
    const bulk = Array.from({ length: 10 }, () =>
      order(
        NOW,
        Array.from({ length: 220 }, (): [number, number] => [7, 999_999]),
      ),
    );
    await store.orders.upsertOrders("shop", [...bulk, order(NOW, [[8, 5]])]);
    store.rankingWriter.refreshSync("shop", NOW);
    expect(stored(store, shopTop(90))).toEqual([7, 8]);
    expect(topFromScratch(store, 90, NOW)).toEqual([7, 8]);
    await store.close();
  });

  it("moves every window at a new day", async () => {
    const store = await shopWithSales();
    store.rankingWriter.refreshSync("shop", NOW);
    expect(stored(store, shopTop(90))).toContain(188);
    const tomorrow = NOW + DAY;
    // Nothing was written since: the day alone makes the lists due.
    expect(store.rankingWriter.due("shop", tomorrow, 30_000)).toBe(true);
    store.rankingWriter.refreshSync("shop", tomorrow);
    // Sold 88 days before the first refresh: 89 days before tomorrow, still in; 90 days before it is out.
    expect(stored(store, shopTop(90))).toEqual(topFromScratch(store, 90, tomorrow));
    expect(stored(store, shopTop(90))).toContain(188);
    store.rankingWriter.refreshSync("shop", tomorrow + DAY);
    expect(stored(store, shopTop(90))).not.toContain(188);
    expect(stored(store, { kind: "trending" })).toEqual(trendingFromScratch(store, tomorrow + DAY));
    await store.close();
  });

  it("is due at once when the stored lists were computed before the shop's first sale or add", async () => {
    const store = await storeWithMerchant(tempDir());
    const writer = store.rankingWriter;
    writer.refreshSync("shop", NOW);
    expect(stored(store, shopTop(90))).toEqual([]);
    expect(writer.due("shop", NOW + 1_000, 30_000)).toBe(false);
    await store.orders.upsertOrders("shop", [order(NOW, [[5, 1]])]);
    expect(writer.due("shop", NOW + 1_000, 30_000)).toBe(true);
    writer.refreshSync("shop", NOW + 1_000);
    expect(stored(store, shopTop(90))).toEqual([5]);
    // From then on, the interval holds.
    await store.orders.upsertOrders("shop", [order(NOW, [[6, 1]])]);
    expect(writer.due("shop", NOW + 2_000, 30_000)).toBe(false);
    await store.close();
  });

  it("is due when counts or collections changed and the interval has passed, and at once for a window asked for", async () => {
    const store = await shopWithSales();
    const writer = store.rankingWriter;
    expect(writer.due("shop", NOW, 30_000)).toBe(true); // nothing stored yet
    writer.refreshSync("shop", NOW);
    expect(writer.due("shop", NOW + 60_000, 30_000)).toBe(false);

    await store.orders.upsertOrders("shop", [order(NOW, [[5, 1]])]);
    expect(writer.due("shop", NOW + 10_000, 30_000)).toBe(false);
    expect(writer.due("shop", NOW + 30_000, 30_000)).toBe(true);
    writer.refreshSync("shop", NOW + 30_000);

    await store.applied.appendEvents("shop", [added(6, NOW)]);
    expect(writer.due("shop", NOW + 60_000, 30_000)).toBe(true);
    writer.refreshSync("shop", NOW + 60_000);

    // Views change no count: nothing to do.
    await store.applied.appendEvents("shop", [{ ...added(6, NOW), verb: "viewed" }]);
    expect(writer.due("shop", NOW + 600_000, 30_000)).toBe(false);

    await store.catalogue.upsertCollections("shop", [collection(72, [5])]);
    expect(writer.due("shop", NOW + 90_000, 30_000)).toBe(true);
    writer.refreshSync("shop", NOW + 90_000);

    await store.rankings.askForWindow("shop", 7, NOW + 91_000);
    expect(writer.due("shop", NOW + 92_000, 30_000)).toBe(true);
    writer.refreshSync("shop", NOW + 92_000);
    expect(store.rankings.state("shop")?.windows).toEqual([7, 90]);
    // Asked for no more: dropped once a day has passed.
    writer.refreshSync("shop", NOW + 91_000 + DAY);
    expect(store.rankings.state("shop")?.windows).toEqual([90]);
    expect(stored(store, shopTop(7))).toEqual([]);
    await store.close();
  });

  it("moves the rankings' version only when a refresh changed a list", async () => {
    const store = await shopWithSales();
    store.rankingWriter.refreshSync("shop", NOW);
    const version = store.version("shop", "rankings");
    store.rankingWriter.refreshSync("shop", NOW + 60_000);
    expect(store.version("shop", "rankings")).toBe(version);
    await store.orders.upsertOrders("shop", [order(NOW, [[300, 50]])]);
    store.rankingWriter.refreshSync("shop", NOW + 120_000);
    expect(store.version("shop", "rankings")).toBe(version + 1);
    expect(stored(store, shopTop(90))[0]).toBe(300);
    await store.close();
  });

  it("answers a window that is not kept from the nearest kept one until the writer, asked for it, has stored it", async () => {
    const store = await shopWithSales();
    store.rankingWriter.refreshSync("shop", NOW);
    expect([...topSellers(store, "shop", 30)]).toEqual(stored(store, shopTop(90)));
    await store.rankings.askForWindow("shop", 30, NOW + 1_000);
    expect(store.rankingWriter.due("shop", NOW + 1_000, 30_000)).toBe(true);
    store.rankingWriter.refreshSync("shop", NOW + 1_000);
    expect([...topSellers(store, "shop", 30)]).toEqual(topFromScratch(store, 30, NOW));
    expect([...topSellers(store, "shop", 30, 70)]).toEqual(topFromScratch(store, 30, NOW).filter((id) => [1, 3, 20, 104].includes(id)));
    // 29 days: 30 is the nearest kept window.
    expect([...topSellers(store, "shop", 29)]).toEqual(topFromScratch(store, 30, NOW));
    expect([...trending(store, "shop")]).toEqual(trendingFromScratch(store, NOW));
    await store.close();
  });

  it("keeps a window while it is asked for again, at most once an hour, and drops it a day after the last ask", async () => {
    const store = await shopWithSales();
    const { rankings, rankingWriter: writer } = store;
    await rankings.askForWindow("shop", 30, NOW);
    writer.refreshSync("shop", NOW);
    // Asked again within the hour: nothing is written, so the first ask's day still counts.
    await rankings.askForWindow("shop", 30, NOW + ASK_AGAIN_MS - 1);
    expect(rankings.windowRequests("shop")).toEqual([{ days: 30, at: NOW }]);
    await rankings.askForWindow("shop", 30, NOW + ASK_AGAIN_MS);
    expect(rankings.windowRequests("shop")).toEqual([{ days: 30, at: NOW + ASK_AGAIN_MS }]);
    writer.refreshSync("shop", NOW + DAY);
    expect(rankings.state("shop")?.windows).toEqual([30, 90]);
    writer.refreshSync("shop", NOW + ASK_AGAIN_MS + DAY);
    expect(rankings.state("shop")?.windows).toEqual([90]);
    expect(rankings.windowRequests("shop")).toEqual([]);
    // The default window needs no asking.
    await rankings.askForWindow("shop", 90, NOW + 2 * DAY);
    expect(rankings.windowRequests("shop")).toEqual([]);
    await store.close();
  });

  it("builds the lists of a data dir written before they were stored, as the applier thread does, before the merchant counts as built", async () => {
    const dir = tempDir();
    let store = await shopWithSales(dir);
    await store.close();
    // An older build's data dir: no lists, no state, no marker that they are built.
    const raw = open({ path: join(dir, "aisle.lmdb"), maxDbs: 64 });
    await raw.openDB<unknown, string>({ name: "meta", encoding: "msgpack" }).remove("derived_built:sales_rankings:shop");
    await raw.close();

    store = Store.open(dir);
    const { build } = store.rankingWriter;
    expect(store.pendingBuilds()).toEqual([{ build, merchant: "shop" }]);
    expect(stored(store, { kind: "trending" })).toEqual([]);
    while (!store.buildStepSync(build, "shop"));
    expect(store.pendingBuilds()).toEqual([]);
    const now = Date.now();
    expect(stored(store, { kind: "trending" })).toEqual(trendingFromScratch(store, now));
    expect(stored(store, shopTop(90))).toEqual(topFromScratch(store, 90, now));
    expect(stored(store, { kind: "top_sellers", days: 90, collectionId: 71 })).toEqual(
      topFromScratch(store, 90, now).filter((id) => [2, 21].includes(id)),
    );
    await store.close();
  });
});

// Writes that feed the rankings, in random order, with refreshes between them
// (whole, or a day of counts per step) and days going by: the lists then equal
// those of a store given the same writes and refreshed once, byte for byte.
// Orders of many lines make lists of several chunks, which also shrink.
const product = fc.integer({ min: 1, max: 150 });
const command = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("order" as const),
      id: fc.integer({ min: 1, max: 25 }),
      daysAgo: fc.integer({ min: 0, max: 100 }),
      lines: fc.uniqueArray(fc.tuple(product, fc.integer({ min: 1, max: 3 })), {
        minLength: 1,
        maxLength: 40,
        size: "max",
        selector: ([id]) => id,
      }),
      cancelled: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("adds" as const),
      adds: fc.array(fc.tuple(product, fc.integer({ min: 0, max: 45 })), { minLength: 1, maxLength: 20, size: "max" }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("collection" as const),
      id: fc.integer({ min: 1, max: 3 }),
      members: fc.uniqueArray(product, { maxLength: 100, size: "max" }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deleteCollection" as const), id: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("ask" as const), days: fc.integer({ min: 1, max: 120 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("refresh" as const), sliced: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("nextDay" as const) }) },
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

/** Applies a write to the store; refreshes only when `refreshing`. Answers the time after it. */
async function apply(store: Store, at: number, step: Command, refreshing: boolean): Promise<number> {
  switch (step.kind) {
    case "order":
      await store.orders.upsertOrders("shop", [order(at - step.daysAgo * DAY, step.lines, step.cancelled, step.id)]);
      return at;
    case "adds":
      await store.applied.appendEvents(
        "shop",
        step.adds.map(([id, daysAgo]) => added(id, at - daysAgo * DAY)),
      );
      return at;
    case "collection":
      await store.catalogue.upsertCollections("shop", [collection(step.id, step.members)]);
      return at;
    case "deleteCollection":
      await store.catalogue.deleteCollection("shop", step.id);
      return at;
    case "ask":
      await store.rankings.askForWindow("shop", step.days, at);
      return at + 1_000;
    case "refresh":
      if (refreshing && step.sliced) while (!store.rankingWriter.refreshStep("shop", at, 0));
      else if (refreshing) store.rankingWriter.refreshSync("shop", at);
      return at;
    case "nextDay":
      return at + DAY;
  }
}

/** Every stored chunk, raw: [key, bytes in hex]. */
async function chunksOf(dir: string): Promise<[string, string][]> {
  const raw = open({ path: join(dir, "aisle.lmdb"), maxDbs: 64 });
  const chunks = raw.openDB<Uint8Array, (string | number)[]>({ name: "ranked_list_chunks", encoding: "binary" });
  const dump = [...chunks.getRange()].map(({ key, value }): [string, string] => [JSON.stringify(key), Buffer.from(value).toString("hex")]);
  await raw.close();
  return dump;
}

describe("stored rankings, refreshed incrementally", () => {
  it("equal a rebuild from the same writes, byte for byte", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 10, maxLength: 30 }), async (commands) => {
        const incremental = { dir: tempDir(), at: NOW };
        const rebuilt = { dir: tempDir(), at: NOW };
        const stores = [await storeWithMerchant(incremental.dir), await storeWithMerchant(rebuilt.dir)] as const;
        for (const step of commands) {
          incremental.at = await apply(stores[0], incremental.at, step, true);
          rebuilt.at = await apply(stores[1], rebuilt.at, step, false);
        }
        for (const store of stores) store.rankingWriter.refreshSync("shop", incremental.at);
        expect(stores[0].rankings.state("shop")).toEqual(stores[1].rankings.state("shop"));
        await Promise.all(stores.map((store) => store.close()));
        expect(await chunksOf(incremental.dir)).toEqual(await chunksOf(rebuilt.dir));
      }),
      { numRuns: 15 },
    );
    // 30 fresh LMDB environments with tens of commits each: seconds on a quiet machine, far longer beside other jobs.
  }, 180_000);
});
