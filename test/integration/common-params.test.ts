import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTimestamp } from "../../src/core/timestamps.js";
import { product, variant } from "../helpers/fixtures.js";
import { createTestMerchant, postJson, rankingsRefreshed, startTestService, type TestService } from "../helpers/service.js";

// The shared query layer through every ranked endpoint: the same parameters
// mean the same thing on trending, top sellers, recommended and viewed-related.
let t: TestService;
let key: string;
const uuid = randomUUID();

beforeAll(async () => {
  t = await startTestService();
  key = (await createTestMerchant(t, "common")).api_key;
  const metafields = (id: number) => [{ id: id * 1000, namespace: "reviews", key: "rating", value: "4.5", type: "rating" }];
  await postJson(t, "/admin/v1/merchants/common/products", [
    product(1, {
      metafields: metafields(1),
      variants: [
        variant({
          id: 11,
          price: "10.00",
          metafields: [{ id: 5011, namespace: "custom", key: "weight", value: "2", type: "number_integer" }],
        }),
      ],
    }),
    product(2, { metafields: metafields(2), variants: [variant({ id: 21, price: "20.00" })] }),
    product(3, { variants: [variant({ id: 31, price: "30.00", inventory_quantity: 0 })] }),
  ]);
  await postJson(t, "/admin/v1/merchants/common/markets", {
    id: 1,
    name: "CA",
    countries: ["CA"],
    currency: "CAD",
    product_ids: [1, 3],
    variant_prices: { "11": { price: "13.50" } },
  });
  const at = formatTimestamp(new Date(Date.now() - 86_400_000));
  const line = (id: number) => ({ product_id: id, variant_id: id * 10 + 1, quantity: 1, price: "1.00" });
  await postJson(
    t,
    "/admin/v1/merchants/common/orders",
    [1, 2, 3, 4, 5].map((n) => ({ id: n, created_at: at, customer: null, line_items: [line(1), line(2), line(3)], cancelled_at: null })),
  );
  const params = new URLSearchParams({ key, verb: "viewed", uuid, platform_product_handle: "product-2" });
  await fetch(`${t.base}/api/v1/analytics/event?${params}`, { method: "POST" });
  // Trending and top sellers read the rankings the applier thread stores.
  await rankingsRefreshed(t, "common");
});
afterAll(() => t.stop());

const ENDPOINTS = ["trending_products", "top_sellers", "recommended?platform_product_ids=2", "viewed-related?uuid=" + uuid];

async function list(endpoint: string, query: string): Promise<{ text: string; body: any }> {
  const separator = endpoint.includes("?") ? "&" : "?";
  const res = await fetch(`${t.base}/api/v1/products/${endpoint}${separator}key=${key}&${query}`);
  const text = await res.text();
  expect(res.status, `${endpoint} ${query}: ${text}`).toBe(200);
  return { text, body: JSON.parse(text) };
}
const ids = (body: any): number[] => body.data.map((p: { id: number }) => p.id).sort();

describe.each(ENDPOINTS)("%s", (endpoint) => {
  it("filters out-of-stock products unless filter_oos=no (not on viewed-related, which has no filter_oos)", async () => {
    expect(ids((await list(endpoint, "")).body)).not.toContain(3);
    if (!endpoint.startsWith("viewed-related")) expect(ids((await list(endpoint, "filter_oos=no")).body)).toContain(3);
  });

  it("prices and restricts by country_code", async () => {
    const { body } = await list(endpoint, "country_code=CA&filter_oos=no");
    expect(ids(body).every((id) => id === 1 || id === 3)).toBe(true);
    const one = body.data.find((p: any) => p.id === 1);
    if (one) expect(one.variants[0].price).toBe("13.50");
  });

  it("adds product and variant metafields when asked", async () => {
    const { body } = await list(endpoint, "metafield_ns=reviews&variant_metafield_ns_key=custom.weight");
    const one = body.data.find((p: any) => p.id === 1) ?? body.data[0];
    expect(one.metafields.every((m: any) => m.namespace === "reviews")).toBe(true);
    expect(Array.isArray(one.variants[0].metafields)).toBe(true);
    if (one.id === 1) expect(one.variants[0].metafields[0]).toMatchObject({ key: "weight", value: "2" });
  });

  it("formats with format=pretty and caps with limit", async () => {
    const { text, body } = await list(endpoint, "format=pretty&limit=1");
    expect(text).toContain('\n  "data": [');
    expect(body.data).toHaveLength(1);
  });
});

describe("variant_metafields=yes", () => {
  it("adds every variant metafield on the endpoints that take it", async () => {
    for (const endpoint of ["trending_products", "top_sellers", "recommended?platform_product_ids=2"]) {
      const one = (await list(endpoint, "variant_metafields=yes")).body.data.find((p: any) => p.id === 1);
      expect(one.variants[0].metafields).toEqual([expect.objectContaining({ namespace: "custom", key: "weight" })]);
    }
  });
});
