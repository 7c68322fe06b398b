import { describe, expect, it } from "vitest";
import { LexicalIndex } from "../../src/core/search/lexical-index.js";
import { planQuery } from "../../src/core/search/query-plan.js";
import { rankProducts } from "../../src/core/search/ranker.js";

describe("rankProducts", () => {
  it("counts the product an exact code finds among the k it returns", () => {
    const index = new LexicalIndex();
    // A code that is also a word: it finds product 1 exactly, and the word finds the others.
    for (const id of [1, 2, 3, 4]) index.upsert({ id, title: "mug", extras: [], codes: id === 1 ? ["MUG"] : [], available: true });
    for (const k of [1, 2, 3]) {
      const ranked = rankProducts(index, planQuery(index, "mug"), { k, outOfStock: "last" });
      expect(ranked).toHaveLength(k);
      expect(ranked[0]).toBe(1);
    }
  });
});
