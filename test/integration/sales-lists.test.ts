import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTimestamp } from "../../src/core/timestamps.js";
import { signWebhook } from "../../src/ingest/webhook.js";
import { product, PRODUCT_LEADING_FIELDS, variant } from "../helpers/fixtures.js";
import {
  createTestShop,
  eventsApplied,
  eventually,
  postJson,
  rankingsRefreshed,
  startTestService,
  type TestService,
} from "../helpers/service.js";

let t: TestService;
/** Kept across the restart at the end. */
const dataDir = mkdtempSync(join(tmpdir(), "aisle-sales-lists-"));
let shop: { id: string; api_key: string; webhook_secret: string };
const DAY = 86_400_000;
let nextOrderId = 1;

const daysAgo = (days: number) => formatTimestamp(new Date(Date.now() - days * DAY - 60_000));
function order(productId: number, quantity: number, days: number, extra: Record<string, unknown> = {}) {
  return {
    id: nextOrderId++,
    created_at: daysAgo(days),
    customer: null,
    line_items: [{ product_id: productId, variant_id: productId * 10 + 1, quantity, price: "10.00" }],
    cancelled_at: null,
    ...extra,
  };
}

// 1: steady best seller; 2: took off this week; 3: too few units to trend;
// 4: best seller tagged exclude_service; 5: cheap rising product; 6: never sold.
beforeAll(async () => {
  t = await startTestService({ dataDir });
  const orders = [];
  for (let day = 0; day < 35; day++) orders.push(order(1, 2, day), order(4, 5, day));
  orders.push(order(2, 4, 1), order(2, 4, 2), order(2, 3, 3), order(3, 1, 1), order(5, 4, 2));
  // Lists read the rankings the applier thread stores: the shop is ready once they count these orders.
  shop = await createTestShop(t, "sales", {
    products: [
      product(1),
      product(2, { variants: [variant({ id: 21, price: "30.00" }), variant({ id: 22, price: "8.00", option1: "Small" })] }),
      product(3),
      product(4, { tags: "exclude_service" }),
      product(5, { variants: [variant({ id: 51, price: "5.00" })] }),
      product(6),
    ],
    collections: [{ id: 70, title: "Some", product_ids: [2, 3, 5] }],
    orders,
  });
});
afterAll(async () => {
  await t.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function list(endpoint: string, query = ""): Promise<any> {
  const res = await fetch(`${t.base}/api/v1/products/${endpoint}?key=${shop.api_key}&${query}`);
  return { status: res.status, body: await res.json(), headers: res.headers };
}
const ids = (body: any) => body.data.map((p: { id: number }) => p.id);

describe("trending_products", () => {
  it("ranks rising products above steady best sellers, then tops up with best sellers and the catalogue", async () => {
    const { body } = await list("trending_products", "limit=10");
    expect(ids(body).slice(0, 2)).toEqual([2, 5]);
    expect(ids(body)).toEqual([2, 5, 1, 3, 6]);
  });

  it("uses the reduced product fields of the spec", async () => {
    const [p] = (await list("trending_products", "limit=1")).body.data;
    expect(Object.keys(p)).toEqual([...PRODUCT_LEADING_FIELDS, "variants", "options", "images", "image"]);
    expect(Object.keys(p.variants[0])).toEqual([
      "id",
      "product_id",
      "title",
      "price",
      "sku",
      "compare_at_price",
      "inventory_quantity",
      "option1",
    ]);
    expect(Object.keys(p.options[0])).toEqual(["id", "name", "values"]);
    expect(Object.keys(p.images[0])).toEqual(["id", "src", "width", "height"]);
    expect(Object.keys(p.image)).toEqual(["id", "src"]);
  });

  it("filters platform_product_ids from the result set and never shows exclude_service products", async () => {
    expect(ids((await list("trending_products", "platform_product_ids=2,1&limit=10")).body)).toEqual([5, 3, 6]);
  });

  it("applies price filters on any variant and unset_variants", async () => {
    expect(ids((await list("trending_products", "any_variant_price_less_than=8&limit=10")).body)).toEqual([2, 5]);
    expect(ids((await list("trending_products", "variant_price_greater_than=10&limit=10")).body)).toEqual([2]);
    const unset = (await list("trending_products", "any_variant_price_less_than_or_equal_to=8.00&unset_variants=yes&limit=1")).body.data[0];
    expect(unset.variants.map((v: { id: number }) => v.id)).toEqual([22]);
    const kept = (await list("trending_products", "any_variant_price_equal_to=8&limit=1")).body.data[0];
    expect(kept.variants.map((v: { id: number }) => v.id)).toEqual([21, 22]);
    expect(ids((await list("trending_products", "variant_price_greater_than_or_equal_to=30&limit=10")).body)).toEqual([2]);
  });

  it("answers a bad parameter with the spec's empty 400 and names it in X-Aisle-Error", async () => {
    const res = await list("trending_products", "any_variant_price_less_than=cheap");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({});
    expect(res.headers.get("x-aisle-error")).toBe('Invalid any_variant_price_less_than: "cheap" is not a decimal amount');
    const key = await fetch(`${t.base}/api/v1/products/trending_products?key=wrong`);
    expect(await key.json()).toEqual({});
    expect(key.headers.get("x-aisle-error")).toBe("Invalid key");
  });

  it("counts add-to-cart events as demand beside sales", async () => {
    for (let i = 0; i < 12; i++) {
      const params = new URLSearchParams({
        key: shop.api_key,
        verb: "added",
        uuid: "6f1d3c2b-1a2b-4c3d-8e4f-5a6b7c8d9e0f",
        platform_product_handle: "product-6",
      });
      expect((await fetch(`${t.base}/api/v1/analytics/event?${params}`, { method: "POST" })).status).toBe(200);
    }
    await eventsApplied(t, shop.id);
    await rankingsRefreshed(t, shop.id);
    // The cached answer of the same request counted no adds: a refresh that changes the rankings retires it.
    expect(ids((await list("trending_products", "limit=4")).body)).toEqual([2, 5, 6, 1]);
  });
});

describe("top_sellers", () => {
  it("ranks by units over the window, optionally within a collection", async () => {
    expect(ids((await list("top_sellers", "limit=10")).body)).toEqual([1, 2, 5, 3]);
    // 3 days is not a kept window: answered from the nearest kept one (90 days) until the applier has stored it.
    expect(ids((await list("top_sellers", "window_days=3&limit=10")).body)).toEqual([1, 2, 5, 3]);
    await eventually(async () => expect(ids((await list("top_sellers", "window_days=3&limit=10")).body)).toEqual([2, 1, 5, 3]));
    expect(ids((await list("top_sellers", "platform_collection_id=70&limit=10")).body)).toEqual([2, 5, 3]);
    expect((await list("top_sellers", "window_days=0")).status).toBe(400);
  });

  it("follows a collection's new members once the rankings are refreshed", async () => {
    expect(ids((await list("top_sellers", "platform_collection_id=70&limit=10")).body)).toEqual([2, 5, 3]);
    await postJson(t, "/admin/v1/merchants/sales/collections", { id: 70, title: "Some", product_ids: [1, 3] });
    await rankingsRefreshed(t, "sales");
    expect(ids((await list("top_sellers", "platform_collection_id=70&limit=10")).body)).toEqual([1, 3]);
    await postJson(t, "/admin/v1/merchants/sales/collections", { id: 70, title: "Some", product_ids: [2, 3, 5] });
    await rankingsRefreshed(t, "sales");
  });

  it("takes back the units of a cancelled order once the rankings are refreshed", async () => {
    const cancelled = { ...order(3, 400, 1), id: 9_999 };
    const raw = JSON.stringify(cancelled);
    const send = (body: string, topic: string) =>
      fetch(`${t.base}/webhooks/${shop.id}`, {
        method: "POST",
        body,
        headers: { "X-Platform-Topic": topic, "X-Platform-Hmac-Sha256": signWebhook(shop.webhook_secret, body) },
      });
    expect((await send(raw, "orders/create")).status).toBe(200);
    await rankingsRefreshed(t, "sales");
    expect(ids((await list("top_sellers", "limit=1")).body)).toEqual([3]);
    const cancel = JSON.stringify({ ...cancelled, cancelled_at: daysAgo(0) });
    expect((await send(cancel, "orders/cancelled")).status).toBe(200);
    await rankingsRefreshed(t, "sales");
    expect(ids((await list("top_sellers", "limit=1")).body)).toEqual([1]);
  });
});

describe("after a restart", () => {
  it("answers the same bytes at the first request: the rankings are stored, nothing is read again first", async () => {
    const queries = [
      ["trending_products", "limit=10"],
      ["top_sellers", "limit=10"],
      ["top_sellers", "platform_collection_id=70&limit=10"],
      ["top_sellers", "window_days=3&limit=10"],
    ];
    const bodies = async () =>
      Promise.all(
        queries.map(async ([endpoint, query]) =>
          (await fetch(`${t.base}/api/v1/products/${endpoint}?key=${shop.api_key}&${query}`)).text(),
        ),
      );
    const before = await bodies();
    await t.service.close();
    t = await startTestService({ dataDir });
    expect(await bodies()).toEqual(before);
  });
});
