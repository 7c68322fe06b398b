// Each customer's purchases, summed with every order write, equal the sum of
// their orders, and a rebuild from the orders.
import { afterEach, describe, expect, it } from "vitest";
import { PURCHASED } from "../../src/core/api/endpoints.js";
import { listOptionsFrom } from "../../src/core/products/query.js";
import { purchaseSummary } from "../../src/core/recs/purchases.js";
import { formatTimestamp } from "../../src/core/timestamps.js";
import { ingest } from "../../src/ingest/ingest.js";
import { InlineAnswers } from "../../src/lists/inline-answers.js";
import type { ListTask } from "../../src/lists/list-task.js";
import { Store } from "../../src/stores/store.js";
import { basketOrder, product } from "../helpers/fixtures.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-purchases-");
let store: Store;

afterEach(async () => {
  await store.close();
});

function order(id: number, customerId: number, productIds: number[], daysAgo: number, cancelled = false): Record<string, unknown> {
  const at = formatTimestamp(new Date(Date.now() - daysAgo * 86_400_000));
  return {
    ...basketOrder(id, productIds, 1 + (id % 3)),
    created_at: at,
    customer: { id: customerId },
    cancelled_at: cancelled ? at : null,
  };
}

/** A fresh store with merchant "shop" and these products. */
async function openShop(productIds: number[]): Promise<void> {
  store = Store.open(tempDir());
  await store.catalogue.createMerchant(storedMerchant("shop"));
  await ingest(
    store,
    "shop",
    "products",
    productIds.map((id) => product(id)),
  );
}

const CUSTOMERS = [1, 2, 3];
const summaries = () => CUSTOMERS.map((id) => store.orders.purchases.summary("shop", id) ?? null);
const summed = () =>
  CUSTOMERS.map((id) => {
    const summary = purchaseSummary(store.orders.ordersOfCustomer("shop", id));
    return summary.ids.length === 0 ? null : summary;
  });

describe("customers' stored purchases", () => {
  it("follow every order write (new, cancelled, moved to another customer) as a rebuild from the orders has them", async () => {
    await openShop(Array.from({ length: 8 }, (_, i) => i + 1));
    await ingest(store, "shop", "orders", [order(1, 1, [1, 2], 9), order(2, 1, [2, 3], 5), order(3, 2, [4], 3), order(4, 3, [5, 6], 1)]);
    expect(summaries()).toEqual(summed());
    expect(store.orders.purchases.summary("shop", 1)).toEqual({ ids: [2, 3, 1], quantities: [2 + 3, 3, 2] });

    await ingest(store, "shop", "orders", [order(2, 1, [2, 3], 5, true), order(3, 1, [4], 3), order(5, 2, [7, 8], 0)]);
    expect(summaries()).toEqual(summed());
    expect(store.orders.purchases.summary("shop", 1)!.ids).toEqual([4, 1, 2]);
    expect(store.orders.purchases.summary("shop", 2)!.ids).toEqual([7, 8]);

    const { purchases } = store.orders;
    await store.atomically(() => {
      purchases.clear("shop");
      for (let cursor: number | null = null; ;) {
        cursor = purchases.buildSlice("shop", cursor);
        if (cursor === null) break;
      }
    });
    expect(summaries()).toEqual(summed());
  });

  it("are rebuilt a slice of customers at a time, the cursor going on past a slice", async () => {
    await openShop(Array.from({ length: 8 }, (_, i) => i + 1));
    const customers = Array.from({ length: 250 }, (_, i) => 1_000 + i);
    await ingest(
      store,
      "shop",
      "orders",
      customers.map((customerId, i) => order(i + 1, customerId, [1 + (i % 8), 1 + ((i + 3) % 8)], i % 20)),
    );
    const stored = () => customers.map((id) => store.orders.purchases.summary("shop", id));
    const written = stored();
    expect(written.every((summary) => summary?.ids.length === 2)).toBe(true);
    const { purchases } = store.orders;
    let slices = 0;
    await store.atomically(() => {
      purchases.clear("shop");
      for (let cursor: number | null = null; ; slices++) {
        cursor = purchases.buildSlice("shop", cursor);
        if (cursor === null) break;
      }
    });
    expect(slices).toBeGreaterThan(1);
    expect(stored()).toEqual(written);
  });

  it("are answered on the HTTP thread only while a customer's record is small", async () => {
    // Ids as the platform's are: large, so each takes 9 bytes of the record.
    const ids = Array.from({ length: 600 }, (_, i) => 7_100_000_000_000 + i);
    await openShop(ids);
    await ingest(store, "shop", "orders", [order(1, 1, ids.slice(0, 2), 2), order(2, 2, ids, 1)]);
    const task = (customerId: number): ListTask => ({
      kind: "purchased",
      merchantId: "shop",
      customerId,
      list: listOptionsFrom({}, PURCHASED.answer.projection),
    });
    expect(new InlineAnswers(store).answer(task(1))).not.toBeNull();
    expect(store.orders.purchases.summary("shop", 2)!.ids).toHaveLength(600);
    expect(new InlineAnswers(store).answer(task(2))).toBeNull();
  });
});
