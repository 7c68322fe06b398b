import { describe, expect, it } from "vitest";
import { dayNumber } from "../../src/core/recs/days.js";
import { formatTimestamp } from "../../src/core/timestamps.js";
import type { Order } from "../../src/core/types.js";
import { takeWarmingNotes } from "../../src/pool/warming-notes.js";
import {
  readBudgetsForRequests,
  REQUEST_READ_BUDGETS,
  SALES_DAYS_KEPT,
  SALES_WARMING,
  SalesHistory,
  salesHistoryOf,
} from "../../src/recs/sales-history.js";
import { topSellers } from "../../src/recs/sales-rankings.js";
import { Store } from "../../src/stores/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 4, 20, 12);
const TODAY = dayNumber(NOW);
const tempDir = tempDirs("aisle-sales-history-");

let nextOrder = 1;
function order(daysAgo: number, lines: [productId: number, quantity: number][], cancelled = false): { path: string; value: Order } {
  const created = formatTimestamp(new Date(NOW - daysAgo * DAY));
  const line_items = lines.map(([product_id, quantity]) => ({ product_id, variant_id: null, quantity, price: "1.00" }));
  return {
    path: "o",
    value: { id: nextOrder++, created_at: created, customer_id: null, line_items, cancelled_at: cancelled ? created : null },
  };
}

/** Sums of a history over days [fromDay, toDay], by product id. */
function sums(history: SalesHistory, units: "sales" | "adds", fromDay: number, toDay: number): Map<number, number> {
  const totals = new Float64Array(history.products.size);
  history[units].addInto(totals, fromDay, toDay);
  return new Map([...totals].flatMap((total, slot) => (total === 0 ? [] : [[history.products.ids[slot]!, total]])));
}

/** A shop with sales on 60 of the last 90 days, and a few older ones. */
async function shopWithSales(): Promise<Store> {
  const store = Store.open(tempDir());
  const orders = [];
  for (let daysAgo = 0; daysAgo < 120; daysAgo += 2)
    orders.push(
      order(daysAgo, [
        [daysAgo % 7, 1 + (daysAgo % 3)],
        [100 + daysAgo, 2],
      ]),
    );
  await store.upsertOrders("shop", orders);
  await store.appendEvents("shop", [
    { verb: "added", product_id: 3, at: NOW - DAY, uuid: "s1", customer_id: null } as never,
    { verb: "added", product_id: 3, at: NOW - 50 * DAY, uuid: "s1", customer_id: null } as never,
  ]);
  return store;
}

/** A pool worker's budgets cut to one slice of rows per call, also for changed days however few rows they held: a big shop's reads on a small one. */
const ONE_SLICE = { firstReadMs: 0, smallRereadRows: -1, rereadMs: 0 };

