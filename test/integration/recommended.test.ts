import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTimestamp } from "../../src/core/timestamps.js";
import { signWebhook } from "../../src/ingest/webhook.js";
import { product } from "../helpers/fixtures.js";
import { createTestShop, eventsApplied, eventually, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let shop: { id: string; api_key: string; webhook_secret: string };
let nextOrderId = 1;

function basket(productIds: number[], times: number) {
  return Array.from({ length: times }, () => ({
    id: nextOrderId++,
    created_at: formatTimestamp(new Date(Date.now() - 3 * 86_400_000)),
    customer: null,
    line_items: productIds.map((id) => ({ product_id: id, variant_id: id * 10 + 1, quantity: 1, price: "10.00" })),
    cancelled_at: null,
  }));
}

beforeAll(async () => {
  t = await startTestService();
  // The fallbacks read the rankings the applier thread stores: the shop is ready once they count the orders.
  shop = await createTestShop(t, "recs", {
    products: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((id) => product(id, id === 7 ? { tags: "gift, exclude_service" } : {})),
    collections: [
      { id: 50, title: "Pair", product_ids: [2, 1] },
      { id: 51, title: "Shelf", product_ids: [9, 7, 6, 5, 4, 3, 2] },
    ],
    orders: [
      ...basket([1, 2], 6),
      ...basket([1, 3], 2),
      ...basket([1, 4], 1),
      ...basket([2, 5], 2),
      ...basket([6], 30),
      ...basket([1, 7], 10),
      ...basket([5, 9], 2),
    ],
  });
});
afterAll(() => t.stop());

async function recommend(query: string): Promise<any> {
  const res = await fetch(`${t.base}/api/v1/products/recommended?key=${shop.api_key}&${query}`);
  return { status: res.status, body: await res.json() };
}
const ids = (body: any): number[] => body.data.map((p: { id: number }) => p.id);

describe("GET /api/v1/products/recommended", () => {
  it("recommends what is bought together with a product, best first, never the input or exclude_service products", async () => {
    const top = ids((await recommend("platform_product_ids=1&limit=3")).body);
    expect(top).toEqual([2, 3, 4]);
  });

  it("maps platform_variant_ids to their products", async () => {
    expect(ids((await recommend("platform_variant_ids=11&limit=3")).body)).toEqual([2, 3, 4]);
  });

  it("combines several inputs", async () => {
    const both = ids((await recommend("platform_product_ids=1,5&limit=3")).body);
    expect(both[0]).toBe(2);
    expect(both).not.toContain(1);
    expect(both).not.toContain(5);
  });

  it("returns a collection's products: ranked by the inputs' model with inputs, by the collection's sales without", async () => {
    // No inputs: the collection's best sellers first (1 sold 19 units, 2 sold 8), whatever order the collection lists them in.
    expect(ids((await recommend("platform_collection_id=50&limit=3")).body)).toEqual([1, 2]);
    // With an input: what is bought with product 1 among the collection's products (2, 3, 4), then the
    // collection's best sellers (6 sold 30, 5 sold 4, 9 sold 2); never the input or exclude_service (7).
    expect(ids((await recommend("platform_collection_id=51&platform_product_ids=1&limit=10")).body)).toEqual([2, 3, 4, 6, 5, 9]);
    expect(ids((await recommend("platform_collection_id=50&platform_product_ids=1&limit=3")).body)).toEqual([2]);
  });

  it("falls back to trending and best sellers so the list is full whenever eligible products exist", async () => {
    const full = ids((await recommend("platform_product_ids=4&limit=50")).body);
    expect(full[0]).toBe(1);
    expect(full.sort((a, b) => a - b)).toEqual([1, 2, 3, 5, 6, 8, 9]);
    expect(ids((await recommend("limit=1")).body)).toEqual([6]);
  });

  it("learns from each new order at once: a webhook order changes the next response", async () => {
    expect(ids((await recommend("platform_product_ids=9&limit=1")).body)).toEqual([5]);
    for (const order of basket([9, 8], 3)) {
      const raw = JSON.stringify(order);
      const res = await fetch(`${t.base}/webhooks/${shop.id}`, {
        method: "POST",
        body: raw,
        headers: { "X-Platform-Topic": "orders/create", "X-Platform-Hmac-Sha256": signWebhook(shop.webhook_secret, raw) },
      });
      expect(res.status).toBe(200);
    }
    expect(ids((await recommend("platform_product_ids=9&limit=1")).body)).toEqual([8]);
  });

  it("reports cache_info: never when computed for this request, the time when served from the cache", async () => {
    const first = (await recommend("platform_product_ids=2&limit=2")).body;
    expect(first.metadata.cache_info).toEqual({ cache_key: expect.any(String), cached_at_time: "never" });
    const second = (await recommend("platform_product_ids=2&limit=2")).body;
    expect(second.metadata.cache_info.cache_key).toBe(first.metadata.cache_info.cache_key);
    expect(Date.parse(second.metadata.cache_info.cached_at_time)).toBeGreaterThan(Date.now() - 60_000);
    expect(second.data).toEqual(first.data);
    const busted = (await recommend("platform_product_ids=2&limit=2&bust_cache=yes")).body;
    expect(busted.metadata.cache_info.cached_at_time).toBe("never");
    const pretty = await fetch(`${t.base}/api/v1/products/recommended?key=${shop.api_key}&platform_product_ids=2&format=pretty`);
    expect(JSON.parse(await pretty.text()).metadata.cache_info.cached_at_time).toBe("never");
  });

  it("keeps cached answers when an order does not touch the inputs' neighbour lists", async () => {
    const query = "platform_product_ids=3&limit=2";
    await recommend(query);
    await postJson(t, "/admin/v1/merchants/recs/orders", basket([6], 1));
    const kept = (await recommend(query)).body;
    expect(kept.metadata.cache_info.cached_at_time).not.toBe("never");
    await postJson(t, "/admin/v1/merchants/recs/orders", basket([3, 9], 1));
    expect((await recommend(query)).body.metadata.cache_info.cached_at_time).toBe("never");
  });

  it("learns from add-to-cart events: products added to the same cart go together", async () => {
    const add = (uuid: string, handle: string) =>
      fetch(
        `${t.base}/api/v1/analytics/event?${new URLSearchParams({ key: shop.api_key, verb: "added", uuid, platform_product_handle: handle })}`,
        { method: "POST" },
      );
    await postJson(t, "/admin/v1/merchants/recs/products", [product(10), product(11)]);
    for (const uuid of ["1b1e7c4a-0f0e-4a8e-9d61-3f3f6c1d2a01", "1b1e7c4a-0f0e-4a8e-9d61-3f3f6c1d2a02"]) {
      expect((await add(uuid, "product-10")).status).toBe(200);
      expect((await add(uuid, "product-11")).status).toBe(200);
    }
    const store = t.service.services.store;
    // Carts reach the lists behind the acknowledgements (the event writer applies and refreshes them).
    await eventsApplied(t, shop.id);
    await eventually(() => {
      store.refreshSnapshot();
      expect(store.orders.copurchaseNeighbours(shop.id, 10)?.ids).toEqual([11]);
    });
    const before = store.orders.copurchaseNeighbours(shop.id, 10);
    expect(ids((await recommend("platform_product_ids=10&limit=1")).body)).toEqual([11]);
    // A rebuild from orders and the event log gives the same list.
    await store.orders.rebuildCopurchase(shop.id);
    const after = store.orders.copurchaseNeighbours(shop.id, 10)!;
    expect(after.ids).toEqual(before!.ids);
    expect(after.weights[0]).toBeCloseTo(before!.weights[0]!, 9);
  });

  it("answers a wrong key with the spec's 400 Invalid key and bad ids with a message", async () => {
    const res = await fetch(`${t.base}/api/v1/products/recommended?key=nope&platform_product_ids=1`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid key" });
    expect((await recommend("platform_variant_ids=x")).body).toEqual({ error: 'Invalid platform_variant_ids: "x" is not an id' });
  });
});
