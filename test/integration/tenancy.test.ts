// Two shops that share every client-chosen id — product ids, handles, variant
// ids, SKUs, collection, customer and order ids, session uuids — each see only
// their own data on every endpoint, and one shop's events cannot move a
// session to it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTimestamp } from "../../src/core/timestamps.js";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, eventsApplied, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
const keys: Record<string, string> = {};
const SHOPS = ["alpha", "beta"] as const;
const SHARED_UUID = randomUUID();
const ALPHA_ONLY_UUID = randomUUID();
const CUSTOMER = 7;

/** Every product of a shop is titled after it: an answer's titles say whose data it holds. */
const titled = (shop: string, id: number) => product(id, { title: `${shop} lamp ${id}`, tags: "lamp" });

beforeAll(async () => {
  t = await startTestService();
  for (const shop of SHOPS) {
    keys[shop] = (await createTestMerchant(t, shop)).api_key;
    await postJson(
      t,
      `/admin/v1/merchants/${shop}/products`,
      [1, 2, 3, 4].map((id) => titled(shop, id)),
    );
    await postJson(t, `/admin/v1/merchants/${shop}/collections`, [
      { id: 50, title: `${shop} lamps`, handle: "lamps", product_ids: [1, 2, 3, 4] },
    ]);
    await postJson(t, `/admin/v1/merchants/${shop}/customers`, [{ id: CUSTOMER, email: "same@example.com", first_name: shop }]);
    const when = formatTimestamp(new Date(Date.now() - 86_400_000));
    const lines = [1, 2].map((id) => ({ product_id: id, variant_id: id * 10 + 1, quantity: 1, price: "10.00" }));
    await postJson(t, `/admin/v1/merchants/${shop}/orders`, [
      { id: 900, created_at: when, customer: { id: CUSTOMER }, line_items: lines, cancelled_at: null },
    ]);
    const event = (uuid: string, handle: string) =>
      fetch(
        `${t.base}/api/v1/analytics/event?key=${keys[shop]}&uuid=${uuid}&platform_customer_id=${CUSTOMER}&verb=viewed&platform_product_handle=${handle}`,
        {
          method: "POST",
        },
      );
    expect((await event(SHARED_UUID, "product-1")).status).toBe(200);
    if (shop === "alpha") expect((await event(ALPHA_ONLY_UUID, "product-2")).status).toBe(200);
    await eventsApplied(t, shop);
  }
});
afterAll(() => t.stop());

async function titlesOf(path: string): Promise<string[]> {
  const res = await fetch(`${t.base}${path}`);
  expect(res.status, path).toBe(200);
  const body = (await res.json()) as { data: { title: string }[] };
  return body.data.map((item) => item.title);
}

describe("tenancy", () => {
  it("gives each key only its own shop's products on every product endpoint", async () => {
    for (const shop of SHOPS) {
      const other = shop === "alpha" ? "beta" : "alpha";
      const key = keys[shop];
      const paths = [
        `/api/v1/products/static?key=${key}&ids=1,2&handles=product-3`,
        `/api/v1/products/static?key=${key}&platform_collection_id=50`,
        `/api/v1/products/recommended?key=${key}&platform_product_ids=1`,
        `/api/v1/products/recommended?key=${key}&platform_variant_ids=11`,
        `/api/v1/products/similar_products?key=${key}&platform_product_ids=1`,
        `/api/v1/products/trending_products?key=${key}`,
        `/api/v1/products/top_sellers?key=${key}&platform_collection_id=50`,
        `/api/v1/products/viewed?key=${key}&uuid=${SHARED_UUID}`,
        `/api/v1/products/viewed?key=${key}&platform_customer_id=${CUSTOMER}`,
        `/api/v1/products/viewed-related?key=${key}&uuid=${SHARED_UUID}`,
        `/api/v1/products/purchased?key=${key}&platform_customer_id=${CUSTOMER}`,
      ];
      for (const path of paths) {
        const titles = await titlesOf(path);
        expect(titles.length, path).toBeGreaterThan(0);
        expect(
          titles.filter((title) => title.startsWith(other)),
          path,
        ).toEqual([]);
      }
    }
  });

  it("gives each key only its own customer record", async () => {
    for (const shop of SHOPS) {
      const res = await fetch(`${t.base}/api/v1/products/purchased?key=${keys[shop]}&platform_customer_id=${CUSTOMER}`);
      const body = (await res.json()) as { metadata: { platform_customer: { first_name: string } } };
      expect(body.metadata.platform_customer.first_name).toBe(shop);
    }
  });

  it("searches only the key's own catalogue and collections", async () => {
    for (const shop of SHOPS) {
      const res = await fetch(`${t.base}/api/v1/smart-search/search/quick-view?Service-Api-Key=${keys[shop]}`, {
        method: "POST",
        body: JSON.stringify({ query: "lamp" }),
      });
      const body = (await res.json()) as {
        data: { productSuggestions: { name: string; url: string }[]; collections: { title: string; url: string }[] };
      };
      expect(body.data.productSuggestions.length).toBeGreaterThan(0);
      expect(body.data.collections.length).toBeGreaterThan(0);
      const names = [...body.data.productSuggestions.map(({ name }) => name), ...body.data.collections.map(({ title }) => title)];
      for (const name of names) expect(name.startsWith(shop)).toBe(true);
      for (const { url } of [...body.data.productSuggestions, ...body.data.collections]) expect(url).toContain(`//${shop}.example.com/`);
    }
  });

  it("answers keyless viewed only for a session exactly one shop logged, and asks for the key otherwise", async () => {
    expect(await titlesOf(`/api/v1/products/viewed?uuid=${ALPHA_ONLY_UUID}`)).toEqual(["alpha lamp 2"]);
    const shared = await fetch(`${t.base}/api/v1/products/viewed?uuid=${SHARED_UUID}`);
    expect(shared.status).toBe(400);
    expect(((await shared.json()) as { error: string }).error).toMatch(/^Missing required endpoint arg: key/);
    expect(await titlesOf(`/api/v1/products/viewed?uuid=${randomUUID()}`)).toEqual([]);
  });

  it("does not let another shop's key move a session: its events make the keyless answer ask for a key, never show its products", async () => {
    const victim = randomUUID();
    const view = (shop: string, handle: string) =>
      fetch(`${t.base}/api/v1/analytics/event?key=${keys[shop]}&uuid=${victim}&verb=viewed&platform_product_handle=${handle}`, {
        method: "POST",
      });
    await view("alpha", "product-3");
    await view("beta", "product-4");
    await eventsApplied(t, "beta");
    const res = await fetch(`${t.base}/api/v1/products/viewed?uuid=${victim}`);
    expect(res.status).toBe(400);
    expect(await titlesOf(`/api/v1/products/viewed?key=${keys.alpha}&uuid=${victim}`)).toEqual(["alpha lamp 3"]);
  });
});