describe("SalesHistory (real LMDB)", () => {
  it("sums to what the store holds over every window of the kept days", async () => {
    const store = await shopWithSales();
    const history = new SalesHistory(store, "shop");
    expect(history.update(TODAY, Number.POSITIVE_INFINITY)).toBe(true);
    for (const days of [1, 7, 30, SALES_DAYS_KEPT]) {
      expect(sums(history, "sales", TODAY - days + 1, TODAY)).toEqual(store.dailySales.sumByProduct("shop", TODAY - days + 1, TODAY + 1));
    }
    // Older than the kept days: not held.
    expect(sums(history, "sales", 0, TODAY - SALES_DAYS_KEPT)).toEqual(new Map());
    expect(sums(history, "adds", 0, TODAY)).toEqual(store.dailyAdds.sumByProduct("shop", TODAY - 39, TODAY + 1));
    await store.close();
  });

  it("reads in slices, newest day first, and says when it is complete", async () => {
    const store = await shopWithSales();
    const history = new SalesHistory(store, "shop");
    let calls = 0;
    // A deadline already past: each call reads one slice of one day at most.
    while (!history.update(TODAY, 0)) {
      calls++;
      const read = [...sums(history, "sales", 0, TODAY).keys()].filter((id) => id >= 100).map((id) => id - 100);
      // Products 100 + n were sold n days ago only: what is read so far is the most recent days, without gaps.
      expect(read.sort((a, b) => a - b)).toEqual(Array.from({ length: read.length }, (_, i) => 2 * i));
    }
    expect(calls).toBeGreaterThan(10);
    expect(history.covers(history.sales, TODAY - 89) && history.covers(history.adds, TODAY - 39)).toBe(true);
    expect(sums(history, "sales", TODAY - 89, TODAY)).toEqual(store.dailySales.sumByProduct("shop", TODAY - 89, TODAY + 1));
    await store.close();
  });

  it("reads again only the days whose counts changed, and follows cancellations", async () => {
    const store = await shopWithSales();
    const history = new SalesHistory(store, "shop");
    history.update(TODAY, Number.POSITIVE_INFINITY);
    expect(history.sales.staleDays(TODAY - 89, TODAY)).toEqual([]);
    const late = order(10, [[5, 4]]);
    await store.upsertOrders("shop", [late, order(0, [[6, 1]])]);
    expect(history.sales.staleDays(TODAY - 89, TODAY)).toEqual([TODAY - 10, TODAY]);
    const generation = history.generation;
    history.update(TODAY, Number.POSITIVE_INFINITY);
    expect(history.generation).toBe(generation + 2);
    expect(sums(history, "sales", TODAY - 89, TODAY)).toEqual(store.dailySales.sumByProduct("shop", TODAY - 89, TODAY + 1));
    await store.upsertOrders("shop", [{ ...late, value: { ...late.value, cancelled_at: late.value.created_at } }]);
    history.update(TODAY, Number.POSITIVE_INFINITY);
    expect(sums(history, "sales", TODAY - 10, TODAY - 10)).toEqual(store.dailySales.sumByProduct("shop", TODAY - 10, TODAY - 9));
    await store.close();
  });

  it("drops the days that leave the window at a new day, and reads older days when a longer window is asked for", async () => {
    const store = await shopWithSales();
    const history = new SalesHistory(store, "shop");
    history.update(TODAY, Number.POSITIVE_INFINITY);
    history.update(TODAY + 10, Number.POSITIVE_INFINITY);
    expect(sums(history, "sales", 0, TODAY + 10)).toEqual(store.dailySales.sumByProduct("shop", TODAY + 10 - 89, TODAY + 11));
    // A request queued before midnight and run after it (an earlier day) drops and reads nothing.
    const generation = history.generation;
    history.update(TODAY, Number.POSITIVE_INFINITY);
    history.update(TODAY + 10, Number.POSITIVE_INFINITY);
    expect(history.generation).toBe(generation);
    history.keepSalesDays(365);
    // The default window stays read; only the longer one waits for its days.
    expect(history.covers(history.sales, TODAY + 10 - 89)).toBe(true);
    expect(history.covers(history.sales, TODAY + 10 - 364)).toBe(false);
    history.update(TODAY, Number.POSITIVE_INFINITY);
    expect(history.covers(history.sales, TODAY + 10 - 364)).toBe(true);
    expect(sums(history, "sales", 0, TODAY)).toEqual(store.dailySales.sumByProduct("shop", 0, TODAY + 1));
    await store.close();
  });

  it("reads what changed while it was reading before it says it is up to date", async () => {
    const store = await shopWithSales();
    const history = new SalesHistory(store, "shop");
    // Today is read first; an order arrives for it while older days are still being read.
    history.update(TODAY, 0);
    await store.upsertOrders("shop", [order(0, [[7, 9]])]);
    while (!history.update(TODAY, 0));
    expect(sums(history, "sales", TODAY, TODAY)).toEqual(store.dailySales.sumByProduct("shop", TODAY, TODAY + 1));
    await store.close();
  });

  it("once read, a ranking whose days changed is answered from the days as read before while they are read again, without a warming note", async () => {
    const store = await shopWithSales();
    readBudgetsForRequests(store, ONE_SLICE);
    const history = salesHistoryOf(store, "shop");
    while (!history.update(TODAY, 0));
    takeWarmingNotes(store);
    const before = topSellers(store, "shop", NOW, 90).all();
    expect(takeWarmingNotes(store)).toBeUndefined();
    // Many old days change at once (a bulk import of old orders): a request reads one slice of them, not all.
    await store.upsertOrders(
      "shop",
      Array.from({ length: 40 }, (_, i) => order(2 * i + 1, [[200 + i, 1]])),
    );
    const during = topSellers(store, "shop", NOW, 90, { fresh: true });
    expect(takeWarmingNotes(store)).toBeUndefined();
    expect(history.sales.staleDays(TODAY - 89, TODAY).length).toBeGreaterThan(30);
    expect(
      during
        .all()
        .filter((id) => id < 200)
        .sort(),
    ).toEqual([...before].sort());
    readBudgetsForRequests(store, null);
    const after = topSellers(store, "shop", NOW + 2_000, 90, { fresh: true }).all();
    expect(after.filter((id) => id >= 200)).toHaveLength(40);
    await store.close();
  });

  it("a window read before the others does not make the request read the rest at once", async () => {
    const store = await shopWithSales();
    // Changed days of few rows are read at once; days never read, a slice at a time.
    readBudgetsForRequests(store, { ...REQUEST_READ_BUDGETS, firstReadMs: 0 });
    const history = salesHistoryOf(store, "shop");
    // Today and yesterday read: a one-day window is covered, the 90 days are not.
    history.update(TODAY, 0);
    history.update(TODAY, 0);
    expect(history.covers(history.sales, TODAY)).toBe(true);
    takeWarmingNotes(store);
    topSellers(store, "shop", NOW, 1);
    expect(takeWarmingNotes(store)).toBeUndefined();
    expect(history.allKeptDaysRead()).toBe(false);
    await store.close();
  });

  it("once read, a few changed days are read again within the request: the next ranking counts every order", async () => {
    const store = await shopWithSales();
    readBudgetsForRequests(store, REQUEST_READ_BUDGETS);
    const history = salesHistoryOf(store, "shop");
    while (!history.update(TODAY, 0));
    topSellers(store, "shop", NOW, 90);
    await store.upsertOrders("shop", [order(0, [[300, 50]]), order(33, [[301, 40]])]);
    const ranked = topSellers(store, "shop", NOW, 90, { fresh: true }).all();
    expect(ranked.slice(0, 2)).toEqual([300, 301]);
    await store.close();
  });

  it("a request in a thread with a read budget ranks from the days read so far and notes that it did", async () => {
    const store = await shopWithSales();
    readBudgetsForRequests(store, ONE_SLICE);
    takeWarmingNotes(store);
    const first = topSellers(store, "shop", NOW, 90);
    const partial = first.all();
    expect(takeWarmingNotes(store)).toBe(SALES_WARMING);
    const full = [...store.dailySales.sumByProduct("shop", TODAY - 89, TODAY + 1).keys()];
    expect(partial.length).toBeLessThan(full.length);
    // Read on by the next request, but not summed again so soon: the same partial ranking.
    const history = salesHistoryOf(store, "shop");
    const generation = history.generation;
    const again = topSellers(store, "shop", NOW, 90, { fresh: true });
    expect(history.generation).toBeGreaterThan(generation);
    expect(again).toBe(first);
    expect(takeWarmingNotes(store)).toBe(SALES_WARMING);
    readBudgetsForRequests(store, null);
    const complete = topSellers(store, "shop", NOW, 90);
    expect(takeWarmingNotes(store)).toBeUndefined();
    expect(complete.all().sort((a, b) => a - b)).toEqual(full.sort((a, b) => a - b));
    await store.close();
  });
});
