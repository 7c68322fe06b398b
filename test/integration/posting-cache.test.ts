import { describe, expect, it } from "vitest";
import { POSTING_BLOCK_MAX, type PostingBlock } from "../../src/core/search/postings.js";
import { ingest } from "../../src/ingest/ingest.js";
import { product } from "../helpers/fixtures.js";
import { Store } from "../../src/stores/store.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-posting-cache-");

/** Each posting of the term as a view of the merchant's index reads it: doc, length and mark. */
function postingsOf(store: Store, term: string): string[] {
  const postings: string[] = [];
  store.searchIndex.view("shop").forEachPostingBlock(term, (block: PostingBlock) => {
    for (let i = 0; i < block.count; i++) postings.push(`${block.docs[i]}:${block.lengths[i]}:${block.marks[i]}`);
  });
  return postings;
}

describe("a thread's cache of common terms' postings", () => {
  it("gives a term of several blocks as stored, and after each write what the write left", async () => {
    // A pool worker's cache as AISLE_SEARCH_CACHE_MB=32 gives it.
    const store = Store.open(tempDir(), { searchCacheBytes: 32 * 1024 * 1024 });
    await store.catalogue.createMerchant(storedMerchant("shop"));
    try {
      const count = POSTING_BLOCK_MAX + 300;
      const mugs = (from: number, title: string) =>
        Array.from({ length: count }, (_, i) => product(from + i, { title, product_type: "Kitchen", tags: "" }));
      await ingest(store, "shop", "products", mugs(1, "Stoneware Mug"));
      const first = postingsOf(store, "mug");
      expect(first).toHaveLength(count);
      // Read twice: the second from the cache, the same.
      expect(postingsOf(store, "mug")).toEqual(first);

      // Longer titles change every posting's length, and a repeated word its mark: the cache must not give the old ones.
      await ingest(store, "shop", "products", mugs(1, "Tall Stoneware Mug Mug"));
      const rewritten = postingsOf(store, "mug");
      expect(rewritten).toHaveLength(count);
      expect(rewritten).not.toEqual(first);
      // Length 6: four title terms, the vendor and the product type; mark 5: twice in the title (4), the head noun (1).
      expect(new Set(rewritten.map((posting) => posting.split(":").slice(1).join(":")))).toEqual(new Set(["6:5"]));

      await ingest(store, "shop", "products", [product(count + 1, { title: "Enamel Mug", product_type: "Kitchen", tags: "" })]);
      expect(postingsOf(store, "mug")).toHaveLength(count + 1);
    } finally {
      await store.close();
    }
  });
});
