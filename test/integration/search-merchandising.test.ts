// Search merchandising over HTTP: the admin API of search settings, keyword
// groups (pins, boosts, redirects, hidden products), global exclusions,
// synonyms with typos, stemming and completion, the cache following a
// settings change, bad input and tenancy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quickViewRequest } from "../../src/core/search/request.js";
import { searchProductIds } from "../../src/search/quick-view.js";
import { product, variant } from "../helpers/fixtures.js";
import { createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let shop: { id: string; api_key: string };
let rival: { id: string; api_key: string };
/** The answer to "sofa" before any settings were written. */
let unmerchandised: string;

const SEARCH = "/api/v1/smart-search/search/quick-view";
const settingsPath = (merchant: string) => `/admin/v1/merchants/${merchant}/search-settings`;

interface SearchAnswer {
  successful: boolean;
  data: { productSuggestions: { id: string }[]; collections: { id: string }[]; query: string; redirect?: string };
  status: number;
}

// 1–3 sofas (3 out of stock), 4 and 5 tops, 6–8 and 10–11 gifts (10 tagged exclude_service, 11 unpublished),
// 9 a table, 12 a knife; collection 90 the living room, 91 the clearance.
const CATALOGUE = [
  product(1, { title: "Linen Sofa", product_type: "Sofa", tags: "living" }),
  product(2, { title: "Velvet Sofa", product_type: "Sofa", tags: "living" }),
  product(3, { title: "Leather Sofa", product_type: "Sofa", tags: "living", variants: [variant({ id: 31, inventory_quantity: 0 })] }),
  product(4, { title: "Classic T-Shirt", product_type: "Top", tags: "cotton" }),
  product(5, { title: "Pocket Tee", product_type: "Top", tags: "cotton" }),
  product(6, { title: "Gift Card", product_type: "Card", tags: "gift" }),
  product(7, { title: "Ember Candle", product_type: "Candle", tags: "gift" }),
  product(8, { title: "Wool Blanket", product_type: "Blanket", tags: "gift, clearance" }),
  product(9, { title: "Oak Coffee Table", product_type: "Table", tags: "living" }),
  product(10, { title: "Camp Mug", product_type: "Mug", tags: "gift, exclude_service" }),
  product(11, { title: "Brass Lamp", product_type: "Lamp", tags: "gift", published_at: null }),
  product(12, { title: "Camp Knife", product_type: "Knife", tags: "outdoor" }),
];

beforeAll(async () => {
  t = await startTestService();
  shop = await createTestMerchant(t, "merch", "merch.example.com");
  rival = await createTestMerchant(t, "rival", "rival.example.com");
  for (const merchant of ["merch", "rival"]) {
    expect((await postJson(t, `/admin/v1/merchants/${merchant}/products`, CATALOGUE)).status).toBe(200);
    await postJson(t, `/admin/v1/merchants/${merchant}/collections`, [
      { id: 90, title: "Living Room", product_ids: [1, 2, 9] },
      { id: 91, title: "Clearance", product_ids: [8] },
    ]);
  }
  unmerchandised = await (await searchRaw("sofa", 3)).text();
}, 60_000);
afterAll(async () => {
  await t.stop();
});

function searchRaw(query: string, limit: number, key = shop.api_key): Promise<Response> {
  return fetch(`${t.base}${SEARCH}?Service-Api-Key=${key}`, { method: "POST", body: JSON.stringify({ query, limit }) });
}

async function search(query: string, limit = 10, key = shop.api_key): Promise<SearchAnswer> {
  const res = await searchRaw(query, limit, key);
  expect(res.status).toBe(200);
  return (await res.json()) as SearchAnswer;
}

const ids = (answer: SearchAnswer) => answer.data.productSuggestions.map((suggestion) => Number(suggestion.id));

async function putSettings(settings: unknown, merchant = "merch"): Promise<Response> {
  return t.admin(settingsPath(merchant), { method: "PUT", body: JSON.stringify(settings) });
}

/** Replaces the shop's settings and checks they were taken. */
async function settle(settings: unknown, merchant = "merch"): Promise<void> {
  const res = await putSettings(settings, merchant);
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The lexical ranking alone, as the worker ranks it (no meaning-based top-up): what synonyms must find by themselves. */
function lexical(query: string, k: number, merchant = "merch"): readonly number[] {
  const { store } = t.service.services;
  store.refreshSnapshot();
  return searchProductIds(store, store.searchIndex.view(merchant), quickViewRequest(query, k), k);
}

describe("the admin API", () => {
  it("answers the empty settings before any write, then what was written, with its version and warnings", async () => {
    const empty = (await (await t.admin(settingsPath("merch"))).json()) as { data: unknown; metadata: { version: number } };
    expect(empty).toEqual({
      data: { keyword_groups: [], excluded_terms: [], excluded_products: [], excluded_collections: [], excluded_tags: [], synonyms: [] },
      metadata: { version: 0, warnings: [] },
    });
    const res = await putSettings({ keyword_groups: [{ id: "g", queries: [" Gift  Ideas "], promoted: [6, 999] }] });
    const written = (await res.json()) as { data: { keyword_groups: unknown[] }; metadata: { version: number; warnings: string[] } };
    expect(res.status).toBe(200);
    // Defaults filled in, texts trimmed, and the product the shop lacks named.
    expect(written.data.keyword_groups).toEqual([
      { id: "g", queries: ["Gift  Ideas"], match: "exact", promoted: [6, 999], promote_mode: "pin", redirect: null, hidden: [] },
    ]);
    expect(written.metadata).toEqual({ version: 1, warnings: ["keyword_groups[0].promoted[1]: no product 999"] });
    expect(await (await t.admin(settingsPath("merch"))).json()).toEqual(written);
    expect((await t.admin(settingsPath("nobody"))).status).toBe(404);
  });

  it("answers invalid settings with a 400 naming the field, and writes nothing", async () => {
    await settle({ keyword_groups: [{ id: "kept", queries: ["sofa"], hidden: [1] }] });
    const group = (fields: Record<string, unknown>) => ({ id: "g", queries: ["sofa"], ...fields });
    const bad: [unknown, string][] = [
      [{ keyword_groups: [group({}), group({ id: "h", queries: [""] })] }, "keyword_groups[1].queries[0]: must be a non-empty string"],
      [{ keyword_groups: [group({ promote_mod: "pin" })] }, "keyword_groups[0].promote_mod: is not a field"],
      [{ keyword_groups: [group({ match: "fuzzy" })] }, "keyword_groups[0].match: must be one of exact, prefix"],
      [{ keyword_groups: [group({ redirect: "javascript:alert(1)" })] }, "keyword_groups[0].redirect: must be an http or https address"],
      [{ keyword_groups: [group({}), group({})] }, "keyword_groups[1].id: repeats the id of keyword_groups[0]"],
      [{ keyword_groups: [group({ promoted: ["x"] })] }, "keyword_groups[0].promoted[0]: must be a positive integer id"],
      [{ synonyms: [{ type: "two_way", synonyms: ["sofa"] }] }, "synonyms[0].synonyms: must have at least 2 values"],
      [{ synonyms: [{ type: "one_way", synonyms: ["sofa"] }] }, "synonyms[0].root: must be a non-empty string"],
      [{ synonyms: [{ type: "both", synonyms: ["a", "b"] }] }, "synonyms[0].type: must be one of one_way, two_way"],
      [{ excluded_terms: ["?!"] }, "excluded_terms[0]: has no letters or digits"],
      [{ excluded_tag: ["sale"] }, "excluded_tag: is not a field of search settings"],
      [[], "settings: must be a JSON object"],
    ];
    for (const [settings, message] of bad) {
      const res = await putSettings(settings);
      expect(res.status, message).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain(message);
    }
    const stored = (await (await t.admin(settingsPath("merch"))).json()) as { data: { keyword_groups: { id: string }[] } };
    expect(stored.data.keyword_groups.map((g) => g.id)).toEqual(["kept"]);
    expect(ids(await search("sofa", 3))).not.toContain(1);
  });

  it("keeps the spec's quick-view settings endpoint the deprecated 404", async () => {
    const res = await fetch(`${t.base}/api/v1/smart-search/settings/quick-view?key=${shop.api_key}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ successful: false, message: "deprecated", data: [{ message: "This endpoint is deprecated" }] });
  });
});

describe("keyword groups", () => {
  it("pins promoted products first, in order, when the request may show them", async () => {
    // 10 is tagged exclude_service, 11 unpublished, 999 unknown; 9 does not match "gift" but is pinned.
    await settle({ keyword_groups: [{ id: "gifts", queries: ["gift"], match: "prefix", promoted: [9, 10, 11, 999, 8] }] });
    const gifts = ids(await search("gift"));
    expect(gifts.slice(0, 2)).toEqual([9, 8]);
    expect(gifts.filter((id) => id === 9 || id === 8)).toHaveLength(2);
    expect(ids(await search("gifts for a friend")).slice(0, 2)).toEqual([9, 8]);
    // A request filter still holds: only the living room's products.
    const filtered = await fetch(`${t.base}${SEARCH}?Service-Api-Key=${shop.api_key}`, {
      method: "POST",
      body: JSON.stringify({ query: "gift", filters: { collections: [90] } }),
    });
    const living = ids((await filtered.json()) as SearchAnswer);
    expect(living[0]).toBe(9);
    expect(living).not.toContain(8);
    expect(ids(await search("card")).slice(0, 1)).toEqual([6]);
  });

  it("boosts promoted products that match, and only those", async () => {
    const organic = lexical("sofa", 3);
    expect(organic.at(-1)).toBe(3); // out of stock: last
    const lower = organic[1]!;
    await settle({ keyword_groups: [{ id: "sofas", queries: ["sofa"], promoted: [lower, 12], promote_mode: "boost" }] });
    const boosted = ids(await search("sofa", 3));
    expect(boosted[0]).toBe(lower);
    expect(boosted).not.toContain(12);
  });

  it("returns a group's redirect in data.redirect, matched exactly or by prefix on the normalised query", async () => {
    await settle({
      keyword_groups: [
        { id: "sale", queries: ["sale", "Clearance"], redirect: "/collections/clearance" },
        { id: "gifts", queries: ["gift"], match: "prefix", redirect: "https://merch.example.com/collections/gifts" },
      ],
    });
    for (const query of ["sale", "  SALE ", "clearance", "Cléarance"])
      expect((await search(query)).data.redirect, query).toBe("/collections/clearance");
    expect((await search("gifts for dad")).data.redirect).toBe("https://merch.example.com/collections/gifts");
    for (const query of ["sales", "sofa", "gif"]) expect(await search(query)).not.toHaveProperty("data.redirect");
  });

  it("hides a group's hidden products for its queries only", async () => {
    await settle({ keyword_groups: [{ id: "sofas", queries: ["sofa"], hidden: [1] }] });
    expect(ids(await search("sofa", 2))).toEqual(lexical("sofa", 2));
    expect(lexical("sofa", 3)).not.toContain(1);
    expect(ids(await search("linen", 1))).toEqual([1]);
  });
});

describe("global exclusions", () => {
  it("answers nothing to a query holding an excluded term", async () => {
    await settle({ excluded_terms: ["knife"] });
    for (const query of ["knife", "Camp KNIFE", "knifes"]) {
      const answer = await search(query);
      expect(answer.data.productSuggestions, query).toEqual([]);
      expect(answer.data.collections).toEqual([]);
      expect(answer.data.query).toBe(query);
    }
    expect(ids(await search("camp", 2))).toContain(12);
  });

  it("never shows excluded products, the products of excluded collections or tags, nor the collections", async () => {
    await settle({ excluded_products: [7], excluded_collections: [91], excluded_tags: ["Outdoor"] });
    expect(ids(await search("candle"))).not.toContain(7);
    expect(ids(await search("blanket"))).not.toContain(8);
    const camp = ids(await search("camp"));
    expect(camp).toContain(10);
    expect(camp).not.toContain(12);
    expect((await search("clearance")).data.collections).toEqual([]);
    expect((await search("living")).data.collections.map((c) => Number(c.id))).toEqual([90]);
  });
});

describe("synonyms", () => {
  it("finds sofas for couch both ways, with a typo, stemmed and while typing", async () => {
    await settle({ synonyms: [{ type: "two_way", synonyms: ["sofa", "couch"] }] });
    const sofas = lexical("sofa", 3);
    for (const query of ["couch", "Couches", "cuoch", "couc"]) expect(lexical(query, 3), query).toEqual(sofas);
    expect(ids(await search("cuoch", 3))).toEqual(sofas);
    // A shorter prefix is not guessed at.
    expect(lexical("co", 3)).not.toEqual(sofas);
  });

  it("expands a one-way root to its synonyms, a phrase through its rarest word, and not the other way", async () => {
    await settle({ synonyms: [{ type: "one_way", root: "tee", synonyms: ["t-shirt"] }] });
    expect([...lexical("tee", 5)].sort()).toEqual([4, 5]);
    // The word as typed first: the product named "Tee" leads.
    expect(lexical("tee", 5)[0]).toBe(5);
    expect(lexical("t-shirt", 5)).toEqual([4]);
    expect(lexical("shirt", 5)).toEqual([4]);
  });
});

describe("caching and tenancy", () => {
  it("answers by new settings on the next request", async () => {
    await settle({});
    const first = await searchRaw("sofa", 3);
    expect(ids((await first.json()) as SearchAnswer)).toContain(2);
    const again = await searchRaw("sofa", 3);
    expect(again.headers.get("age")).not.toBeNull();
    await again.arrayBuffer();
    await settle({ keyword_groups: [{ id: "sofas", queries: ["sofa"], hidden: [2] }] });
    expect(ids(await search("sofa", 3))).not.toContain(2);
  });

  it("keeps two merchants' settings apart over the same product ids", async () => {
    await settle({ excluded_products: [1] }, "rival");
    await settle({ keyword_groups: [{ id: "mine", queries: ["linen"], redirect: "/pages/linen" }] }, "merch");
    expect(ids(await search("linen", 1))).toEqual([1]);
    expect((await search("linen", 1)).data.redirect).toBe("/pages/linen");
    const theirs = await search("linen", 1, rival.api_key);
    expect(ids(theirs)).not.toContain(1);
    expect(theirs).not.toHaveProperty("data.redirect");
    const read = (await (await t.admin(settingsPath("rival"))).json()) as {
      data: { excluded_products: number[]; keyword_groups: unknown[] };
    };
    expect(read.data.excluded_products).toEqual([1]);
    expect(read.data.keyword_groups).toEqual([]);
  });

  it("answers byte for byte as before any settings once they are reset", async () => {
    await settle({ synonyms: [{ type: "two_way", synonyms: ["sofa", "couch"] }], excluded_products: [2] });
    const reset = await t.admin(settingsPath("merch"), { method: "DELETE" });
    expect(reset.status).toBe(200);
    expect(((await reset.json()) as { data: { synonyms: unknown[] } }).data.synonyms).toEqual([]);
    expect(await (await searchRaw("sofa", 3)).text()).toBe(unmerchandised);
  });
});
