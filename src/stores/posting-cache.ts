// A thread's bounded cache of common terms' postings, each term's blocks
// copied into one. A keystroke in a big shop reads the postings of a common
// word and of its last word's completions whole (the ranker adds their scores
// to the candidates rarer words brought), and the next keystroke reads the same
// ones again: at a million products, "s" and its completions hold 800,000
// postings in 800 blocks, and reading them from LMDB (two lookups and a copy
// of 10 KB each) costs more than scoring them. A term's entry holds its
// postings as of the index's documents version, which every write that changes
// a posting moves: a read under another version reads the term again and
// replaces the entry, so the cache holds one version of each term at most.
import { GenerationalCache } from "../core/generational-cache.js";
import type { PostingBlock } from "../core/search/postings.js";
import type { MerchantId } from "../core/types.js";

/** What a posting costs: its doc and length (4 bytes each) and mark (2). */
const POSTING_BYTES = 10;

/** What a term's entry costs beyond its postings: three typed arrays, their backing stores, the block and Map entries. */
const ENTRY_BYTES = 400;

/** A term's postings, and the documents version they were read under. */
interface Entry {
  documents: number;
  block: PostingBlock;
}

export class PostingCache {
  /** null: nothing is kept (a budget of 0). */
  private readonly cache: GenerationalCache<Entry> | null;

  /** Whether terms are kept: without, a reader reads a term's blocks in place rather than through `whole`. */
  get keeps(): boolean {
    return this.cache !== null;
  }

  /** `budgetBytes`: both generations together (AISLE_SEARCH_CACHE_MB for a pool worker); 0 keeps nothing. */
  constructor(budgetBytes: number) {
    this.cache =
      budgetBytes === 0 ? null : new GenerationalCache<Entry>(budgetBytes / 2, ({ block }) => block.count * POSTING_BYTES + ENTRY_BYTES);
  }

  /** The term's postings as of the documents version, from the cache or read (`readBlocks` calls its visitor with each block, in doc order). */
  whole(
    merchant: MerchantId,
    term: string,
    documents: number,
    expected: number,
    readBlocks: (visit: (block: PostingBlock) => void) => void,
  ): PostingBlock {
    if (this.cache === null) return concatenated(expected, readBlocks);
    const group = `${merchant}\u0000${term}`;
    const cached = this.cache.get(group, 0);
    if (cached?.documents === documents) return cached.block;
    const block = concatenated(expected, readBlocks);
    this.cache.set(group, 0, { documents, block });
    return block;
  }
}

/** The blocks `readBlocks` gives, copied into one, sized for `expected` postings (grown if there are more). */
function concatenated(expected: number, readBlocks: (visit: (block: PostingBlock) => void) => void): PostingBlock {
  let whole = emptyBlock(expected);
  readBlocks(({ count, docs, lengths, marks }) => {
    if (whole.count + count > whole.docs.length) whole = grown(whole, (whole.count + count) * 2);
    whole.docs.set(docs.subarray(0, count), whole.count);
    whole.lengths.set(lengths.subarray(0, count), whole.count);
    whole.marks.set(marks.subarray(0, count), whole.count);
    whole.count += count;
  });
  return whole;
}

function emptyBlock(capacity: number): PostingBlock {
  return { count: 0, docs: new Uint32Array(capacity), lengths: new Uint32Array(capacity), marks: new Uint16Array(capacity) };
}

function grown(block: PostingBlock, capacity: number): PostingBlock {
  const bigger = emptyBlock(capacity);
  bigger.docs.set(block.docs.subarray(0, block.count));
  bigger.lengths.set(block.lengths.subarray(0, block.count));
  bigger.marks.set(block.marks.subarray(0, block.count));
  bigger.count = block.count;
  return bigger;
}
