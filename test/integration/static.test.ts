import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { product, PRODUCT_LEADING_FIELDS, variant } from "../helpers/fixtures.js";
import { createTestMerchant, createTestShop, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let key: string;

const rating = (id: number, value: string) => ({ id, namespace: "reviews", key: "rating", value, type: "rating" });

beforeAll(async () => {
  t = await startTestService();
  const products = [
    product(1, {
      metafields: [rating(9001, "4.5"), { id: 9002, namespace: "custom", key: "care", value: "hand wash", type: "single_line_text_field" }],
      variants: [
        variant({
          id: 11,
          price: "19.99",
          compare_at_price: "24.00",
          metafields: [{ id: 9003, namespace: "custom", key: "fabric_weight", value: "220", type: "number_integer" }],
          selling_plan_allocations: [{ selling_plan_id: 5 }],
        }),
        variant({ id: 12, price: "21.50", option1: "Large" }),
      ],
    }),
    product(2),
    product(3, { variants: [variant({ id: 31, inventory_quantity: 0 })] }), // out of stock
    product(4, { variants: [variant({ id: 41, inventory_quantity: 0, inventory_policy: "continue" })] }), // oversell
    product(5, { variants: [variant({ id: 51, inventory_quantity: 0, inventory_management: null })] }), // untracked
    product(6, { published_at: null }), // unpublished
    product(7, { status: "draft" }),
    ...[8, 9, 10, 11, 12, 13].map((id) => product(id)),
  ];
  const shop = await createTestShop(t, "shop", {
    products,
    collections: [{ id: 500, title: "Mugs", product_ids: [13, 12, 3, 2] }],
    markets: [
      {
        id: 1,
        name: "Canada (paused)",
        active: false,
        countries: ["CA"],
        currency: "CAD",
        product_ids: null,
        variant_prices: { "11": { price: "1.00" } },
      },
      {
        id: 2,
        name: "Canada",
        active: true,
        countries: ["CA"],
        currency: "CAD",
        product_ids: [1, 2],
        variant_prices: { "11": { price: "26.99", compare_at_price: "31.00" } },
      },
    ],
  });
  key = shop.api_key;
});

afterAll(() => t.stop());

async function get(query: string): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const res = await fetch(`${t.base}/api/v1/products/static?key=${key}&${query}`);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), headers: res.headers, text };
}

const ids = (body: { data: { id: number }[] }) => body.data.map((p) => p.id);

