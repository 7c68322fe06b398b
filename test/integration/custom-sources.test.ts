// Custom sources over HTTP: the admin API, every operator and RETURN kind, pins,
// boosts, exclusions, the fallback, the cache following rule changes, bad
// input and tenancy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTimestamp } from "../../src/core/timestamps.js";
import { product, variant } from "../helpers/fixtures.js";
import { createTestMerchant, eventsApplied, postJson, rankingsRefreshed, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let shop: { id: string; api_key: string };
let other: { id: string; api_key: string };

interface Answer {
  data: { id: number }[];
  metadata: { rules_matched: number[]; sources: Record<string, number | string>; warnings?: string[] };
}

const dayAgo = () => formatTimestamp(new Date(Date.now() - 86_400_000));
const order = (id: number, productIds: number[], customer: number | null = null) => ({
  id,
  created_at: dayAgo(),
  customer: customer === null ? null : { id: customer },
  line_items: productIds.map((productId) => ({ product_id: productId, variant_id: productId * 10 + 1, quantity: 1, price: "10.00" })),
  cancelled_at: null,
});

// 1 a T-shirt; 2, 3 hoodies; 4, 8 mugs of another vendor; 5 tagged exclude_service, 6 unpublished, 7 out of stock (all hoodies).
beforeAll(async () => {
  t = await startTestService();
  shop = await createTestMerchant(t, "rules");
  other = await createTestMerchant(t, "others");
  const hoodie = { product_type: "Hoodie", tags: "warm" };
  const products = [
    product(1, { title: "Crew Tee", product_type: "T-Shirt", tags: "tee, cotton", variants: [variant({ id: 11, price: "20.00" })] }),
    product(2, { ...hoodie, title: "Zip Hoodie", variants: [variant({ id: 21, price: "50.00" })] }),
    product(3, { ...hoodie, title: "Trail Hoodie", tags: "warm, sale", variants: [variant({ id: 31, price: "45.00" })] }),
    product(4, { vendor: "Brew", tags: "kitchen", variants: [variant({ id: 41, price: "12.00" })] }),
    product(5, { ...hoodie, tags: "exclude_service" }),
    product(6, { ...hoodie, published_at: null }),
    product(7, { ...hoodie, variants: [variant({ id: 71, inventory_quantity: 0 })] }),
    product(8, { vendor: "Brew", tags: "kitchen, sale", variants: [variant({ id: 81, price: "25.00" })] }),
  ];
  for (const merchant of ["rules", "others"])
    expect((await postJson(t, `/admin/v1/merchants/${merchant}/products`, products)).status).toBe(200);
  await postJson(t, "/admin/v1/merchants/rules/collections", [
    { id: 90, title: "Kitchen", product_ids: [4, 8] },
    { id: 91, title: "Hoodies", product_ids: [2, 3] },
  ]);
  await postJson(t, "/admin/v1/merchants/rules/customers", {
    id: 500,
    email: "vip@example.com",
    tags: "vip",
    first_name: "V",
    last_name: "P",
  });
  // Product 8 sells best, then 3; customer 500 bought 4.
  const orders = [order(1, [8, 3]), order(2, [8]), order(3, [8, 3]), order(4, [4], 500)];
  expect((await postJson(t, "/admin/v1/merchants/rules/orders", orders)).status).toBe(200);
  await rankingsRefreshed(t, "rules");
}, 60_000);
afterAll(async () => {
  await t.stop();
});

const sourcePath = (merchant: string, id: string) => `/admin/v1/merchants/${merchant}/sources/${id}`;

async function putSource(id: string, body: Record<string, unknown>, merchant = "rules"): Promise<Response> {
  return t.admin(sourcePath(merchant, id), { method: "PUT", body: JSON.stringify({ name: id, ...body }) });
}

async function custom(id: string, query: string, key = shop.api_key): Promise<{ status: number; body: Answer }> {
  const res = await fetch(`${t.base}/api/v1/custom/id/${id}?key=${key}&${query}`);
  return { status: res.status, body: (await res.json()) as Answer };
}

/** The answer of a source made of these rules. */
async function answerOf(rules: unknown[], query = "", extra: Record<string, unknown> = {}): Promise<Answer> {
  expect((await putSource("probe", { rules, ...extra })).status).toBe(200);
  const { status, body } = await custom("probe", query);
  expect(status).toBe(200);
  return body;
}

const ids = (answer: Answer) => answer.data.map((p) => p.id);
const products = (...productIds: number[]) => ({ kind: "products", product_ids: productIds });
const when = (field: string, operator: string, values: unknown[]) => ({ conditions: [{ field, operator, values }] });

describe("the admin API", () => {
  it("creates, reads, lists, replaces and deletes a source", async () => {
    const created = await postJson(t, "/admin/v1/merchants/rules/sources", { id: "crud", name: "CRUD", rules: [{ return: products(1) }] });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { data: { id: string; rules: unknown[] }; metadata: { warnings: string[] } };
    expect(body.data.id).toBe("crud");
    expect(body.metadata.warnings).toEqual([]);
    expect((await postJson(t, "/admin/v1/merchants/rules/sources", { id: "crud", name: "again", rules: [] })).status).toBe(409);
    expect((await putSource("crud", { name: "Renamed", rules: [] })).status).toBe(200);
    const read = (await (await t.admin(sourcePath("rules", "crud"))).json()) as { data: { name: string } };
    expect(read.data.name).toBe("Renamed");
    const listed = (await (await t.admin("/admin/v1/merchants/rules/sources")).json()) as { data: { id: string }[] };
    expect(listed.data.map((s) => s.id)).toContain("crud");
    expect((await t.admin(sourcePath("rules", "crud"), { method: "DELETE" })).status).toBe(200);
    expect((await t.admin(sourcePath("rules", "crud"))).status).toBe(404);
    expect((await custom("crud", "")).status).toBe(404);
  });

  it("answers an invalid rule with a 400 naming the rule and the field, and writes nothing", async () => {
    expect((await putSource("strict", { rules: [{ return: products(1) }] })).status).toBe(200);
    const bad = [
      [{ return: products(2) }, { if: when("cart.subtotal", "contains_none", [1]), return: products(2) }],
      [{ return: products(2) }, { return: products(2) }, { if: when("product.tags", "greater_than", [3]), return: products(2) }],
      [{ return: { kind: "source", source: "bestsellers" } }],
      [{ return: products(2), pin: [{ product_id: 2, position: 0 }] }],
      [{ return: products(2), exit_if_match: true }],
    ];
    const expected = [
      "rules[1].if.conditions[0].operator",
      "rules[2].if.conditions[0].operator",
      "rules[0].return.source",
      "rules[0].pin[0].position",
      "rules[0].exit_if_match",
    ];
    for (const [i, rules] of bad.entries()) {
      const res = await putSource("strict", { rules });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain(expected[i]);
    }
    // Still the first version.
    expect(ids((await custom("strict", "")).body)).toEqual([1]);
  });

  it("accepts references the shop lacks and lists them as warnings", async () => {
    const res = await putSource("dangling", {
      rules: [{ return: products(1, 999) }, { return: { kind: "collection", collection_id: 998 } }],
    });
    const body = (await res.json()) as { metadata: { warnings: string[] } };
    expect(body.metadata.warnings).toEqual([
      "rules[0].return.product_ids[1]: no product 999",
      "rules[1].return.collection_id: no collection 998",
    ]);
    const answer = (await custom("dangling", "")).body;
    expect(ids(answer)).toEqual([1]);
    expect(answer.metadata.warnings).toEqual(body.metadata.warnings);
  });
});

describe("conditions", () => {
  const eight = [
    { if: when("product.tags", "equals", ["tee", "Cotton"]), return: products(1) },
    { if: when("product.vendor", "does_not_equal", ["acme"]), return: products(1) },
    { if: when("product.tags", "contains_any", ["cotton", "wool"]), return: products(1) },
    { if: when("product.tags", "contains_all", ["tee", "wool"]), return: products(1) },
    { if: when("product.product_type", "does_not_contain_any", ["hoodie"]), return: products(1) },
    { if: when("product.tags", "does_not_contain_all", ["tee", "cotton"]), return: products(1) },
    { if: when("product.price", "greater_than", ["15.00"]), return: products(1) },
    { if: when("product.price", "less_than", [15]), return: products(1) },
  ];

  it("holds each operator true in one context and false in another", async () => {
    expect((await answerOf(eight, "platform_product_ids=1")).metadata.rules_matched).toEqual([0, 2, 4, 6]);
    expect((await answerOf(eight, "platform_variant_ids=41")).metadata.rules_matched).toEqual([1, 4, 5, 7]);
  });

  it("reads the cart, the customer, the country, collections and titles", async () => {
    const rules = [
      { if: when("cart.product_type", "contains_any", ["t-shirt"]), return: products(2) },
      { if: when("cart.subtotal", "greater_than", ["60.00"]), return: products(2) },
      { if: when("cart.quantities", "greater_than", [2]), return: products(2) },
      { if: when("cart.variant_ids", "contains_any", [11]), return: products(2) },
      { if: when("customer.tags", "contains_any", ["vip"]), return: products(2) },
      { if: when("customer.orders_count", "greater_than", [0]), return: products(2) },
      { if: when("country_code", "equals", ["ca"]), return: products(2) },
      { if: when("product.collection_ids", "contains_any", [90]), return: products(2) },
      { if: when("product.title", "contains_any", ["hood"]), return: products(2) },
      {
        if: {
          join: "or",
          conditions: [when("cart.product_ids", "contains_any", [3]).conditions[0], when("country_code", "equals", ["us"]).conditions[0]],
        },
        return: products(2),
      },
    ];
    const full = await answerOf(
      rules,
      "cart_variant_ids=11,41&cart_quantities=3,1&platform_customer_id=500&country_code=CA&platform_product_ids=4,2",
    );
    expect(full.metadata.rules_matched).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const cart = encodeURIComponent(JSON.stringify({ items: [{ product_id: 3, quantity: 1 }] }));
    expect((await answerOf(rules, `cart=${cart}&country_code=DE`)).metadata.rules_matched).toEqual([9]);
    expect((await answerOf(rules, "")).metadata.rules_matched).toEqual([]);
  });

  it("stops at a matched rule with exit_if_matched", async () => {
    const answer = await answerOf([{ return: products(1) }, { return: products(2), exit_if_matched: true }, { return: products(3) }]);
    expect(answer.metadata.rules_matched).toEqual([0, 1]);
    expect(ids(answer)).toEqual([1, 2]);
  });
});

describe("RETURN kinds", () => {
  it("returns given products, a collection's, tags, vendors, types, the inputs and nothing, through the common filters", async () => {
    expect(ids(await answerOf([{ return: products(6, 5, 7, 4, 2) }]))).toEqual([4, 2]);
    expect(ids(await answerOf([{ return: { kind: "collection", collection_id: 91 } }]))).toEqual([2, 3]);
    // Best sellers first, then the rest.
    expect(ids(await answerOf([{ return: { kind: "tags", tags: ["sale"] } }]))).toEqual([8, 3]);
    expect(ids(await answerOf([{ return: { kind: "vendors", vendors: ["brew"] } }]))).toEqual([8, 4]);
    expect(ids(await answerOf([{ return: { kind: "product_types", product_types: ["hoodie"] } }]))).toEqual([3, 2]);
    expect(ids(await answerOf([{ return: { kind: "input_products" } }], "platform_product_ids=4,1"))).toEqual([4, 1]);
    expect(ids(await answerOf([{ return: { kind: "nothing" } }]))).toEqual([]);
    expect(ids(await answerOf([{ return: products(2, 4) }], "any_variant_price_less_than=30.00"))).toEqual([4]);
  });

  it("returns the built-in sources as their endpoints rank them", async () => {
    const builtIn = (source: string, context?: string) => [{ return: { kind: "source", source, ...(context ? { context } : {}) } }];
    expect(ids(await answerOf(builtIn("top_sellers"), "limit=2"))).toEqual([8, 3]);
    expect(ids(await answerOf(builtIn("trending"), "limit=3")).length).toBe(3);
    const recommended = await answerOf(builtIn("recommended"), "platform_product_ids=8&limit=1");
    expect(ids(recommended)).toEqual([3]);
    for (const similar of [builtIn("similar"), builtIn("recommended", "similar")]) {
      const answer = await answerOf(similar, "platform_product_ids=2&limit=3");
      expect(ids(answer)).not.toContain(2);
      expect(ids(answer).length).toBe(3);
    }
    expect(ids(await answerOf(builtIn("purchased"), "platform_customer_id=500"))).toEqual([4]);
    expect(ids(await answerOf(builtIn("purchased"), ""))).toEqual([]);
    const uuid = "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e";
    const event = await fetch(
      `${t.base}/api/v1/analytics/event?key=${shop.api_key}&uuid=${uuid}&verb=viewed&platform_product_handle=product-3`,
      {
        method: "POST",
      },
    );
    expect(event.status).toBe(200);
    await eventsApplied(t, "rules");
    expect(ids(await answerOf(builtIn("viewed"), `uuid=${uuid}`))).toEqual([3]);
    const related = await answerOf(builtIn("viewed_related"), `uuid=${uuid}&limit=3`);
    expect(ids(related)).not.toContain(3);
    expect(ids(related).length).toBe(3);
  });
});

describe("arranging the answer", () => {
  it("pins products at their places, fills the rest in rule order and says where each came from", async () => {
    const answer = await answerOf([
      { return: products(2, 3), pin: [{ product_id: 8, position: 2 }] },
      {
        return: products(4, 1),
        pin: [
          { product_id: 1, position: 1 },
          { product_id: 4, position: 2 },
        ],
      },
    ]);
    expect(ids(answer)).toEqual([1, 8, 2, 3, 4]);
    expect(answer.metadata.sources).toEqual({ "1": 1, "8": 0, "2": 0, "3": 0, "4": 1 });
  });

  it("boosts and buries within a rule, and excludes products and collections from the whole answer", async () => {
    const boosted = await answerOf([{ return: products(4, 2, 8, 3), boost: { tags: ["sale"] }, bury: { collection_ids: [90] } }]);
    // 8 is both boosted (sale) and buried (collection 90): it stays among the unmarked.
    expect(ids(boosted)).toEqual([3, 2, 8, 4]);
    const excluded = await answerOf([
      { return: products(4, 2, 8, 3) },
      { return: products(1), exclude: { product_ids: [2], collection_ids: [90] } },
    ]);
    expect(ids(excluded)).toEqual([3, 1]);
  });

  it("falls back to the stated built-in source when the rules fill nothing", async () => {
    const answer = await answerOf([{ if: when("country_code", "equals", ["jp"]), return: products(1) }], "limit=2", {
      fallback: "top_sellers",
    });
    expect(ids(answer)).toEqual([8, 3]);
    expect(answer.metadata.sources).toEqual({ "8": "top_sellers", "3": "top_sellers" });
    expect(ids(await answerOf([{ return: products(6) }], "limit=2"))).toEqual([]);
  });
});

describe("caching and tenancy", () => {
  it("answers a rule change on the next request", async () => {
    expect((await putSource("cached", { rules: [{ return: products(1) }] })).status).toBe(200);
    expect(ids((await custom("cached", "")).body)).toEqual([1]);
    const again = await fetch(`${t.base}/api/v1/custom/id/cached?key=${shop.api_key}&`);
    expect(again.headers.get("age")).not.toBeNull();
    expect(ids((await again.json()) as Answer)).toEqual([1]);
    expect((await putSource("cached", { rules: [{ return: products(2) }] })).status).toBe(200);
    expect(ids((await custom("cached", "")).body)).toEqual([2]);
  });

  it("keeps two merchants' sources of one id apart", async () => {
    expect((await putSource("same", { rules: [{ return: products(1) }] }, "rules")).status).toBe(200);
    expect((await putSource("same", { rules: [{ return: products(4) }] }, "others")).status).toBe(200);
    expect(ids((await custom("same", "")).body)).toEqual([1]);
    expect(ids((await custom("same", "", other.api_key)).body)).toEqual([4]);
    expect((await putSource("only-mine", { rules: [{ return: products(1) }] }, "rules")).status).toBe(200);
    expect((await custom("only-mine", "", other.api_key)).status).toBe(404);
    expect((await t.admin(sourcePath("others", "only-mine"))).status).toBe(404);
  });

  it("lists the key's merchant's sources in /api/v1/sources, and only built-ins without a key", async () => {
    const listed = async (query: string) =>
      ((await (await fetch(`${t.base}/api/v1/sources${query}`)).json()) as { data: { path: string; query: { name: string }[] }[] }).data;
    const mine = await listed(`?key=${shop.api_key}`);
    const same = mine.find((source) => source.path === "/api/v1/custom/id/same");
    expect(same?.query.map((p) => p.name)).toContain("cart_variant_ids");
    expect(mine.some((source) => source.path === "/api/v1/custom/id/only-mine")).toBe(true);
    expect((await listed(`?key=${other.api_key}`)).some((source) => source.path === "/api/v1/custom/id/only-mine")).toBe(false);
    expect((await listed("")).some((source) => source.path.startsWith("/api/v1/custom/"))).toBe(false);
  });
});
