// The admin API reads back what it takes: one record, pages of records, the
// merchant without secrets; and PATCH merges a partial record into the stored one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { product, variant } from "../helpers/fixtures.js";
import { createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let key: string;

const lamp = product(1, {
  vendor: "Harbor",
  tags: "lamp, brass",
  variants: [
    variant({
      id: 11,
      price: "40.00",
      sku: "LAMP-S",
      option1: "Small",
      metafields: [{ id: 900, namespace: "custom", key: "watts", value: "40", type: "number_integer" }],
    }),
    variant({ id: 12, price: "55.00", sku: "LAMP-L", option1: "Large" }),
  ],
  options: [{ id: 10, name: "Size", position: 1, values: ["Small", "Large"] }],
  metafields: [{ id: 800, namespace: "reviews", key: "rating", value: "4.5", type: "number_decimal" }],
});

beforeAll(async () => {
  t = await startTestService();
  key = (await createTestMerchant(t, "reader")).api_key;
  expect((await postJson(t, "/admin/v1/merchants/reader/products", [lamp, ...[2, 3, 4, 5].map((id) => product(id))])).status).toBe(200);
  await postJson(t, "/admin/v1/merchants/reader/customers", [
    { id: 7, email: "ada@example.com", first_name: "Ada", addresses: [{ id: 70, city: "London", country_code: "GB" }] },
  ]);
  await postJson(t, "/admin/v1/merchants/reader/collections", [{ id: 50, title: "Lamps", handle: "lamps", product_ids: [1] }]);
  await postJson(t, "/admin/v1/merchants/reader/orders", [
    {
      id: 300,
      name: "#1300",
      created_at: "2026-01-05T10:00:00+00:00",
      customer: { id: 7 },
      line_items: [{ product_id: 1, variant_id: 11, quantity: 1, price: "40.00" }],
      cancelled_at: null,
    },
  ]);
  await postJson(t, "/admin/v1/merchants/reader/markets", [
    {
      id: 5,
      name: "Canada",
      active: true,
      countries: ["CA"],
      currency: "CAD",
      product_ids: null,
      variant_prices: { "11": { price: "52.00", compare_at_price: null } },
    },
  ]);
});
afterAll(() => t.stop());

const get = async (path: string) => {
  const res = await t.admin(path);
  return { status: res.status, body: (await res.json()) as any };
};
const patch = async (path: string, body: unknown) => {
  const res = await t.admin(path, { method: "PATCH", body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

describe("admin read-back", () => {
  it("shows the merchant without its secrets", async () => {
    const { status, body } = await get("/admin/v1/merchants/reader");
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: "reader", name: "Shop reader", domain: "reader.example.com", currency: "USD" });
    expect(body.api_key).toBeUndefined();
    expect(body.webhook_secret).toBeUndefined();
    expect((await get("/admin/v1/merchants/nobody")).status).toBe(404);
  });

  it("reads a record back in the shape it takes, metafields inline, and takes what it reads unchanged", async () => {
    const { status, body } = await get("/admin/v1/merchants/reader/products/1");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 1,
      vendor: "Harbor",
      tags: "lamp, brass",
      metafields: [{ id: 800, namespace: "reviews", value: "4.5" }],
    });
    expect(body.variants.map((v: any) => [v.id, v.sku, v.metafields.length])).toEqual([
      [11, "LAMP-S", 1],
      [12, "LAMP-L", 0],
    ]);
    // What was read goes back in as it is.
    expect((await postJson(t, "/admin/v1/merchants/reader/products", [body])).status).toBe(200);
    const again = (await get("/admin/v1/merchants/reader/products/1")).body;
    expect({ ...again, updated_at: null, variants: null }).toEqual({ ...body, updated_at: null, variants: null });
    expect(again.variants.map((v: any) => ({ ...v, updated_at: null }))).toEqual(
      body.variants.map((v: any) => ({ ...v, updated_at: null })),
    );

    expect((await get("/admin/v1/merchants/reader/orders/300")).body).toMatchObject({ id: 300, name: "#1300", customer: { id: 7 } });
    expect((await get("/admin/v1/merchants/reader/markets/5")).body).toMatchObject({ id: 5, variant_prices: { "11": { price: "52.00" } } });
    expect((await get("/admin/v1/merchants/reader/customers/7")).body).toMatchObject({ id: 7, orders_count: 1, last_order_name: "#1300" });
    expect(await get("/admin/v1/merchants/reader/products/99")).toEqual({ status: 404, body: { error: "No product 99" } });
    expect((await get("/admin/v1/merchants/reader/widgets/1")).status).toBe(404);
  });

  it("lists a kind a page at a time, in id order, with a cursor", async () => {
    const first = (await get("/admin/v1/merchants/reader/products?limit=2")).body;
    expect(first.data.map((p: any) => p.id)).toEqual([1, 2]);
    expect(first.next).toBe("2");
    const second = (await get(`/admin/v1/merchants/reader/products?limit=2&after=${first.next}`)).body;
    expect(second.data.map((p: any) => p.id)).toEqual([3, 4]);
    const last = (await get(`/admin/v1/merchants/reader/products?limit=2&after=${second.next}`)).body;
    expect(last).toMatchObject({ next: null });
    expect(last.data.map((p: any) => p.id)).toEqual([5]);
    expect((await get("/admin/v1/merchants/reader/collections")).body.data.map((c: any) => c.id)).toEqual([50]);
    expect((await get("/admin/v1/merchants/reader/products?limit=0")).status).toBe(400);
    expect((await get("/admin/v1/merchants/reader/products?after=x")).status).toBe(400);
  });
});

