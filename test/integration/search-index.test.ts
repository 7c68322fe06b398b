import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { planQuery } from "../../src/core/search/query-plan.js";
import { rankProducts } from "../../src/core/search/ranker.js";
import { ingest } from "../../src/ingest/ingest.js";
import { createMerchant } from "../../src/ingest/merchants.js";
import { MerchantSearchIndex, searchIndexOf, warmSearchIndex } from "../../src/search/merchant-index.js";
import { Store } from "../../src/stores/store.js";
import { product, variant } from "../helpers/fixtures.js";

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "aisle-search-index-"));
  store = Store.open(dir);
  await createMerchant(store, { id: "shop", name: "Shop", domain: "shop.example.com" });
  await createMerchant(store, { id: "other", name: "Other", domain: "other.example.com" });
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const VOCABULARY = [
  "cordless",
  "drill",
  "drills",
  "hammer",
  "led",
  "light",
  "bulbs",
  "brass",
  "lantern",
  "copper",
  "pipe",
  "18",
  "in.",
  "steel",
  "saw",
  "blade",
  "garden",
  "hose",
  "kit",
];

function title(next: () => number): string {
  const length = 2 + Math.floor(next() * 4);
  return Array.from({ length }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]!).join(" ");
}

function ranking(index: MerchantSearchIndex, query: string): number[] {
  return rankProducts(index.products, planQuery(index.products, query), { k: 50, outOfStock: "last" });
}

describe("catalogue change log", () => {
  it("records every product and collection upsert and delete of a merchant, in order, apart from other merchants", async () => {
    expect(store.catalogueSequence("shop")).toBe(0);
    await ingest(store, "shop", "products", [product(1), product(2)]);
    await ingest(store, "other", "products", [product(1)]);
    await ingest(store, "shop", "collections", [{ id: 7, title: "Mugs", product_ids: [1] }]);
    await store.deleteProduct("shop", 2);
    await store.deleteCollection("shop", 7);
    await ingest(store, "shop", "customers", [{ id: 5, email: "a@example.com" }]);
    expect(store.catalogueChangesSince("shop", 0)).toEqual([
      { sequence: 1, change: { kind: "product", id: 1 } },
      { sequence: 2, change: { kind: "product", id: 2 } },
      { sequence: 3, change: { kind: "collection", id: 7 } },
      { sequence: 4, change: { kind: "product", id: 2 } },
      { sequence: 5, change: { kind: "collection", id: 7 } },
    ]);
    expect(store.catalogueChangesSince("shop", 3)?.map((entry) => entry.sequence)).toEqual([4, 5]);
    expect(store.catalogueChangesSince("shop", 5)).toEqual([]);
    expect(store.catalogueSequence("other")).toBe(1);
  });

  it("writes nothing to the log when a batch is invalid", async () => {
    await expect(ingest(store, "shop", "products", [product(1), { id: 2 }])).rejects.toThrow();
    expect(store.catalogueSequence("shop")).toBe(0);
    expect(store.catalogueChangesSince("shop", 0)).toEqual([]);
  });
});