describe("GET /api/v1/products/static", () => {
  it("returns every field of the spec's Product, Variant, Option and Image with the right types", async () => {
    const { status, body } = await get("ids=1");
    expect(status).toBe(200);
    const [p] = body.data;
    expect(Object.keys(p)).toEqual([
      ...PRODUCT_LEADING_FIELDS,
      "created_at",
      "updated_at",
      "published_at",
      "template_suffix",
      "published_scope",
      "admin_graphql_api_id",
      "variants",
      "options",
      "images",
      "image",
    ]);
    expect(p).toMatchObject({
      id: 1,
      tags: "ceramic, kitchen",
      status: "active",
      published_scope: "web",
      admin_graphql_api_id: "gid://platform/Product/1",
      created_at: "2026-01-02T10:00:00-05:00",
    });
    const v = p.variants[0];
    expect(Object.keys(v).sort()).toEqual([
      "admin_graphql_api_id",
      "barcode",
      "compare_at_price",
      "created_at",
      "fulfillment_service",
      "grams",
      "id",
      "image_id",
      "inventory_item_id",
      "inventory_management",
      "inventory_policy",
      "inventory_quantity",
      "old_inventory_quantity",
      "option1",
      "option2",
      "option3",
      "position",
      "price",
      "product_id",
      "requires_shipping",
      "sku",
      "taxable",
      "title",
      "updated_at",
      "weight",
      "weight_unit",
    ]);
    expect(v).toMatchObject({
      id: 11,
      product_id: 1,
      price: "19.99",
      compare_at_price: "24.00",
      position: 1,
      admin_graphql_api_id: "gid://platform/ProductVariant/11",
    });
    expect(p.variants[1]).toMatchObject({ price: "21.50", position: 2, compare_at_price: null });
    expect(p.options[0]).toEqual({ id: 10, product_id: 1, name: "Title", position: 1, values: ["Default Title"] });
    expect(p.images[0]).toMatchObject({
      id: 100,
      product_id: 1,
      position: 1,
      width: 800,
      height: 600,
      src: "https://cdn.example.com/1.jpg",
      variant_ids: [],
      admin_graphql_api_id: "gid://platform/ProductImage/100",
    });
    expect(p.image).toEqual(p.images[0]);
    expect(p).not.toHaveProperty("metafields");
  });

  it("keeps the order of ids, then handles, then the collection, without duplicates", async () => {
    expect(ids((await get("ids=9,2,8&limit=10")).body)).toEqual([9, 2, 8]);
    expect(ids((await get("handles=product-10,product-2")).body)).toEqual([10, 2]);
    expect(ids((await get("ids=9&handles=product-8,product-9&platform_collection_id=500&limit=10")).body)).toEqual([9, 8, 13, 12, 2]);
  });

  it("uses platform_product_ids as the selection when nothing else is given, and as a restriction otherwise", async () => {
    expect(ids((await get("platform_product_ids=8,9")).body)).toEqual([8, 9]);
    expect(ids((await get("platform_collection_id=500&platform_product_ids=2,12")).body)).toEqual([12, 2]);
  });

  it("leaves out excluded_ids and unknown ids", async () => {
    expect(ids((await get("ids=8,9,10,999&excluded_ids=9")).body)).toEqual([8, 10]);
  });

  it("filters out-of-stock products by default with the one availability rule, and keeps them with filter_oos=no", async () => {
    expect(ids((await get("ids=3,4,5")).body)).toEqual([4, 5]);
    expect(ids((await get("ids=3,4,5&filter_oos=no")).body)).toEqual([3, 4, 5]);
  });

  it("excludes unpublished products only with filter_unpublished=yes", async () => {
    expect(ids((await get("ids=6,7,8")).body)).toEqual([6, 7, 8]);
    expect(ids((await get("ids=6,7,8&filter_unpublished=yes")).body)).toEqual([8]);
    expect((await get("ids=6")).body.data[0].published_at).toBeNull();
  });

  it("applies limit after filtering, defaults to 5 and refuses bad values", async () => {
    expect(ids((await get("ids=3,8,9,10,11,12,13")).body)).toEqual([8, 9, 10, 11, 12]);
    expect(ids((await get("ids=3,8,9,10&limit=2")).body)).toEqual([8, 9]);
    for (const bad of ["0", "51", "abc", "-1", "2.5"]) {
      const res = await get(`ids=8&limit=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^Invalid limit/);
    }
  });

  it("returns product metafields with metafields=yes, or the selected ones by namespace or namespace.key", async () => {
    const all = (await get("ids=1&metafields=yes")).body.data[0];
    expect(all.metafields.map((m: any) => `${m.namespace}.${m.key}`)).toEqual(["reviews.rating", "custom.care"]);
    expect(all.metafields[0]).toMatchObject({ id: 9001, value: "4.5", type: "rating", owner_id: 1, owner_resource: "product" });
    expect(all.variants[0]).not.toHaveProperty("metafields");
    const byKey = (await get("ids=1&metafield_ns_key=custom.care")).body.data[0];
    expect(byKey.metafields.map((m: any) => m.key)).toEqual(["care"]);
    const byNs = (await get("ids=1&metafield_ns=reviews")).body.data[0];
    expect(byNs.metafields.map((m: any) => m.key)).toEqual(["rating"]);
  });

  it("returns variant metafields selected by variant_metafield_ns_key or variant_metafield_ns", async () => {
    const byKey = (await get("ids=1&variant_metafield_ns_key=custom.fabric_weight")).body.data[0];
    expect(byKey.variants[0].metafields).toEqual([
      expect.objectContaining({ key: "fabric_weight", value: "220", owner_id: 11, owner_resource: "variant" }),
    ]);
    expect(byKey.variants[1].metafields).toEqual([]);
    expect(byKey).not.toHaveProperty("metafields");
    const byNs = (await get("ids=1&variant_metafield_ns=custom")).body.data[0];
    expect(byNs.variants[0].metafields).toHaveLength(1);
    expect((await get("ids=1&metafield_ns_key=nodot")).status).toBe(400);
  });

  it("adds selling_plan_allocations to variants only with selling_plans=yes", async () => {
    expect((await get("ids=1")).body.data[0].variants[0]).not.toHaveProperty("selling_plan_allocations");
    const withPlans = (await get("ids=1&selling_plans=yes")).body.data[0];
    expect(withPlans.variants[0].selling_plan_allocations).toEqual([{ selling_plan_id: 5 }]);
    expect(withPlans.variants[1].selling_plan_allocations).toEqual([]);
  });

  it("prices and restricts by the first active market of country_code; an unmatched code changes nothing", async () => {
    const ca = (await get("ids=1,2,8&country_code=ca")).body;
    expect(ids(ca)).toEqual([1, 2]);
    expect(ca.data[0].variants[0]).toMatchObject({ price: "26.99", compare_at_price: "31.00" });
    expect(ca.data[0].variants[1].price).toBe("21.50");
    const fr = (await get("ids=1,2,8&country_code=FR")).body;
    expect(ids(fr)).toEqual([1, 2, 8]);
    expect(fr.data[0].variants[0].price).toBe("19.99");
    expect((await get("ids=1&country_code=CAN")).status).toBe(400);
  });

  it("formats with format=pretty", async () => {
    const { text, body } = await get("ids=2&format=pretty");
    expect(text).toContain('\n  "data": [');
    expect(ids(body)).toEqual([2]);
    expect((await get("ids=2&format=ugly")).status).toBe(400);
  });

  it("serves repeats from the cache, recomputes with bust_cache=yes, and sees catalogue changes at once", async () => {
    const first = await get("ids=12&limit=1");
    const again = await get("ids=12&limit=1");
    expect(again.text).toBe(first.text);
    const hitsBefore = t.service.services.cache.hits;
    await get("ids=12&limit=1");
    expect(t.service.services.cache.hits).toBe(hitsBefore + 1);
    await get("ids=12&limit=1&bust_cache=yes");
    expect(t.service.services.cache.hits).toBe(hitsBefore + 1);

    await postJson(
      t,
      "/admin/v1/merchants/shop/products",
      product(12, { title: "Renamed", variants: [variant({ id: 121, price: "99.00" })] }),
    );
    const after = (await get("ids=12&limit=1")).body.data[0];
    expect(after).toMatchObject({ title: "Renamed" });
    expect(after.variants[0].price).toBe("99.00");
  });

  it("answers 400 naming the problem for bad ids, a missing selection, and a missing or wrong key", async () => {
    expect((await get("ids=1,abc")).body).toEqual({ error: 'Invalid ids: "abc" is not an id' });
    expect((await get("handles=bad%20handle")).status).toBe(400);
    expect((await get("platform_collection_id=x")).status).toBe(400);
    expect((await get("limit=3")).body.error).toMatch(/^Missing required args/);
    const wrong = await fetch(`${t.base}/api/v1/products/static?key=nope&ids=1`);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "Invalid key" });
    const missing = await fetch(`${t.base}/api/v1/products/static?ids=1`);
    expect(await missing.json()).toEqual({ error: "Missing required endpoint arg: key" });
  });

  it("never shows one merchant's products to another merchant's key", async () => {
    const other = await createTestMerchant(t, "other");
    await postJson(t, "/admin/v1/merchants/other/products", [product(100, { handle: "product-1" })]);
    const res = await fetch(`${t.base}/api/v1/products/static?key=${other.api_key}&ids=1,2,100&handles=product-1`);
    expect(ids((await res.json()) as any)).toEqual([100]);
    expect(ids((await get("ids=100,1&handles=product-1")).body)).toEqual([1]);
  });
});
