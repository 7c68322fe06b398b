import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, eventsApplied, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let shop: { id: string; api_key: string };
let other: { id: string; api_key: string };

beforeAll(async () => {
  t = await startTestService();
  shop = await createTestMerchant(t, "events");
  other = await createTestMerchant(t, "other-events");
  await postJson(
    t,
    "/admin/v1/merchants/events/products",
    [1, 2, 3, 4, 5].map((id) => product(id, id === 5 ? { variants: [{ id: 51, price: "1.00", inventory_quantity: 0 }] } : {})),
  );
  await postJson(t, "/admin/v1/merchants/other-events/products", [product(9, { handle: "product-1" })]);
  await postJson(t, "/admin/v1/merchants/events/customers", { id: 77, email: "Ada@Example.com", first_name: "Ada", last_name: "Lovelace" });
});
afterAll(() => t.stop());

function event(query: Record<string, string>, key = shop.api_key): Promise<Response> {
  const params = new URLSearchParams({ key, subject: "user", verb: "viewed", noun: "product", ...query });
  return fetch(`${t.base}/api/v1/analytics/event?${params}`, { method: "POST" });
}
async function get(path: string): Promise<any> {
  const res = await fetch(`${t.base}${path}`);
  return { status: res.status, body: await res.json() };
}
const ids = (body: any): number[] => body.data.map((p: { id: number }) => p.id);

describe("POST /api/v1/analytics/event", () => {
  it("logs an event before answering with a receipt, then applies it to the session's history", async () => {
    const { store } = t.service.services;
    const uuid = randomUUID();
    const res = await event({ uuid, platform_product_handle: "product-2" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: "Event recorded" });
    const last = store.events.eventSequence(shop.id);
    expect([...store.events.eventsSince(shop.id, last - 1)].map(({ event }) => [event.uuid, event.product_id, event.verb])).toEqual([
      [uuid, 2, "viewed"],
    ]);
    await eventsApplied(t, shop.id);
    expect(store.applied.sessionHistory(shop.id, uuid)?.products).toEqual([2]);
  });

  it("rejects bad events with a 400 naming the problem and stores nothing", async () => {
    const uuid = randomUUID();
    const cases: [Record<string, string>, string][] = [
      [{ uuid, platform_product_handle: "product-1", verb: "liked" }, "Invalid verb: allowed values are viewed, added, removed"],
      [{ uuid }, "Missing required endpoint arg: platform_product_handle"],
      [{ uuid, platform_product_handle: "no-such-product" }, "Unknown platform_product_handle: no-such-product"],
      [{ platform_product_handle: "product-1" }, "Missing required args. You must pass either platform_customer_id or uuid."],
      [
        { uuid: "not-a-uuid", platform_product_handle: "product-1" },
        "Invalid uuid: must be a UUID like 3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e",
      ],
      [{ uuid, platform_product_handle: "product-1", theme_id: "x".repeat(2000) }, "Invalid theme_id: must be at most 1000 characters"],
      [{ uuid, platform_product_handle: "product-1", noun: "collection" }, "Invalid noun: allowed values are product"],
      [{ uuid, platform_product_handle: "product-1", subject_email: "nope" }, "Invalid subject_email: must be an email address"],
    ];
    for (const [query, message] of cases) {
      const res = await event(query);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: message });
    }
    expect((await event({ uuid, platform_product_handle: "product-1" }, "wrong-key")).status).toBe(400);
    expect(t.service.services.store.applied.sessionHistory(shop.id, uuid)).toBeUndefined();
  });

  it("answers the spec's message whenever both uuid and platform_customer_id are absent, whatever else the event lacks", async () => {
    const missing = { error: "Missing required args. You must pass either platform_customer_id or uuid." };
    const sequence = t.service.services.store.events.eventSequence(shop.id);
    const bare = await fetch(`${t.base}/api/v1/analytics/event?key=${shop.api_key}`, { method: "POST" });
    expect([bare.status, await bare.json()]).toEqual([400, missing]);
    for (const query of [{}, { verb: "liked" }, { uuid: " ", platform_customer_id: "" }] as Record<string, string>[]) {
      const res = await event(query);
      expect([res.status, await res.json()]).toEqual([400, missing]);
    }
    // A key no merchant holds is refused first, as on every endpoint.
    const wrongKey = await event({ platform_product_handle: "product-1" }, "wrong-key");
    expect([wrongKey.status, await wrongKey.json()]).toEqual([400, { error: "Invalid key" }]);
    expect(t.service.services.store.events.eventSequence(shop.id)).toBe(sequence);
  });

  it("resolves a handle against the current catalogue: a renamed product answers to its new handle only", async () => {
    const uuid = randomUUID();
    expect((await event({ uuid, platform_product_handle: "product-4" })).status).toBe(200);
    await postJson(t, "/admin/v1/merchants/events/products", [product(4, { handle: "product-4-renamed" })]);
    // Handles are looked up against the catalogue version of at most a millisecond ago.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const old = await event({ uuid, platform_product_handle: "product-4" });
    expect(old.status).toBe(400);
    expect(await old.json()).toEqual({ error: "Unknown platform_product_handle: product-4" });
    expect((await event({ uuid, platform_product_handle: "product-4-renamed" })).status).toBe(200);
    await eventsApplied(t, shop.id);
    expect(t.service.services.store.applied.sessionHistory(shop.id, uuid)?.products).toEqual([4, 4]);
    await postJson(t, "/admin/v1/merchants/events/products", [product(4)]);
  });

  it("links an event to the customer of subject_email", async () => {
    await event({ uuid: randomUUID(), platform_product_handle: "product-3", subject_email: "ada@example.com" });
    await eventsApplied(t, shop.id);
    expect(t.service.services.store.applied.customerHistory(shop.id, 77)?.products).toEqual([3]);
  });
});

