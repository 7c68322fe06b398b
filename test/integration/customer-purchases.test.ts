// Each customer's purchases, summed with every order write, equal the sum of
// their orders, and a rebuild from the orders.
import { afterEach, describe, expect, it } from "vitest";
import { purchaseSummary } from "../../src/core/recs/purchases.js";
import { formatTimestamp } from "../../src/core/timestamps.js";
import { ingest } from "../../src/ingest/ingest.js";
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

const CUSTOMERS = [1, 2, 3];
const summaries = () => CUSTOMERS.map((id) => store.orders.purchases.summary("shop", id) ?? null);
const summed = () =>
  CUSTOMERS.map((id) => {
    const summary = purchaseSummary(store.orders.ordersOfCustomer("shop", id));
    return summary.ids.length === 0 ? null : summary;
  });

describe("customers' stored purchases", () => {
  it("follow every order write (new, cancelled, moved to another customer) as a rebuild from the orders has them", async () => {
    store = Store.open(tempDir());
    await store.catalogue.createMerchant(storedMerchant("shop"));
    await ingest(
      store,
      "shop",
      "products",
      Array.from({ length: 8 }, (_, i) => product(i + 1)),
    );
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
});
