import { describe, expect, it } from "vitest";
import { planQuery } from "../../src/core/search/query-plan.js";
import { rankProducts } from "../../src/core/search/ranker.js";
import { ingest } from "../../src/ingest/ingest.js";
import { product, variant } from "../helpers/fixtures.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-ranker-");

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
});