describe("GET /api/v1/products/viewed", () => {
  it("lists the session's viewed products, most recent first, without repeats, without a key", async () => {
    const uuid = randomUUID();
    for (const handle of ["product-1", "product-2", "product-1", "product-5", "product-3"])
      await event({ uuid, platform_product_handle: handle });
    await event({ uuid, platform_product_handle: "product-4", verb: "added" });
    const { status, body } = await get(`/api/v1/products/viewed?uuid=${uuid}`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual([3, 5, 1, 2]);
    expect(body.data[0]).toHaveProperty("published_scope", "web");
    expect(ids((await get(`/api/v1/products/viewed?uuid=${uuid}&limit=2`)).body)).toEqual([3, 5]);
    expect(ids((await get(`/api/v1/products/viewed?uuid=${uuid}&verb=added`)).body)).toEqual([4]);
    expect(ids((await get(`/api/v1/products/viewed?uuid=${uuid}&key=${shop.api_key}`)).body)).toEqual([3, 5, 1, 2]);
  });

  it("lists a customer's viewed products with a key, and never across merchants", async () => {
    await event({ platform_customer_id: "77", platform_product_handle: "product-4" });
    expect(ids((await get(`/api/v1/products/viewed?platform_customer_id=77&key=${shop.api_key}`)).body)).toEqual([4, 3]);
    expect(ids((await get(`/api/v1/products/viewed?platform_customer_id=77&key=${other.api_key}`)).body)).toEqual([]);
    const noKey = await get("/api/v1/products/viewed?platform_customer_id=77");
    expect(noKey.status).toBe(400);
    expect(ids((await get(`/api/v1/products/viewed?uuid=${randomUUID()}`)).body)).toEqual([]);
  });

  it("answers the spec's 400 when neither uuid nor platform_customer_id is given, whatever else is wrong", async () => {
    const missing = { status: 400, body: { error: "Missing required args. You must pass either platform_customer_id or uuid." } };
    for (const query of ["", "?limit=0", `?key=${shop.api_key}&verb=liked`, "?uuid=%20"])
      expect(await get(`/api/v1/products/viewed${query}`), query).toEqual(missing);
  });
});

describe("GET /api/v1/products/viewed-related", () => {
  it("recommends what sessions with the same views went on to view, leaving out what was viewed", async () => {
    const browse = async (handles: string[]) => {
      const uuid = randomUUID();
      for (const handle of handles) await event({ uuid, platform_product_handle: handle });
      return uuid;
    };
    for (let i = 0; i < 6; i++) await browse(["product-1", "product-2", "product-3"]);
    for (let i = 0; i < 2; i++) await browse(["product-1", "product-4"]);
    const uuid = await browse(["product-1"]);
    const { status, body } = await get(`/api/v1/products/viewed-related?key=${shop.api_key}&uuid=${uuid}&limit=3`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual([2, 3, 4]);
    expect(body.data[0]).toHaveProperty("admin_graphql_api_id");
    // After viewing 4, sessions that viewed 1 then 4 count more, and 4 itself is left out.
    await event({ uuid, platform_product_handle: "product-4" });
    const next = ids((await get(`/api/v1/products/viewed-related?key=${shop.api_key}&uuid=${uuid}&limit=3`)).body);
    expect(next).not.toContain(4);
    expect(next).not.toContain(1);
    expect(next.slice(0, 2)).toEqual([2, 3]);
  });

  it("needs a key and a session or customer", async () => {
    expect((await get(`/api/v1/products/viewed-related?uuid=${randomUUID()}`)).status).toBe(400);
    expect((await get(`/api/v1/products/viewed-related?key=${shop.api_key}`)).body).toEqual({
      error: "Missing required args. You must pass either platform_customer_id or uuid.",
    });
  });
});

describe("GET /api/v1/products/purchased", () => {
  beforeAll(async () => {
    const line = (id: number, quantity: number) => ({ product_id: id, variant_id: id * 10 + 1, quantity, price: "10.00" });
    await postJson(t, "/admin/v1/merchants/events/orders", [
      { id: 1, created_at: "2026-01-01T10:00:00+00:00", customer: { id: 77 }, line_items: [line(1, 2), line(2, 1)], cancelled_at: null },
      { id: 2, created_at: "2026-02-01T10:00:00+00:00", customer: { id: 77 }, line_items: [line(1, 3), line(4, 1)], cancelled_at: null },
      {
        id: 3,
        created_at: "2026-03-01T10:00:00+00:00",
        customer: { id: 77 },
        line_items: [line(3, 9)],
        cancelled_at: "2026-03-02T10:00:00+00:00",
      },
      { id: 4, created_at: "2026-03-05T10:00:00+00:00", customer: { id: 77 }, line_items: [line(5, 1)], cancelled_at: null },
    ]);
  });

  it("returns the customer's products, most recently bought first, with quantities and the customer", async () => {
    const { status, body } = await get(`/api/v1/products/purchased?key=${shop.api_key}&platform_customer_id=77`);
    expect(status).toBe(200);
    expect(ids(body)).toEqual([1, 4, 2]);
    expect(body.data.map((p: any) => p.metadata)).toEqual([
      { purchased_quantity: "5" },
      { purchased_quantity: "1" },
      { purchased_quantity: "1" },
    ]);
    expect(body.metadata.platform_customer).toMatchObject({
      id: 77,
      first_name: "Ada",
      last_name: "Lovelace",
      admin_graphql_api_id: "gid://platform/Customer/77",
      // Counted over the orders held here, the cancelled one left out: 30 + 40 + 10.
      orders_count: 3,
      total_spent: "80.00",
      last_order_id: 4,
      last_order_name: "#4",
    });
    expect(ids((await get(`/api/v1/products/purchased?key=${shop.api_key}&platform_customer_id=77&filter_oos=no`)).body)).toEqual([
      5, 1, 4, 2,
    ]);
    expect(
      ids((await get(`/api/v1/products/purchased?key=${shop.api_key}&platform_customer_id=77&platform_product_ids=2,4`)).body),
    ).toEqual([4, 2]);
  });

  it("keeps the customer's counters with their orders: a named order, a cancellation, a record sent again", async () => {
    const line = { product_id: 1, variant_id: 11, quantity: 1, price: "12.50" };
    await postJson(t, "/admin/v1/merchants/events/orders", [
      { id: 5, name: "#1005", created_at: "2026-04-01T10:00:00+00:00", customer: { id: 77 }, line_items: [line], cancelled_at: null },
    ]);
    const customer = async () =>
      (await get(`/api/v1/products/purchased?key=${shop.api_key}&platform_customer_id=77`)).body.metadata.platform_customer;
    expect(await customer()).toMatchObject({ orders_count: 4, total_spent: "92.50", last_order_id: 5, last_order_name: "#1005" });
    await postJson(t, "/admin/v1/merchants/events/orders", [
      {
        id: 5,
        name: "#1005",
        created_at: "2026-04-01T10:00:00+00:00",
        customer: { id: 77 },
        line_items: [line],
        cancelled_at: "2026-04-02T10:00:00+00:00",
      },
    ]);
    expect(await customer()).toMatchObject({ orders_count: 3, total_spent: "80.00", last_order_id: 4 });
    // The platform sending the customer again (with its own zero counters) does not reset them.
    await postJson(t, "/admin/v1/merchants/events/customers", [
      { id: 77, first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
    ]);
    expect(await customer()).toMatchObject({ orders_count: 3, total_spent: "80.00", last_order_id: 4, last_order_name: "#4" });
  });

  it("answers 400 with the spec's message when platform_customer_id is missing", async () => {
    expect(await get(`/api/v1/products/purchased?key=${shop.api_key}`)).toEqual({
      status: 400,
      body: { error: "Missing required endpoint arg: platform_customer_id" },
    });
    const unknown = await get(`/api/v1/products/purchased?key=${shop.api_key}&platform_customer_id=999`);
    expect(unknown.body).toEqual({ data: [], metadata: { platform_customer: null } });
  });
});
