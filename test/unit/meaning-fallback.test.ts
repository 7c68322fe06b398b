// Which quick-view queries the semantic fallback embeds at all: only those with
// a word, two different letters in a row; the rest get the lexical answer alone.
import { describe, expect, it } from "vitest";
import { mayHaveMeaning, withMeaningFallback } from "../../src/search/meaning-fallback.js";
import type { Store } from "../../src/stores/store.js";

describe("the semantic fallback's queries", () => {
  it("embeds queries with a word, in any case and script", () => {
    for (const query of ["sofa", "couch for two", "aa batteries", "12 in", "Éa", "ab"]) expect(mayHaveMeaning(query), query).toBe(true);
  });

  it("leaves out barcodes, numbers and held-down keys, in any case", () => {
    for (const query of ["9780000000001", "0000000000000", "12", "zzzzzz", "ZZZzzz", "aa", "a", "ÉÉÉ", "zz 99", ""])
      expect(mayHaveMeaning(query), query).toBe(false);
  });

  it("answers such a query with nothing, without reading the store or embedding it", async () => {
    const untouched = new Proxy({} as Store, {
      get: (_, name) => {
        throw new Error(`the store was read (${String(name)})`);
      },
    });
    const { semantic } = withMeaningFallback(untouched, "/nonexistent");
    expect(await semantic!("shop", "zzzzzz", 10)).toEqual([]);
    await expect(semantic!("shop", "sofa", 10)).rejects.toThrow(/the store was read/);
  });
});
