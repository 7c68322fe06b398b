import { describe, expect, it } from "vitest";
import { encodePostingBlock, readPostingBlock, type PostingBlock } from "../../src/core/search/postings.js";
import { PostingCache } from "../../src/stores/posting-cache.js";

const blockOf = (docs: number[]): PostingBlock =>
  readPostingBlock(
    encodePostingBlock(
      docs,
      docs.map((doc) => doc + 100),
      docs.map((doc) => doc % 7),
      0,
      docs.length,
    ),
  );

describe("PostingCache", () => {
  it("joins a term's blocks in order, growing past the postings expected, and keeps one version of each term", () => {
    const cache = new PostingCache(1 << 20);
    let reads = 0;
    const readBlocks = (visit: (block: PostingBlock) => void) => {
      reads++;
      for (const docs of [
        [1, 4, 9],
        [12, 13],
        [20, 31, 32, 40],
      ])
        visit(blockOf(docs));
    };
    const whole = cache.whole("shop", "mug", 7, 2, readBlocks);
    const docs = [1, 4, 9, 12, 13, 20, 31, 32, 40];
    expect(whole.count).toBe(docs.length);
    expect([...whole.docs.subarray(0, whole.count)]).toEqual(docs);
    expect([...whole.lengths.subarray(0, whole.count)]).toEqual(docs.map((doc) => doc + 100));
    expect([...whole.marks.subarray(0, whole.count)]).toEqual(docs.map((doc) => doc % 7));
    expect(cache.whole("shop", "mug", 7, 2, readBlocks)).toBe(whole);
    expect(reads).toBe(1);
    cache.whole("shop", "mug", 8, 2, readBlocks);
    cache.whole("other", "mug", 8, 2, readBlocks);
    expect(reads).toBe(3);
    expect(cache.whole("shop", "mug", 8, 2, readBlocks).count).toBe(docs.length);
    expect(reads).toBe(3);
    // One version of a term is kept: the one read last replaced the one before.
    cache.whole("shop", "mug", 7, 2, readBlocks);
    expect(reads).toBe(4);
  });

  it("keeps nothing with a budget of 0", () => {
    const cache = new PostingCache(0);
    // Nothing to keep: a reader reads a term's blocks in place instead.
    expect(cache.keeps).toBe(false);
    expect(new PostingCache(1 << 20).keeps).toBe(true);
    let reads = 0;
    const readBlocks = (visit: (block: PostingBlock) => void) => {
      reads++;
      visit(blockOf([3, 5]));
    };
    expect(cache.whole("shop", "mug", 1, 2, readBlocks).count).toBe(2);
    expect(cache.whole("shop", "mug", 1, 2, readBlocks).count).toBe(2);
    expect(reads).toBe(2);
  });
});
