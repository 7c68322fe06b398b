import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "../../src/ingest/webhook.js";
import { product, variant } from "../helpers/fixtures.js";
import { createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let shop: { id: string; api_key: string; webhook_secret: string };

beforeAll(async () => {
  t = await startTestService();
  shop = await createTestMerchant(t, "ingest");
});
afterAll(() => t.stop());

const store = () => t.service.services.store;

async function staticIds(query: string): Promise<number[]> {
  const res = await fetch(`${t.base}/api/v1/products/static?key=${shop.api_key}&filter_oos=no&limit=50&${query}`);
  return ((await res.json()) as { data: { id: number }[] }).data.map((p) => p.id);
}

function webhook(topic: string, body: unknown, secret = shop.webhook_secret, merchant = shop.id): Promise<Response> {
  const raw = JSON.stringify(body);
  return fetch(`${t.base}/webhooks/${merchant}`, {
    method: "POST",
    body: raw,
    headers: { "X-Platform-Topic": topic, "X-Platform-Hmac-Sha256": signWebhook(secret, raw), "Content-Type": "application/json" },
  });
}

describe("admin API", () => {
  it("refuses JSON nested too deeply to store, naming it, and writes nothing", async () => {
    // Built as text: JSON.stringify itself runs out of stack long before 10,000 levels.
    const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
    const deepProduct = (id: number, levels: number) =>
      JSON.stringify(product(id)).replace('"variants":[{', `"variants":[{"selling_plan_allocations":${nested(levels)},`);
    const tooDeep = "nests arrays and objects more than 64 levels deep";
    const posted = await postJson(t, `/admin/v1/merchants/${shop.id}/products`, deepProduct(71, 3_000));
    expect([posted.status, await posted.json()]).toEqual([400, { error: `products[0]: ${tooDeep}` }]);
    const lines = `${JSON.stringify(product(72))}\n${deepProduct(73, 100)}\n`;
    const ndjson = await postJson(t, `/admin/v1/merchants/${shop.id}/products`, lines);
    expect([ndjson.status, await ndjson.json()]).toEqual([400, { error: `products line 2: ${tooDeep}` }]);
    const metafield = JSON.stringify(product(74)).replace(
      '"variants":[',
      `"metafields":[{"id":7401,"namespace":"n","key":"k","value":${nested(10_000)}}],"variants":[`,
    );
    expect((await postJson(t, `/admin/v1/merchants/${shop.id}/products`, metafield)).status).toBe(400);
    expect((await postJson(t, `/admin/v1/merchants/${shop.id}/products`, product(75))).status).toBe(200);
    const patched = await t.admin(`/admin/v1/merchants/${shop.id}/products/75`, {
      method: "PATCH",
      body: `{"variants":[{"id":751,"selling_plan_allocations":${nested(3_000)}}]}`,
    });
    expect([patched.status, await patched.json()]).toEqual([400, { error: `product body ${tooDeep}` }]);
    const raw = deepProduct(76, 3_000);
    const hooked = await fetch(`${t.base}/webhooks/${shop.id}`, {
      method: "POST",
      body: raw,
      headers: { "X-Platform-Topic": "products/create", "X-Platform-Hmac-Sha256": signWebhook(shop.webhook_secret, raw) },
    });
    expect([hooked.status, await hooked.json()]).toEqual([400, { error: `products/create body ${tooDeep}` }]);
    for (const id of [71, 72, 73, 74, 76]) expect(store().catalogue.product(shop.id, id), `product ${id}`).toBeUndefined();
    expect(store().catalogue.product(shop.id, 75)?.variants[0]?.selling_plan_allocations).toEqual([]);
    // Within the bound, what a variant's allocations hold is kept as sent.
    const fine = await postJson(t, `/admin/v1/merchants/${shop.id}/products`, deepProduct(77, 60));
    expect(fine.status).toBe(200);
  });

  it("refuses requests without the admin bearer token", async () => {
    const none = await fetch(`${t.base}/admin/v1/merchants`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: "Missing or invalid admin token" });
    const wrong = await fetch(`${t.base}/admin/v1/merchants/ingest/products`, {
      method: "POST",
      headers: { Authorization: "Bearer wrong" },
      body: JSON.stringify([product(1)]),
    });
    expect(wrong.status).toBe(401);
    expect(store().catalogue.product(shop.id, 1)).toBeUndefined();
  });

  it("creates merchants with fresh random keys and refuses a duplicate id or a bad field", async () => {
    const a = await createTestMerchant(t, "keys-a");
    const b = await createTestMerchant(t, "keys-b");
    expect(a.api_key).not.toBe(b.api_key);
    expect(a.api_key.length).toBeGreaterThanOrEqual(32);
    const again = await postJson(t, "/admin/v1/merchants", { id: "keys-a", name: "x", domain: "x.example.com", currency: "USD" });
    expect(again.status).toBe(409);
    const bad = await postJson(t, "/admin/v1/merchants", { id: "Bad Id", name: "x", domain: "x.example.com" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^merchant\.id:/);
    const list = (await (await t.admin("/admin/v1/merchants")).json()) as { data: { id: string }[] };
    expect(list.data.map((m) => m.id)).toEqual(expect.arrayContaining(["keys-a", "keys-b"]));
    expect(JSON.stringify(list)).not.toContain(a.api_key);
  });

  it("upserts products from a JSON array, one object or NDJSON", async () => {
    expect((await postJson(t, "/admin/v1/merchants/ingest/products", [product(1), product(2)])).status).toBe(200);
    expect((await postJson(t, "/admin/v1/merchants/ingest/products", product(3))).status).toBe(200);
    const ndjson = [product(4), product(5)].map((p) => JSON.stringify(p)).join("\n");
    const res = await postJson(t, "/admin/v1/merchants/ingest/products", ndjson);
    expect(await res.json()).toEqual({ written: 2 });
    expect(await staticIds("ids=1,2,3,4,5")).toEqual([1, 2, 3, 4, 5]);
    // Upsert by id: the same id again replaces the product, its handle and variant indexes.
    await postJson(t, "/admin/v1/merchants/ingest/products", product(5, { handle: "renamed-five", variants: [variant({ id: 555 })] }));
    expect(store().catalogue.productIdByHandle(shop.id, "product-5")).toBeUndefined();
    expect(store().catalogue.productIdByHandle(shop.id, "renamed-five")).toBe(5);
    expect(store().catalogue.productIdByVariant(shop.id, 51)).toBeUndefined();
    expect(store().catalogue.variantIdBySku(shop.id, "SKU-555")).toBe(555);
  });

  it("writes nothing from a half-invalid batch and names the object and field", async () => {
    const version = store().version(shop.id, "catalogue");
    const batch = [product(20), product(21, { variants: [variant({ id: 211, price: "cheap" })] }), product(22)];
    const res = await postJson(t, "/admin/v1/merchants/ingest/products", batch);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'products[1].variants[0].price: must be a non-negative decimal amount like "19.99"' });
    expect(store().catalogue.product(shop.id, 20)).toBeUndefined();
    expect(store().catalogue.product(shop.id, 22)).toBeUndefined();
    expect(store().version(shop.id, "catalogue")).toBe(version);
  });

  it("rolls back a batch that conflicts with stored data (a handle owned by another product)", async () => {
    const res = await postJson(t, "/admin/v1/merchants/ingest/products", [product(30), product(31, { handle: "product-1" })]);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('products[1].handle: "product-1" is already the handle of product 1');
    expect(store().catalogue.product(shop.id, 30)).toBeUndefined();
  });

  it("rejects invalid JSON, wrong field types and unknown kinds with a 400 or 404", async () => {
    const broken = await postJson(t, "/admin/v1/merchants/ingest/products", '[{"id": 1,');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: string }).error).toMatch(/^products: is not valid JSON/);
    const ndjson = await postJson(t, "/admin/v1/merchants/ingest/products", `${JSON.stringify(product(40))}\n{oops}`);
    expect(((await ndjson.json()) as { error: string }).error).toMatch(/^products line 2: is not valid JSON/);
    const missingTitle = await postJson(t, "/admin/v1/merchants/ingest/products", { id: 41, variants: [{ id: 1, price: "1" }] });
    expect(await missingTitle.json()).toEqual({ error: "products[0].title: is required" });
    const noVariants = await postJson(t, "/admin/v1/merchants/ingest/products", product(42, { variants: [] }));
    expect(await noVariants.json()).toEqual({ error: "products[0].variants: must contain at least one variant" });
    expect((await postJson(t, "/admin/v1/merchants/ingest/widgets", [])).status).toBe(404);
    expect((await postJson(t, "/admin/v1/merchants/nobody/products", [product(1)])).status).toBe(404);
    expect(store().catalogue.product(shop.id, 40)).toBeUndefined();
  });

  it("stores collections, customers, orders and markets, and deletes products and collections", async () => {
    expect((await postJson(t, "/admin/v1/merchants/ingest/collections", { id: 7, title: "Summer Mugs", product_ids: [2, 1] })).status).toBe(
      200,
    );
    expect(store().catalogue.collection(shop.id, 7)).toEqual({ id: 7, title: "Summer Mugs", handle: "summer-mugs", product_ids: [2, 1] });
    expect(await staticIds("platform_collection_id=7")).toEqual([2, 1]);

    const customer = {
      id: 900,
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "L",
      addresses: [{ id: 1, country_code: "ca", city: "Toronto", default: true }],
    };
    expect((await postJson(t, "/admin/v1/merchants/ingest/customers", customer)).status).toBe(200);
    expect(store().catalogue.customer(shop.id, 900)).toMatchObject({
      email: "ada@example.com",
      admin_graphql_api_id: "gid://platform/Customer/900",
      default_address: { country_code: "CA", name: "Ada L" },
    });

    const order = {
      id: 1001,
      created_at: "2026-03-01T12:00:00Z",
      customer: { id: 900 },
      line_items: [{ product_id: 1, variant_id: 11, quantity: 2, price: 10 }],
      cancelled_at: null,
    };
    expect((await postJson(t, "/admin/v1/merchants/ingest/orders", order)).status).toBe(200);
    expect(
      store()
        .orders.ordersOfCustomer(shop.id, 900)
        .map((o) => o.id),
    ).toEqual([1001]);
    expect(store().orders.order(shop.id, 1001)).toMatchObject({
      created_at: "2026-03-01T12:00:00+00:00",
      line_items: [{ price: "10.00", quantity: 2 }],
    });
    const badOrder = await postJson(t, "/admin/v1/merchants/ingest/orders", {
      ...order,
      id: 1002,
      line_items: [{ product_id: 1, quantity: 0, price: "1" }],
    });
    expect(await badOrder.json()).toEqual({ error: "orders[0].line_items[0].quantity: must be at least 1" });

    const market = { id: 3, name: "UK", countries: ["gb"], currency: "gbp", product_ids: null, variant_prices: { "11": { price: "8.5" } } };
    expect((await postJson(t, "/admin/v1/merchants/ingest/markets", market)).status).toBe(200);
    expect(store().catalogue.marketsOf(shop.id)[0]).toMatchObject({ countries: ["GB"], currency: "GBP", active: true });
    expect(store().catalogue.marketPrice(shop.id, 3, 11)).toEqual({ price: "8.50", compare_at_price: null });
    // A market replaces its price list as a whole.
    await postJson(t, "/admin/v1/merchants/ingest/markets", { ...market, variant_prices: { "12": { price: "9" } } });
    expect(store().catalogue.marketPrice(shop.id, 3, 11)).toBeUndefined();
    expect(store().catalogue.marketPrice(shop.id, 3, 12)).toEqual({ price: "9.00", compare_at_price: null });

    expect((await t.admin("/admin/v1/merchants/ingest/collections/7", { method: "DELETE" })).status).toBe(200);
    expect(store().catalogue.collection(shop.id, 7)).toBeUndefined();
    expect((await t.admin("/admin/v1/merchants/ingest/products/4", { method: "DELETE" })).status).toBe(200);
    expect((await t.admin("/admin/v1/merchants/ingest/products/4", { method: "DELETE" })).status).toBe(404);
    expect(store().catalogue.productIdByHandle(shop.id, "product-4")).toBeUndefined();
    expect(await staticIds("ids=3,4")).toEqual([3]);
  });
});