describe("PATCH", () => {
  it("changes a price and keeps everything else, and the next storefront answer shows it", async () => {
    const before = (await get("/admin/v1/merchants/reader/products/1")).body;
    const { status, body } = await patch("/admin/v1/merchants/reader/products/1", { variants: [{ id: 11, price: "39.00" }] });
    expect(status).toBe(200);
    expect(body.variants.map((v: any) => [v.id, v.price, v.sku])).toEqual([
      [11, "39.00", "LAMP-S"],
      [12, "55.00", "LAMP-L"],
    ]);
    expect(body.variants[0].metafields).toEqual(before.variants[0].metafields);
    for (const field of ["title", "vendor", "tags", "images", "options", "metafields", "handle", "created_at"])
      expect(body[field], field).toEqual(before[field]);
    expect(body.updated_at >= before.updated_at).toBe(true);
    const shown = (await (await fetch(`${t.base}/api/v1/products/static?key=${key}&ids=1`)).json()) as any;
    expect(shown.data[0].variants[0].price).toBe("39.00");
  });

  it("merges lists by id: an image added, an address changed, a collection retitled", async () => {
    const added = await patch("/admin/v1/merchants/reader/products/1", {
      images: [{ id: 9_000, src: "https://cdn.example.com/side.jpg", position: 2 }],
    });
    expect(added.body.images.map((i: any) => i.id)).toEqual([100, 9_000]);
    const customer = await patch("/admin/v1/merchants/reader/customers/7", {
      first_name: "Augusta",
      addresses: [{ id: 70, city: "Leicester" }],
    });
    expect(customer.body).toMatchObject({ first_name: "Augusta", email: "ada@example.com", orders_count: 1 });
    expect(customer.body.addresses).toMatchObject([{ id: 70, city: "Leicester", country_code: "GB" }]);
    const collection = await patch("/admin/v1/merchants/reader/collections/50", { title: "Brass lamps" });
    expect(collection.body).toMatchObject({ title: "Brass lamps", product_ids: [1] });
  });

  it("validates as every write does and writes nothing from a bad patch", async () => {
    const bad = await patch("/admin/v1/merchants/reader/products/1", { variants: [{ id: 12, price: "cheap" }] });
    expect(bad).toEqual({ status: 400, body: { error: expect.stringMatching(/^products\[0\]\.variants\[1\]\.price: /) } });
    expect((await get("/admin/v1/merchants/reader/products/1")).body.variants[1].price).toBe("55.00");
    expect((await patch("/admin/v1/merchants/reader/products/1", { id: 2 })).status).toBe(400);
    expect((await patch("/admin/v1/merchants/reader/products/99", { title: "x" })).status).toBe(404);
    expect((await patch("/admin/v1/merchants/reader/orders/300", { cancelled_at: null })).status).toBe(405);
    expect((await patch("/admin/v1/merchants/reader/products/1", [1, 2])).status).toBe(400);
  });

  it("applies racing patches and writes one after another, each on the record as the one before left it", async () => {
    await postJson(
      t,
      "/admin/v1/merchants/reader/products",
      product(20, { variants: [1, 2, 3, 4, 5, 6].map((n) => variant({ id: 200 + n })) }),
    );
    // Each names a different field or variant: sent at once, every one of them must land.
    const fields = await Promise.all([
      patch("/admin/v1/merchants/reader/products/20", { title: "Racing lamp" }),
      patch("/admin/v1/merchants/reader/products/20", { vendor: "Quick" }),
      patch("/admin/v1/merchants/reader/products/20", { tags: "fast" }),
      ...[1, 2, 3, 4, 5, 6].map((n) => patch("/admin/v1/merchants/reader/products/20", { variants: [{ id: 200 + n, price: `${n}.50` }] })),
    ]);
    expect(fields.map(({ status }) => status)).toEqual(Array(9).fill(200));
    const raced = (await get("/admin/v1/merchants/reader/products/20")).body;
    expect([raced.title, raced.vendor, raced.tags]).toEqual(["Racing lamp", "Quick", "fast"]);
    expect(raced.variants.map((v: any) => v.price)).toEqual(["1.50", "2.50", "3.50", "4.50", "5.50", "6.50"]);
    // A new version POSTed and a patch sent at once: whichever the server takes first, the end is what
    // sending them one after the other gives (the patch on the new version, or the new version alone), never the
    // patch on the version before.
    const [posted, patched] = await Promise.all([
      postJson(t, "/admin/v1/merchants/reader/products", product(20, { title: "Posted lamp" })),
      patch("/admin/v1/merchants/reader/products/20", { vendor: "After" }),
    ]);
    expect([posted.status, patched.status]).toEqual([200, 200]);
    const { title, vendor } = (await get("/admin/v1/merchants/reader/products/20")).body;
    expect([
      ["Posted lamp", "After"],
      ["Posted lamp", product(20).vendor],
    ]).toContainEqual([title, vendor]);
    // Deleted and patched at once: the product ends deleted, the patch applied before or finding nothing.
    const [deleted, late] = await Promise.all([
      t.admin("/admin/v1/merchants/reader/products/20", { method: "DELETE" }),
      patch("/admin/v1/merchants/reader/products/20", { vendor: "Too late" }),
    ]);
    expect(deleted.status).toBe(200);
    expect([200, 404]).toContain(late.status);
    // Applied before the delete, it answers the record as it wrote it.
    if (late.status === 200) expect(late.body).toMatchObject({ id: 20, vendor: "Too late" });
    expect((await get("/admin/v1/merchants/reader/products/20")).status).toBe(404);
  });

  it("takes a __proto__ field as nothing, not as the record's prototype", async () => {
    const before = (await get("/admin/v1/merchants/reader/products/2")).body;
    const res = await t.admin("/admin/v1/merchants/reader/products/2", {
      method: "PATCH",
      body: '{"__proto__":{"updated_at":"2001-01-01T00:00:00Z","vendor":"Injected"}}',
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.vendor).toBe(before.vendor);
    expect(body.updated_at >= before.updated_at).toBe(true);
  });
});
