import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { planQuery } from "../../src/core/search/query-plan.js";
import { rankProducts } from "../../src/core/search/ranker.js";
import { ingest } from "../../src/ingest/ingest.js";
import { Store } from "../../src/stores/store.js";
import { basketOrder, product, variant } from "../helpers/fixtures.js";
import { oracleOf, rankingsOf, rebuildSearchIndex, searchIndexDump } from "../helpers/search-index.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-search-index-");
let store: Store;

beforeEach(async () => {
  store = Store.open(tempDir());
  await store.catalogue.createMerchant(storedMerchant("shop"));
  await store.catalogue.createMerchant(storedMerchant("other"));
});

afterEach(async () => {
  await store.close();
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

function ranking(merchant: string, query: string): number[] {
  const index = store.searchIndex.view(merchant);
  return rankProducts(index, planQuery(index, query), { k: 50, outOfStock: "last" });
}

describe("stored search index", () => {
  it("is patched by every catalogue write, ranking exactly as a fresh build does", async () => {
    const next = random(42);
    const products = Array.from({ length: 80 }, (_, i) =>
      product(i + 1, { title: title(next), variants: [variant({ id: 1000 + i, sku: `S-${i}` })] }),
    );
    await ingest(store, "shop", "products", products);
    expect(store.searchIndex.view("shop").size).toBe(80);

    for (let step = 0; step < 60; step++) {
      const id = 1 + Math.floor(next() * 100);
      const roll = next();
      if (roll < 0.25) await store.catalogue.deleteProduct("shop", id);
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
    const queries = ["drill", "cordless dr", "18 in steel", "lantren ", "brass lantern kit", "copperpipe", "t-7", "s-3", "hose"];
    const patched = queries.map((query) => ranking("shop", query));
    const patchedIndex = searchIndexDump(store, "shop");
    await rebuildSearchIndex(store, "shop");
    expect(searchIndexDump(store, "shop")).toEqual(patchedIndex);
    queries.forEach((query, i) => expect(patched[i], query).toEqual(ranking("shop", query)));
  });

  it("is rebuilt a slice at a time; what changes between slices ends up indexed as in a fresh build", async () => {
    const next = random(7);
    const products = Array.from({ length: 1_500 }, (_, i) =>
      product(i + 1, { title: title(next), variants: [variant({ id: 10_000 + i, sku: `W-${i}` })] }),
    );
    await ingest(store, "shop", "products", products);
    await ingest(store, "other", "products", [product(1, { title: "Copper Pipe" })]);
    const other = searchIndexDump(store, "other");

    const build = store.searchIndex;
    await store.atomically(() => build.clear("shop"));
    // The ranks' slice and the first products' (a few hundred at most), then changes behind it and ahead of it, then the rest.
    let cursor = await store.atomically(() => build.buildSlice("shop", null));
    cursor = await store.atomically(() => build.buildSlice("shop", cursor));
    expect(cursor).toBeLessThan(1_000);
    await store.catalogue.deleteProduct("shop", 3);
    await ingest(store, "shop", "products", [
      product(5, { title: "Brass Lantern Kit" }),
      product(1_400, { title: "Garden Hose Reel" }),
      product(2_000, { title: "Cordless Drill Case" }),
    ]);
    await store.catalogue.deleteProduct("shop", 1_300);
    let slices = 2;
    while (cursor !== null) {
      cursor = await store.atomically(() => build.buildSlice("shop", cursor));
      slices++;
    }
    expect(slices).toBeGreaterThan(2);
    const built = searchIndexDump(store, "shop");
    expect(built.size).toBe(1_499);
    expect(built.docs[3]).toBeUndefined();
    expect(built.docs[1_300]).toBeUndefined();
    const queries = ["brass lantern", "garden hose reel", "cordless drill case", "drill", "18 in steel", "w-7", "copper pipe"];
    const rankings = queries.map((query) => ranking("shop", query));
    await rebuildSearchIndex(store, "shop");
    expect(searchIndexDump(store, "shop")).toEqual(built);
    queries.forEach((query, i) => expect(rankings[i], query).toEqual(ranking("shop", query)));
    // Another merchant's index is untouched.
    expect(searchIndexDump(store, "other")).toEqual(other);
  });

  it("ranks as the oracle does over many chunks of docs, again after stock changes (the bounds a thread keeps follow them)", async () => {
    const next = random(19);
    const stock = (id: number, inStock: boolean) =>
      product(id, { title: title(random(id)), variants: [variant({ id: 20_000 + id, inventory_quantity: inStock ? 5 : 0 })] });
    await ingest(
      store,
      "shop",
      "products",
      Array.from({ length: 2_600 }, (_, i) => stock(i + 1, next() < 0.8)),
    );
    const queries = ["drill", "copper pipe", "led light bulbs", "garden ", "br"];
    const expectOracle = () => {
      const oracle = oracleOf(store, "shop");
      for (const query of queries) {
        for (const outOfStock of ["last", "hide"] as const) {
          const { stored, oracle: expected } = rankingsOf(store, "shop", oracle, query, { k: 20, outOfStock });
          expect(stored, `${query} (${outOfStock})`).toEqual(expected);
        }
      }
    };
    expectOracle();
    // What led each query goes out of stock, in every chunk: only the docs' bounds change.
    const leading = new Set(queries.flatMap((query) => ranking("shop", query).slice(0, 5)));
    await ingest(
      store,
      "shop",
      "products",
      [...leading].map((id) => stock(id, false)),
    );
    expectOracle();
  });

  it("takes sales popularity from the stored top sellers, again whenever a refresh changed them", async () => {
    await ingest(store, "shop", "products", [product(1), product(2)]);
    await ingest(store, "shop", "orders", [basketOrder(9, [2], 5)]);
    const popularity = (id: number) => store.searchIndex.view("shop").popularity(id);
    // No refresh has stored the rankings yet: no popularity.
    expect(popularity(2)).toBe(0);
    store.rankingWriter.refreshSync("shop", Date.now());
    expect(popularity(2)).toBe(1);
    expect(popularity(1)).toBe(0);
    await ingest(store, "shop", "orders", [basketOrder(10, [1], 9)]);
    store.rankingWriter.refreshSync("shop", Date.now());
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
    for (const query of ["northwind ", "outerwear ", "hiking ", "crimson "]) expect(ranking("shop", query)).toContain(1);
    // A title match outranks the same word in the extras.
    expect(ranking("shop", "crimson waterproof jacket ")[0]).toBe(2);
  });
});