describe("webhooks", () => {
  it("applies a signed products/update and the next request sees it", async () => {
    await staticIds("ids=2"); // warm the cache
    const res = await webhook("products/update", product(2, { title: "From webhook", variants: [variant({ id: 21, price: "7.25" })] }));
    expect(res.status).toBe(200);
    const body = (await (await fetch(`${t.base}/api/v1/products/static?key=${shop.api_key}&ids=2`)).json()) as {
      data: { title: string; variants: { price: string }[] }[];
    };
    expect(body.data[0]).toMatchObject({ title: "From webhook", variants: [{ price: "7.25" }] });
  });

  it("refuses a bad signature with 401 and writes nothing", async () => {
    const res = await webhook("products/create", product(60), "not-the-secret");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Webhook signature does not match" });
    const unsigned = await fetch(`${t.base}/webhooks/${shop.id}`, {
      method: "POST",
      body: JSON.stringify(product(61)),
      headers: { "X-Platform-Topic": "products/create" },
    });
    expect(unsigned.status).toBe(401);
    expect(store().catalogue.product(shop.id, 60)).toBeUndefined();
    expect(store().catalogue.product(shop.id, 61)).toBeUndefined();
  });

  it("handles deletes, orders and collections, and names an unsupported topic or invalid payload", async () => {
    await webhook("products/create", product(62));
    expect((await webhook("products/delete", { id: 62 })).status).toBe(200);
    expect(store().catalogue.product(shop.id, 62)).toBeUndefined();
    expect((await webhook("products/delete", { id: 62 })).status).toBe(200);
    expect((await webhook("collections/create", { id: 8, title: "Hooks", product_ids: [1] })).status).toBe(200);
    expect(store().catalogue.collection(shop.id, 8)?.title).toBe("Hooks");
    const order = {
      id: 2001,
      created_at: "2026-03-02T12:00:00+00:00",
      customer: null,
      line_items: [{ product_id: 1, variant_id: 11, quantity: 1, price: "10.00" }],
      cancelled_at: null,
    };
    expect((await webhook("orders/create", order)).status).toBe(200);
    expect((await webhook("orders/cancelled", { ...order, cancelled_at: "2026-03-03T00:00:00+00:00" })).status).toBe(200);
    expect(store().orders.order(shop.id, 2001)?.cancelled_at).toBe("2026-03-03T00:00:00+00:00");
    const unknown = await webhook("carts/update", { id: 1 });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toMatch(/^Unsupported X-Platform-Topic "carts\/update"/);
    // Names every object has are no topics either: "toString" once deleted collection 8.
    for (const topic of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
      const inherited = await webhook(topic, { id: 8 });
      expect([inherited.status, ((await inherited.json()) as { error: string }).error], topic).toEqual([
        400,
        expect.stringMatching(/^Unsupported X-Platform-Topic/),
      ]);
    }
    expect(store().catalogue.collection(shop.id, 8)?.title).toBe("Hooks");
    const invalid = await webhook("products/update", { id: 63, title: "" });
    expect(await invalid.json()).toEqual({ error: "products[0].title: must not be empty" });
    // An unknown merchant is answered as a wrong signature is: merchant ids cannot be probed.
    const unknownMerchant = await webhook("products/update", product(64), shop.webhook_secret, "nobody");
    const wrongSignature = await webhook("products/update", product(64), "not-the-secret");
    expect([unknownMerchant.status, await unknownMerchant.json()]).toEqual([wrongSignature.status, await wrongSignature.json()]);
    expect(unknownMerchant.status).toBe(401);
  });
});
