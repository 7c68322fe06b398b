// The typed client against a real service: every storefront endpoint through
// its method (each answer is also checked against /openapi.json by the fetch
// the integration tests share), failures as AisleError, aborts, keystrokes
// answered out of order, and the tracker's session and events.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AisleError, createClient, createTracker, searchAsYouType, type Client, type KeyValueStorage } from "../../client/src/index.js";
import { basketOrder, product } from "../helpers/fixtures.js";
import { createTestMerchant, eventually, postJson, rankingsRefreshed, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let key: string;
let client: Client;

const CUSTOMER = 6100;
const COLLECTION = 900;

beforeAll(async () => {
  t = await startTestService();
  key = (await createTestMerchant(t, "client")).api_key;
  client = createClient({ baseUrl: t.base, key });
  const titles = ["Brass Lantern", "Copper Lantern", "Canvas Mug", "Wool Blanket", "Linen Blanket"];
  await postJson(
    t,
    "/admin/v1/merchants/client/products",
    titles.map((title, i) => product(i + 1, { title, handle: title.toLowerCase().replace(" ", "-") })),
  );
  await postJson(t, "/admin/v1/merchants/client/collections", [
    { id: COLLECTION, title: "Lanterns", handle: "lanterns", product_ids: [1, 2] },
  ]);
  await postJson(t, "/admin/v1/merchants/client/customers", {
    id: CUSTOMER,
    email: "ada@example.com",
    first_name: "Ada",
    last_name: "Lovelace",
  });
  await postJson(t, "/admin/v1/merchants/client/orders", [
    { ...basketOrder(1, [1, 3]), customer: { id: CUSTOMER } },
    basketOrder(2, [1, 3]),
    basketOrder(3, [2, 4]),
  ]);
  await rankingsRefreshed(t, "client");
});
afterAll(() => t.stop());

/** Keeps what is set: a page's localStorage, for trackers made one after the other. */
function storage(): KeyValueStorage & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return { values, getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

const ids = (answer: { data: { id: number }[] }) => answer.data.map((p) => p.id);

describe("createClient", () => {
  it("calls every storefront endpoint with typed parameters and answers", async () => {
    expect(ids(await client.staticProducts({ ids: [3, 1] }))).toEqual([3, 1]);
    expect(ids(await client.staticProducts({ platform_collection_id: COLLECTION }))).toEqual([1, 2]);
    const recommended = await client.recommendedProducts({ platform_product_ids: [1], limit: 3 });
    expect(recommended.data[0]?.id).toBe(3);
    expect(recommended.metadata.cache_info.cache_key).toEqual(expect.any(String));
    expect((await client.similarProducts({ platform_product_ids: [1] })).data.length).toBeGreaterThan(0);
    expect(ids(await client.topSellers({ window_days: 30 }))).toContain(1);
    expect((await client.trendingProducts({ platform_product_ids: [1] })).data.map((p) => p.id)).not.toContain(1);
    const purchased = await client.purchasedProducts({ platform_customer_id: CUSTOMER });
    expect(purchased.data.map((p) => [p.id, p.metadata.purchased_quantity])).toEqual([
      [1, "1"],
      [3, "1"],
    ]);
    expect(purchased.metadata.platform_customer?.first_name).toBe("Ada");
    const uuid = "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e";
    expect(await client.logEvent({ verb: "viewed", platform_product_handle: "brass-lantern", uuid })).toEqual({ data: "Event recorded" });
    expect(ids(await client.viewedProducts({ uuid }))).toEqual([1]);
    expect(ids(await client.viewedRelatedProducts({ uuid }))).not.toContain(1);
    expect((await client.listSources()).data.map((source) => source.path)).toContain("/api/v1/products/top_sellers");
    const search = await client.quickViewSearch({ query: "lantren", limit: 5 });
    expect(search.data.query).toBe("lantren");
    expect(search.data.productSuggestions.map((s) => s.name)).toEqual(expect.arrayContaining(["Brass Lantern", "Copper Lantern"]));
    expect(search.data.collections.map((c) => c.title)).toEqual([]);
    expect((await client.quickViewSearch({ query: "lant" })).data.collections.map((c) => c.title)).toEqual(["Lanterns"]);
  });

  it("rejects failures as AisleError with the message, from the body or from X-Aisle-Error", async () => {
    const wrongKey = createClient({ baseUrl: t.base, key: "pk_wrong" });
    await expect(wrongKey.staticProducts({ ids: [1] })).rejects.toMatchObject({ name: "AisleError", status: 400, message: "Invalid key" });
    // trending's 400 is the spec's empty object: the message travels in a header.
    const failure = await wrongKey.trendingProducts().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AisleError);
    expect(failure).toMatchObject({ status: 400, message: "Invalid key", body: {} });
    // The deprecated quick-view settings endpoint always answers 404.
    await expect(client.quickViewSettings()).rejects.toMatchObject({ status: 404, body: { message: "deprecated" } });
  });

  it("aborts a call under way", async () => {
    const controller = new AbortController();
    const call = client.staticProducts({ ids: [1] }, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    // The service goes on answering.
    expect(ids(await client.staticProducts({ ids: [1] }))).toEqual([1]);
  });

  it("runs from the build, as browsers load it, in Node 20 on its fetch", async () => {
    // A path the type checker does not follow: it runs before the build.
    const buildOutput = "../../dist/client/src/index.js";
    const built = (await import(buildOutput)) as typeof import("../../client/src/index.js");
    const fromBuild = built.createClient({ baseUrl: t.base, key });
    expect((await fromBuild.trendingProducts({ limit: 2 })).data).toHaveLength(2);
  });
});

describe("searchAsYouType", () => {
  it("drops the answer to an older keystroke that arrives after a newer one's", async () => {
    // The first keystroke's answer is held back until the second's has been shown.
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let calls = 0;
    const slowFirst = createClient({
      baseUrl: t.base,
      key,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (++calls === 1) await firstHeld;
        return response;
      },
    });
    const keystrokes = searchAsYouType(slowFirst, { limit: 3 });
    const older = keystrokes.search("lan");
    const newer = await keystrokes.search("lant");
    expect(newer?.data.query).toBe("lant");
    releaseFirst();
    expect(await older).toBeNull();
    // A keystroke after them is shown again.
    expect((await keystrokes.search("lante"))?.data.query).toBe("lante");
  });

  it("aborts the searches under way on cancel", async () => {
    const keystrokes = searchAsYouType(client);
    const pending = keystrokes.search("blanket");
    keystrokes.cancel();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect((await keystrokes.search("blanket"))?.data.productSuggestions.length).toBe(2);
  });
});

describe("createTracker", () => {
  it("makes the session uuid once and keeps it", () => {
    const kept = storage();
    const first = createTracker(client, { storage: kept });
    expect(first.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(createTracker(client, { storage: kept }).uuid).toBe(first.uuid);
    expect(kept.values.get("aisle.session")).toBe(first.uuid);
    expect(createTracker(client, { storage: storage() }).uuid).not.toBe(first.uuid);
  });

  it("sends views acknowledged, and adds and removes by beacon where there is one", async () => {
    const beacons: string[] = [];
    // What a browser does with a beacon: a POST to the URL, sent on its own.
    const sendBeacon = (url: string) => {
      beacons.push(url);
      void fetch(url, { method: "POST" });
      return true;
    };
    const tracker = createTracker(client, { storage: storage(), sendBeacon });
    await tracker.viewed("canvas-mug", { acknowledged: true });
    expect(ids(await client.viewedProducts({ uuid: tracker.uuid }))).toEqual([3]);
    await tracker.added("wool-blanket");
    await tracker.removed("canvas-mug");
    expect(beacons.map((url) => new URL(url).searchParams.get("verb"))).toEqual(["added", "removed"]);
    await eventually(async () => {
      expect(ids(await client.viewedProducts({ uuid: tracker.uuid, verb: "added" }))).toEqual([4]);
      expect(ids(await client.viewedProducts({ uuid: tracker.uuid, verb: "removed" }))).toEqual([3]);
    });
  });

  it("sends by fetch where there is no beacon (Node)", async () => {
    const tracker = createTracker(client, { storage: storage() });
    await tracker.added("linen-blanket");
    expect(ids(await client.viewedProducts({ uuid: tracker.uuid, verb: "added" }))).toEqual([5]);
  });
});
