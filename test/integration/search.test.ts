import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "../../src/ingest/webhook.js";
import { product, variant } from "../helpers/fixtures.js";
import { createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let shop: { id: string; api_key: string; webhook_secret: string };
let other: { id: string; api_key: string; webhook_secret: string };

const PATH = "/api/v1/smart-search/search/quick-view";
const reviews = (id: number, rating: string, count: string) => [
  { id, namespace: "reviews", key: "rating", value: rating, type: "rating" },
  { id: id + 1, namespace: "reviews", key: "rating_count", value: count, type: "number_integer" },
];

beforeAll(async () => {
  t = await startTestService();
  shop = await createTestMerchant(t, "shop", "shop.example.com");
  other = await createTestMerchant(t, "other", "other.example.com");
  const products = [
    product(1, {
      title: "Ember LED Lantern",
      handle: "ember-led-lantern",
      product_type: "Lighting",
      metafields: reviews(9001, JSON.stringify({ value: "4.6", scale_min: "1.0", scale_max: "5.0" }), "37"),
      variants: [
        variant({ id: 11, price: "19.99", compare_at_price: "24.00", sku: "EMB-LAN-01", option1: "Black" }),
        variant({ id: 12, price: "21.50", sku: "EMB-LAN-02", option1: "Olive", inventory_quantity: 0 }),
      ],
      images: [
        { id: 100, src: "https://cdn.example.com/lantern.jpg", width: 800, height: 600, alt: "Lantern, lit" },
        { id: 101, src: "https://cdn.example.com/lantern-olive.jpg", width: 800, height: 600, alt: null, variant_ids: [12] },
      ],
    }),
    product(2, {
      title: "Brass Camp Lantern",
      handle: "brass-camp-lantern",
      variants: [variant({ id: 21, price: "45.00", sku: "BRS-9" })],
    }),
    product(3, { title: "Harbor Soy Candle", handle: "harbor-soy-candle", variants: [variant({ id: 31, price: "9.99" })] }),
    product(4, {
      title: "Stoneware Coffee Mug",
      handle: "stoneware-coffee-mug",
      variants: [variant({ id: 41, price: "14.00", barcode: "0123456789012" })],
    }),
    product(5, { title: "Ceramic Coffee Mug", handle: "ceramic-coffee-mug", variants: [variant({ id: 51, price: "12.00" })] }),
    product(6, { title: "Lantern Wick Kit", handle: "lantern-wick-kit", variants: [variant({ id: 61, inventory_quantity: 0 })] }), // out of stock
    product(7, { title: "18 in. Steel Tent Stake", handle: "steel-stake-18", variants: [variant({ id: 71 })] }),
    product(8, { title: "16 in. Aluminum Tent Stake", handle: "alu-stake-16", variants: [variant({ id: 81 })] }),
    product(9, { title: "Draft Lantern", handle: "draft-lantern", status: "draft", variants: [variant({ id: 91 })] }),
  ];
  expect((await postJson(t, `/admin/v1/merchants/${shop.id}/products`, products)).status).toBe(200);
  await postJson(t, `/admin/v1/merchants/${shop.id}/collections`, [
    { id: 500, title: "Lanterns", handle: "lanterns", product_ids: [1, 2, 6] },
    { id: 501, title: "Kitchen Mugs", handle: "kitchen-mugs", product_ids: [4, 5] },
    { id: 502, title: "Lantern Clearance", handle: "lantern-clearance", product_ids: [2] },
  ]);
  await postJson(t, `/admin/v1/merchants/${shop.id}/markets`, [
    {
      id: 1,
      name: "Canada",
      active: true,
      countries: ["CA"],
      currency: "CAD",
      product_ids: [1, 3],
      variant_prices: { "11": { price: "26.99", compare_at_price: "31.00" } },
    },
  ]);
  // Another shop selling a lantern too, with the same product id and SKU.
  await postJson(t, `/admin/v1/merchants/${other.id}/products`, [
    product(1, { title: "Secret Other Lantern", handle: "secret-lantern", variants: [variant({ id: 11, sku: "EMB-LAN-01" })] }),
    product(1001, { title: "Other Shop Candle", handle: "other-candle", variants: [variant({ id: 10011 })] }),
  ]);
});

afterAll(() => t.stop());

interface SearchResponse {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

async function search(body: unknown, options: { key?: string | null; query?: string; header?: boolean } = {}): Promise<SearchResponse> {
  const key = options.key === undefined ? shop.api_key : options.key;
  const params = new URLSearchParams(options.query ?? "");
  if (key !== null && !options.header) params.set("Service-Api-Key", key);
  const res = await fetch(`${t.base}${PATH}?${params}`, {
    method: "POST",
    headers: options.header && key !== null ? { "Service-Api-Key": key } : {},
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text, headers: res.headers };
}

const names = (res: SearchResponse): string[] => res.body.data.productSuggestions.map((s: { name: string }) => s.name);
const ids = (res: SearchResponse): string[] => res.body.data.productSuggestions.map((s: { id: string }) => s.id);

function webhook(topic: string, body: unknown): Promise<Response> {
  const raw = JSON.stringify(body);
  return fetch(`${t.base}/webhooks/${shop.id}`, {
    method: "POST",
    body: raw,
    headers: {
      "X-Platform-Topic": topic,
      "X-Platform-Hmac-Sha256": signWebhook(shop.webhook_secret, raw),
      "Content-Type": "application/json",
    },
  });
}

describe("POST /api/v1/smart-search/search/quick-view", () => {
  it("answers the spec's result shape, with suggestion and variant fields typed as the spec says", async () => {
    const res = await search({ query: "ember lantern" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["successful", "data", "status", "errorMessage"]);
    expect(res.body).toMatchObject({ successful: true, status: 200, errorMessage: null, data: { query: "ember lantern" } });
    const [first] = res.body.data.productSuggestions;
    expect(first).toEqual({
      id: "1",
      name: "Ember LED Lantern",
      url: "https://shop.example.com/products/ember-led-lantern",
      price: 19.99,
      compareAtPrice: 24,
      images: [
        { alt: "Lantern, lit", url: "https://cdn.example.com/lantern.jpg" },
        { alt: "Ember LED Lantern", url: "https://cdn.example.com/lantern-olive.jpg" },
      ],
      variants: [
        {
          id: "11",
          name: "Black",
          url: "https://shop.example.com/products/ember-led-lantern?variant=11",
          price: 19.99,
          compareAtPrice: 24,
          images: [],
          canPurchase: true,
        },
        {
          id: "12",
          name: "Olive",
          url: "https://shop.example.com/products/ember-led-lantern?variant=12",
          price: 21.5,
          compareAtPrice: 0,
          images: [{ alt: "Ember LED Lantern", url: "https://cdn.example.com/lantern-olive.jpg" }],
          canPurchase: false,
        },
      ],
      canPurchase: true,
      ratings: { average: 4.6, count: 37 },
    });
  });

  it("echoes the query exactly, so a client can drop answers to older keystrokes", async () => {
    for (const query of ["  Ember  LANT", "ember lant ", "émber"]) {
      expect((await search({ query })).body.data.query).toBe(query);
    }
    // A cleared search box: no suggestions, not an error.
    const empty = await search({ query: "" });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({ productSuggestions: [], collections: [], query: "" });
  });

  it("ignores body fields it does not read, as /openapi.json says (every answer here is checked against it)", async () => {
    const plain = await search({ query: "ember lant" });
    const extra = await search({ query: "ember lant", source: "header-box", filters: { shown: "grid" }, exclude: { reason: 1 } });
    expect(extra.status).toBe(200);
    expect(ids(extra)).toEqual(ids(plain));
  });

  it("matches the last word as a prefix while the shopper types", async () => {
    expect(names(await search({ query: "lant" }))).toContain("Ember LED Lantern");
    expect(names(await search({ query: "ember la" }))[0]).toBe("Ember LED Lantern");
    expect(names(await search({ query: "stonew" }))[0]).toBe("Stoneware Coffee Mug");
  });

  it("forgives a typo in a word of four letters or more, but never in a number", async () => {
    expect(names(await search({ query: "lantren " }))).toContain("Brass Camp Lantern");
    expect(names(await search({ query: "candel " }))).toEqual(["Harbor Soy Candle"]);
    // Three letters: no edit is forgiven.
    expect(names(await search({ query: "mgu " }))).toEqual([]);
    // "17" is not "18" or "16": only the word "stake" matches, and both stakes rank on it alone.
    const stakes = await search({ query: "18 in stake" });
    expect(names(stakes)[0]).toBe("18 in. Steel Tent Stake");
    expect(names(await search({ query: "17 " }))).toEqual([]);
  });

  it("finds a product by its exact SKU or barcode first, and not by part of one", async () => {
    expect(ids(await search({ query: "emb-lan-02" }))[0]).toBe("1");
    expect(ids(await search({ query: "BRS-9" }))[0]).toBe("2");
    expect(ids(await search({ query: "0123456789012" }))).toEqual(["4"]);
    expect(ids(await search({ query: "0123456789" }))).toEqual([]);
    // The code's product is one of `limit`, not one more.
    for (const limit of [1, 2]) expect(ids(await search({ query: "emb-lan-02", limit })).length).toBeLessThanOrEqual(limit);
    expect(ids(await search({ query: "emb-lan-02", limit: 1 }))).toEqual(["1"]);
  });

  it("lists matching collections as {id, title, handle, url}", async () => {
    const res = await search({ query: "lantern" });
    expect(res.body.data.collections).toEqual([
      { id: "500", title: "Lanterns", handle: "lanterns", url: "https://shop.example.com/collections/lanterns" },
      { id: "502", title: "Lantern Clearance", handle: "lantern-clearance", url: "https://shop.example.com/collections/lantern-clearance" },
    ]);
    expect((await search({ query: "kitch" })).body.data.collections.map((c: { id: string }) => c.id)).toEqual(["501"]);
  });

  it("shows a collection's new title and handle once it is written again (workers keep headings per collections version)", async () => {
    const kitchen = async () => (await search({ query: "kitch" })).body.data.collections;
    expect(await kitchen()).toEqual([
      { id: "501", title: "Kitchen Mugs", handle: "kitchen-mugs", url: "https://shop.example.com/collections/kitchen-mugs" },
    ]);
    const write = (title: string, handle: string) =>
      postJson(t, `/admin/v1/merchants/${shop.id}/collections`, [{ id: 501, title, handle, product_ids: [4, 5] }]);
    expect((await write("Kitchen Cups", "kitchen-cups")).status).toBe(200);
    try {
      expect(await kitchen()).toEqual([
        { id: "501", title: "Kitchen Cups", handle: "kitchen-cups", url: "https://shop.example.com/collections/kitchen-cups" },
      ]);
    } finally {
      await write("Kitchen Mugs", "kitchen-mugs");
    }
  });

  it("restricts to filters.collections and leaves out exclude.productIds and exclude.collections", async () => {
    expect(ids(await search({ query: "mug", filters: { collections: [501] } })).sort()).toEqual(["4", "5"]);
    expect(ids(await search({ query: "lantern", filters: { collections: [501] } }))).toEqual([]);
    expect(ids(await search({ query: "lantern", exclude: { productIds: [1] } }))).not.toContain("1");
    const hidden = await search({ query: "lantern", exclude: { collections: [{ collectionId: 502, hideProducts: true }] } });
    expect(ids(hidden)).not.toContain("2");
    expect(hidden.body.data.collections.map((c: { id: string }) => c.id)).toEqual(["500"]);
    const shown = await search({ query: "lantern", exclude: { collections: [{ collectionId: 502 }] } });
    expect(ids(shown)).toContain("2");
    expect(shown.body.data.collections.map((c: { id: string }) => c.id)).toEqual(["500"]);
  });

  it("ranks out-of-stock products after every available one, or hides them with filters.hideOutOfStock", async () => {
    const all = ids(await search({ query: "lantern wick kit" }));
    expect(all).toContain("6");
    expect(all.at(-1)).toBe("6");
    expect(ids(await search({ query: "lantern wick kit", filters: { hideOutOfStock: true } }))).not.toContain("6");
  });

  it("never shows draft or unpublished products", async () => {
    expect(names(await search({ query: "draft lantern" }))).not.toContain("Draft Lantern");
  });

  it("prices suggestions for the market of country_code and keeps to its catalogue", async () => {
    const ca = await search({ query: "lantern", country_code: "CA" });
    expect(ids(ca)).toEqual(["1"]);
    expect(ca.body.data.productSuggestions[0]).toMatchObject({
      price: 26.99,
      compareAtPrice: 31,
      variants: [{ price: 26.99, compareAtPrice: 31 }, { price: 21.5 }],
    });
    const viaQueryString = await search({ query: "lantern" }, { query: "country_code=ca" });
    expect(ids(viaQueryString)).toEqual(["1"]);
  });

  it("never shows another merchant's products, whatever the query", async () => {
    for (const query of ["lantern", "secret", "other shop candle", "EMB-LAN-01"]) {
      const res = await search({ query, limit: 50 });
      expect(names(res).filter((name) => name.includes("Secret") || name.includes("Other Shop"))).toEqual([]);
    }
    const theirs = await search({ query: "lantern" }, { key: other.api_key });
    expect(names(theirs)).toEqual(["Secret Other Lantern"]);
    expect(theirs.body.data.collections).toEqual([]);
  });

  it("takes the key from a Service-Api-Key header and the query from the query string", async () => {
    const res = await search("", { header: true, query: "query=harbor&limit=1" });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["Harbor Soy Candle"]);
  });

  it("answers 10 suggestions by default and at most limit", async () => {
    await postJson(
      t,
      `/admin/v1/merchants/${shop.id}/products`,
      Array.from({ length: 12 }, (_, i) =>
        product(200 + i, { title: `Enamel Camp Cup ${i + 1}`, handle: `enamel-cup-${i + 1}`, variants: [variant({ id: 2000 + i })] }),
      ),
    );
    expect(ids(await search({ query: "enamel cup" }))).toHaveLength(10);
    expect(ids(await search({ query: "enamel cup", limit: 3 }))).toHaveLength(3);
  });

  it("answers 400 with an empty object for a bad request, naming the problem in X-Aisle-Error", async () => {
    const bad: [unknown, string | null, RegExp][] = [
      [{ query: "lantern" }, null, /Invalid key/],
      [{ query: "lantern" }, "wrong-key", /Invalid key/],
      ["{not json", shop.api_key, /JSON/],
      [{}, shop.api_key, /query is required/],
      [{ query: 5 }, shop.api_key, /query must be a string/],
      [{ query: "x".repeat(201) }, shop.api_key, /at most 200/],
      [{ query: "lantern", limit: 0 }, shop.api_key, /limit/],
      [{ query: "lantern", limit: 51 }, shop.api_key, /limit/],
      [{ query: "lantern", filters: { collections: ["abc"] } }, shop.api_key, /filters.collections\[0\]/],
      [{ query: "lantern", exclude: { collections: [{ hideProducts: true }] } }, shop.api_key, /collectionId/],
      [{ query: "lantern", filters: { hideOutOfStock: "yes" } }, shop.api_key, /hideOutOfStock/],
      [{ query: "lantern", country_code: "CAN" }, shop.api_key, /country_code/],
      [[1, 2], shop.api_key, /body must be an object/],
    ];
    for (const [body, key, message] of bad) {
      const res = await search(body, { key });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({});
      expect(res.headers.get("x-aisle-error")).toMatch(message);
    }
    expect((await fetch(`${t.base}${PATH}?Service-Api-Key=${shop.api_key}`, { method: "GET" })).status).toBe(405);
  });

  it("serves a repeated keystroke from the response cache", async () => {
    const first = await search({ query: "harbor so" });
    const hits = t.service.services.cache.hits;
    const again = await search({ query: "harbor so" });
    expect(again.text).toBe(first.text);
    expect(t.service.services.cache.hits).toBe(hits + 1);
  });

  it("updates the index from webhooks: created, renamed and deleted products and collections, at once", async () => {
    expect(names(await search({ query: "hammock" }))).toEqual([]);
    expect(
      (
        await webhook(
          "products/create",
          product(300, { title: "Ripstop Camp Hammock", handle: "ripstop-hammock", variants: [variant({ id: 3001, sku: "HAM-300" })] }),
        )
      ).status,
    ).toBe(200);
    expect(names(await search({ query: "hammock" }))).toEqual(["Ripstop Camp Hammock"]);
    expect(ids(await search({ query: "ham-300" }))).toEqual(["300"]);

    expect(
      (
        await webhook(
          "products/update",
          product(300, { title: "Ripstop Travel Swing", handle: "ripstop-hammock", variants: [variant({ id: 3001, sku: "SWG-300" })] }),
        )
      ).status,
    ).toBe(200);
    expect(names(await search({ query: "hammock" }))).toEqual([]);
    expect(names(await search({ query: "travel swing" }))).toEqual(["Ripstop Travel Swing"]);
    expect(ids(await search({ query: "ham-300" }))).toEqual([]);

    expect(
      (await webhook("collections/create", { id: 600, title: "Hammocks and Swings", handle: "hammocks", product_ids: [300] })).status,
    ).toBe(200);
    expect((await search({ query: "swings" })).body.data.collections.map((c: { id: string }) => c.id)).toEqual(["600"]);

    expect((await webhook("products/delete", { id: 300 })).status).toBe(200);
    expect((await webhook("collections/delete", { id: 600 })).status).toBe(200);
    const gone = await search({ query: "ripstop swings" });
    expect(names(gone)).toEqual([]);
    expect(gone.body.data.collections).toEqual([]);
  });

  it("is listed in /openapi.json with its parameters, its body and its key as query parameter or header", async () => {
    const doc = (await (await fetch(`${t.base}/openapi.json`)).json()) as any;
    const operation = doc.paths[PATH].post;
    expect(operation.security).toEqual([{ serviceApiKeyQuery: [] }, { serviceApiKeyHeader: [] }]);
    expect(operation.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/QuickViewRequest" });
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual([
      "query",
      "limit",
      "country_code",
      "presentment_prices",
      "format",
    ]);
  });
});
