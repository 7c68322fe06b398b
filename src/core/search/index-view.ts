// What planning and ranking a query read of a search index, whatever keeps it:
// the stored index (src/stores/search-index-view.ts) answers these reads.
import type { DocBounds } from "./doc-columns.js";
import type { LeaderReads } from "./leaders.js";
import type { PostingBlock } from "./postings.js";

/** What a query plan reads: the dictionary's document frequencies, completions and typo candidates. */
export interface TermStats {
  /** Products in the index. */
  readonly size: number;
  /** Products holding the term; 0 for a term not in use. */
  df(term: string): number;
  /**
   * Up to `max` terms in use that start with `prefix`, other than `prefix`
   * itself, most frequent first, ties alphabetical. `max` is at most
   * COMPLETION_LIST_LENGTH − 1.
   */
  completions(prefix: string, max: number): string[];
  /** Terms in use that share `word`'s first letter and are within `maxEdits` edits of it (see boundedEditDistance), other than `word`. */
  nearTerms(word: string, maxEdits: number): { term: string; edits: number }[];
}

/** A doc as the last stage of ranking reads it. */
export interface RankedDocument {
  productId: number;
  /** The title's terms in order, repeats kept. */
  titleTerms: readonly string[];
}

/** What the ranker reads besides the plan's reads. */
export interface RankingIndex extends TermStats {
  /** Mean length of the indexed products (1 when there are none). */
  readonly averageLength: number;
  /** Every doc number in use is below this. */
  readonly docCapacity: number;
  /** What popularityOf divides by (popularityScale of the ranked products). */
  readonly popularityScale: number;
  /** The product holding this SKU or barcode; the highest id when several do. */
  productByCode(code: string): number | undefined;
  /** Calls `visit` with each block of the term's postings; a block is valid only during its call, which must read nothing else. */
  forEachPostingBlock(term: string, visit: (block: PostingBlock) => void): void;
  /** A chunk's bounds (see doc-columns.ts), valid until the next read of the index; undefined when no doc of it was ever used. */
  bounds(chunk: number): DocBounds | undefined;
  /** Copies the product id of each doc of a chunk into `into` (0 for a free doc). */
  readProductIds(chunk: number, into: Float64Array): void;
  /** One doc's product and title terms. */
  document(doc: number): RankedDocument;
  /** A product's exact sales popularity (popularityOf). */
  popularity(productId: number): number;
  /** The leader lists (leaders.ts) and the docs written since they were built; null when the index has none to use now. */
  leaders(): LeaderReads | null;
}