describe("merchant search index", () => {
  it("patches itself from the change log, ranking exactly as a fresh build does", async () => {
    const next = random(42);
    const products = Array.from({ length: 80 }, (_, i) =>
      product(i + 1, { title: title(next), variants: [variant({ id: 1000 + i, sku: `S-${i}` })] }),
    );
    await ingest(store, "shop", "products", products);
    const index = searchIndexOf(store, "shop");
    expect(index.products.size).toBe(80);

    for (let step = 0; step < 60; step++) {
      const id = 1 + Math.floor(next() * 100);
      const roll = next();
      if (roll < 0.25) await store.deleteProduct("shop", id);
      else if (roll < 0.35) await ingest(store, "shop", "products", [product(id, { status: "draft" })]);
      else if (roll < 0.5)
        await ingest(store, "shop", "products", [
          product(id, { title: title(next), variants: [variant({ id: 5000 + id, inventory_quantity: 0 })] }),
        ]);
      else
        await ingest(store, "shop", "products", [
          product(id, { title: title(next), variants: [variant({ id: 5000 + id, sku: `T-${step}` })] }),
        ]);
    }
    const patched = searchIndexOf(store, "shop");
    // The same object: patched in place, not rebuilt.
    expect(patched).toBe(index);
    patched.products.refreshPriorsIfDrifted(true);
    const fresh = MerchantSearchIndex.build(store, "shop");
    expect(patched.products.size).toBe(fresh.products.size);
    for (const query of ["drill", "cordless dr", "18 in steel", "lantren ", "brass lantern kit", "copperpipe", "t-7", "s-3", "hose"]) {
      expect(ranking(patched, query), query).toEqual(ranking(fresh, query));
    }
  });

  it("rebuilds instead of patching when more changed than is worth patching", async () => {
    await ingest(store, "shop", "products", [product(1, { title: "Brass Lantern" })]);
    const index = searchIndexOf(store, "shop");
    await ingest(
      store,
      "shop",
      "products",
      Array.from({ length: 1_200 }, (_, i) => product(100 + i, { title: `Garden Hose ${i}`, variants: [variant({ id: 10_000 + i })] })),
    );
    const after = searchIndexOf(store, "shop");
    expect(after).not.toBe(index);
    expect(after.products.size).toBe(1_201);
  });

  it("warms up a slice at a time; what changes between slices ends up indexed as in a fresh build", async () => {
    const next = random(7);
    const products = Array.from({ length: 1_500 }, (_, i) =>
      product(i + 1, { title: title(next), variants: [variant({ id: 10_000 + i, sku: `W-${i}` })] }),
    );
    await ingest(store, "shop", "products", products);
    await ingest(store, "other", "products", [product(1, { title: "Copper Pipe" })]);

    // No time to spare: one slice per step.
    expect(warmSearchIndex(store, "shop", 0)).toEqual({ done: false, buildSeconds: null });
    // Changes behind the first slice and ahead of it.
    await store.deleteProduct("shop", 3);
    await ingest(store, "shop", "products", [
      product(5, { title: "Brass Lantern Kit" }),
      product(1_400, { title: "Garden Hose Reel" }),
      product(2_000, { title: "Cordless Drill Case" }),
    ]);
    await store.deleteProduct("shop", 1_300);
    let steps = 1;
    let step;
    do {
      step = warmSearchIndex(store, "shop", 0);
      steps++;
    } while (!step.done);
    // 1,499 products, a slice per step.
    expect(steps).toBeGreaterThan(3);
    expect(step.buildSeconds).toBeGreaterThan(0);
    // Later steps find the index complete; shoppers' tasks use that same index.
    expect(warmSearchIndex(store, "shop", 0)).toEqual({ done: true, buildSeconds: null });
    const warmed = searchIndexOf(store, "shop");
    expect(searchIndexOf(store, "shop")).toBe(warmed);

    warmed.products.refreshPriorsIfDrifted(true);
    const fresh = MerchantSearchIndex.build(store, "shop");
    expect(warmed.products.size).toBe(1_499);
    expect(warmed.products.has(3)).toBe(false);
    expect(warmed.products.has(1_300)).toBe(false);
    for (const query of ["brass lantern", "garden hose reel", "cordless drill case", "drill", "18 in steel", "w-7", "copper pipe"]) {
      expect(ranking(warmed, query), query).toEqual(ranking(fresh, query));
    }
  });

  it("finishes a warm-up under way when a shopper's search needs the index first", async () => {
    await ingest(
      store,
      "shop",
      "products",
      Array.from({ length: 1_100 }, (_, i) => product(i + 1, { title: `Garden Hose ${i}`, variants: [variant({ id: 10_000 + i })] })),
    );
    expect(warmSearchIndex(store, "shop", 0).done).toBe(false);
    expect(searchIndexOf(store, "shop").products.size).toBe(1_100);
    expect(warmSearchIndex(store, "shop", 0)).toEqual({ done: true, buildSeconds: null });
  });

  it("takes sales popularity from the stored top sellers, again whenever a refresh changed them", async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    await ingest(store, "shop", "products", [product(1), product(2)]);
    await ingest(store, "shop", "orders", [
      {
        id: 9,
        created_at: yesterday,
        customer: null,
        line_items: [{ product_id: 2, variant_id: 21, quantity: 5, price: "1.00" }],
        cancelled_at: null,
      },
    ]);
    const index = MerchantSearchIndex.build(store, "shop");
    const popularity = (id: number) => index.products.popularity(index.products.columns().products.indexOf(id));
    // No refresh has stored the rankings yet: no popularity.
    index.refreshPopularity(store);
    expect(popularity(2)).toBe(0);
    store.rankingWriter.refreshSync("shop", Date.now());
    index.refreshPopularity(store);
    expect(popularity(2)).toBe(1);
    expect(popularity(1)).toBe(0);
    await ingest(store, "shop", "orders", [
      {
        id: 10,
        created_at: yesterday,
        customer: null,
        line_items: [{ product_id: 1, variant_id: 11, quantity: 9, price: "1.00" }],
        cancelled_at: null,
      },
    ]);
    store.rankingWriter.refreshSync("shop", Date.now());
    index.refreshPopularity(store);
    expect(popularity(1)).toBe(1);
    expect(popularity(2)).toBeGreaterThan(0);
    expect(popularity(2)).toBeLessThan(1);
  });

  it("indexes vendor, product type, tags and variant titles behind the title", async () => {
    await ingest(store, "shop", "products", [
      product(1, {
        title: "Trail Jacket",
        vendor: "Northwind",
        product_type: "Outerwear",
        tags: "waterproof, hiking",
        variants: [variant({ id: 11, option1: "Crimson" })],
      }),
      product(2, { title: "Crimson Waterproof Northwind Outerwear Jacket" }),
    ]);
    const index = searchIndexOf(store, "shop");
    for (const query of ["northwind ", "outerwear ", "hiking ", "crimson "]) expect(ranking(index, query)).toContain(1);
    // A title match outranks the same word in the extras.
    expect(ranking(index, "crimson waterproof jacket ")[0]).toBe(2);
  });
});
