import { describe, expect, it } from "vitest";
import { DEFAULT_RANKING, planQuery } from "../../src/core/search/query-plan.js";
import { rankProducts } from "../../src/core/search/ranker.js";
import { ingest } from "../../src/ingest/ingest.js";
import { product, variant } from "../helpers/fixtures.js";
import { oracleOf, rankingsOf } from "../helpers/search-index.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-ranker-");

/** Furniture products of these ids, all of one title. */
const furniture = (ids: number[], title: string) => ids.map((id) => product(id, { title, product_type: "Furniture", tags: "" }));
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe("rankProducts", () => {
  it("counts the product an exact code finds among the k it returns", async () => {
    const store = await storeWithMerchant(tempDir());
    try {
      // A code that is also a word: it finds product 1 exactly, and the word finds the others.
      await ingest(
        store,
        "shop",
        "products",
        [1, 2, 3, 4].map((id) => product(id, { title: "mug", variants: [variant({ id: id * 10 + 1, sku: id === 1 ? "MUG" : "" })] })),
      );
      const index = store.searchIndex.view("shop");
      for (const k of [1, 2, 3]) {
        const ranked = rankProducts(index, planQuery(index, "mug"), { k, outOfStock: "last" });
        expect(ranked).toHaveLength(k);
        expect(ranked[0]).toBe(1);
      }
    } finally {
      await store.close();
    }
  });

  it("ranks a boosted product that matches fewer words by its boost, wherever its text score leaves it", async () => {
    const store = await storeWithMerchant(tempDir());
    try {
      // 20 products match all three words; 41 one of them, far below by text score; 200 none.
      await ingest(store, "shop", "products", [
        ...furniture(range(1, 20), "Red Linen Sofa"),
        ...furniture(range(100, 41), "Sofa Cover"),
        ...furniture(range(300, 200), "Oak Chair"),
      ]);
      const index = store.searchIndex.view("shop");
      const plan = planQuery(index, "red linen sofa ");
      // A boost larger than the gap in text score: the cover must come first, though its band would be left unread without it.
      const config = { ...DEFAULT_RANKING, boostWeight: 20 };
      const boosted = new Set([120]);
      const everything = rankProducts(index, plan, { k: 1000, outOfStock: "last", boosted }, config);
      expect(everything[0]).toBe(120);
      expect(rankProducts(index, plan, { k: 3, outOfStock: "last", boosted }, config)).toEqual(everything.slice(0, 3));
      expect(rankProducts(index, plan, { k: 3, outOfStock: "last" }, config)).not.toContain(120);
    } finally {
      await store.close();
    }
  });

  it("adds a common word's score to a rarer word's few products as the oracle does, looked up in its postings", async () => {
    const store = await storeWithMerchant(tempDir());
    try {
      // "mug" is in every product: with "red" having found more than k, it only adds to those,
      // and few enough that they are looked up in its postings rather than every posting read.
      const titles = (from: number, count: number, title: (i: number) => string) =>
        Array.from({ length: count }, (_, i) => product(from + i, { title: title(i), product_type: "Kitchen", tags: "" }));
      await ingest(store, "shop", "products", [
        ...titles(1, 6, (i) => (i % 2 === 0 ? "Red Mug" : "Red Enamel Mug Red")),
        ...titles(100, 500, (i) => (i % 3 === 0 ? "Mug" : `Stoneware Mug ${["Blue", "Green", "Grey"][i % 3]}`)),
      ]);
      const oracle = oracleOf(store, "shop");
      for (const k of [3, 5]) {
        const { stored, oracle: expected } = rankingsOf(store, "shop", oracle, "red mug ", { k, outOfStock: "last" });
        expect(stored).toEqual(expected);
        expect(stored).toHaveLength(k);
      }
    } finally {
      await store.close();
    }
  });

  it("bounds a product's adjacency by every alternative its title holds of each word, whichever is read last", async () => {
    const store = await storeWithMerchant(tempDir());
    try {
      // "dish washer" plans "dish" or the compound "dishwasher" for its first word, "washer" or the compound for its second.
      // Product 9's title says "Dish Washer" side by side and its tags hold the compound, read after "dish": its adjacency
      // must still count, so it leads the products whose titles hold both words apart.
      const titled = (id: number, title: string, tags = "") => product(id, { title, product_type: "Kitchen", tags });
      await ingest(store, "shop", "products", [
        titled(1, "Washer Dish Rack"),
        titled(2, "Dish Rack Washer"),
        titled(3, "Washer Rack Dish"),
        titled(9, "Dish Washer", "dishwasher"),
        ...Array.from({ length: 30 }, (_, i) => titled(100 + i, i % 2 === 0 ? "Dish Rack" : "Washer Rack")),
      ]);
      const oracle = oracleOf(store, "shop");
      for (const k of [1, 3]) {
        const { stored, oracle: expected } = rankingsOf(store, "shop", oracle, "dish washer", { k, outOfStock: "last" });
        expect(expected[0]).toBe(9);
        expect(stored).toEqual(expected);
      }
    } finally {
      await store.close();
    }
  });

  it("ranks a product whose words stand side by side by its adjacency, though it matches fewer words than the rest", async () => {
    const store = await storeWithMerchant(tempDir());
    try {
      // 20 products hold all three words, none two of them in the query's order; one holds two, side by side.
      await ingest(store, "shop", "products", [
        ...furniture(range(1, 20), "Sofa Linen Red"),
        ...furniture([120], "Red Linen Curtain"),
        ...furniture(range(300, 200), "Oak Chair"),
      ]);
      const index = store.searchIndex.view("shop");
      const plan = planQuery(index, "red linen sofa ");
      // An adjacency worth more than the gap in text score: the curtain must come first, though matching two words of
      // three puts its text score a band below the others', which a bound without its own adjacency would leave unread.
      const config = { ...DEFAULT_RANKING, adjacencyWeight: 20 };
      const everything = rankProducts(index, plan, { k: 1000, outOfStock: "last" }, config);
      expect(everything[0]).toBe(120);
      expect(rankProducts(index, plan, { k: 3, outOfStock: "last" }, config)).toEqual(everything.slice(0, 3));
      expect(rankProducts(index, plan, { k: 3, outOfStock: "last" })).not.toContain(120);
    } finally {
      await store.close();
    }
  });

  it("leaves nothing out unread when neither a prior, popularity nor a boost can add to a score", async () => {
    const store = await storeWithMerchant(tempDir());
    try {
      await ingest(store, "shop", "products", [...furniture([1], "Red Linen Sofa"), ...furniture([2, 3, 4, 5], "Red Chair")]);
      const index = store.searchIndex.view("shop");
      const plan = planQuery(index, "red linen");
      // Bands as wide as nothing: every doc must still be bounded, the one that holds both words first.
      const config = { ...DEFAULT_RANKING, priorWeight: 0, popularityWeight: 0 };
      const everything = rankProducts(index, plan, { k: 1000, outOfStock: "last" }, config);
      expect(everything[0]).toBe(1);
      expect(rankProducts(index, plan, { k: 4, outOfStock: "last" }, config)).toEqual(everything.slice(0, 4));
    } finally {
      await store.close();
    }
  });
});
