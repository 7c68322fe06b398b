import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodePostingBlock, readPostingBlock, type PostingBlock } from "../../src/core/search/postings.js";
import { TouchedLookup } from "../../src/core/search/touched-lookup.js";

/** Doc numbers drawn below this: a term's postings cover much of it, so most touched docs are found in some. */
const CAPACITY = 1_500;

/** A term's postings as blocks in doc order, split at the given sizes in turn. */
function blocksOf(docs: number[], sizes: number[]): PostingBlock[] {
  const zeros = docs.map(() => 0);
  const blocks: PostingBlock[] = [];
  for (let from = 0, turn = 0; from < docs.length; turn++) {
    const to = Math.min(docs.length, from + sizes[turn % sizes.length]!);
    blocks.push(readPostingBlock(encodePostingBlock(docs, zeros, zeros, from, to)));
    from = to;
  }
  return blocks;
}

/** Sized in full (fast-check keeps arrays to a few entries by default): hundreds of docs, in many blocks. */
const docSetArb = (minLength: number, maxLength: number) =>
  fc.uniqueArray(fc.integer({ min: 0, max: CAPACITY - 1 }), { minLength, maxLength, size: "max" });

describe("TouchedLookup", () => {
  it("finds in a term's blocks exactly the touched docs they hold, and its bitset holds exactly the touched docs", () => {
    const lookup = new TouchedLookup();
    fc.assert(
      fc.property(
        docSetArb(0, 300),
        fc.array(docSetArb(0, 1_200), { minLength: 1, maxLength: 3 }),
        // Blocks of a few postings to hundreds: a term's touched docs lie in many of them.
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 6, size: "max" }),
        (touched, terms, sizes) => {
          // The same lookup, reused: what it held for the last case must not leak into this one.
          lookup.take(Int32Array.from(touched), touched.length, CAPACITY);
          const wanted = new Set(touched);
          for (const postings of terms) {
            const sorted = [...postings].sort((a, b) => a - b);
            const found: number[] = [];
            lookup.rewind();
            for (const block of blocksOf(sorted, sizes)) lookup.findIn(block, (position) => found.push(block.docs[position]!));
            expect(found).toEqual(sorted.filter((doc) => wanted.has(doc)));
          }
          const bits = lookup.bitset();
          const held = Array.from({ length: CAPACITY }, (_, doc) => doc).filter((doc) => ((bits[doc >>> 5]! >>> (doc & 31)) & 1) === 1);
          expect(held).toEqual([...wanted].sort((a, b) => a - b));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("gallops only where it reads less than a scan: few docs among many postings", () => {
    const lookup = new TouchedLookup();
    lookup.take(
      Int32Array.from({ length: 100 }, (_, i) => i * 7),
      100,
      1_000_000,
    );
    expect(lookup.gallopPays(1_000_000)).toBe(true);
    expect(lookup.gallopPays(1_000)).toBe(false);
    lookup.take(new Int32Array(0), 0, 1_000_000);
    expect(lookup.gallopPays(10)).toBe(true);
  });
});
