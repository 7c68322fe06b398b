// One query's reads of a merchant's stored search index, in the reading
// thread's snapshot: what the query planner and the ranker ask
// (src/core/search/index-view.ts). Between queries a thread keeps, per
// merchant, the dfs and typo candidates it read, while the index's versions
// of them stay the same: keystrokes repeat words (a rare word at every later
// keystroke of its query), and a product's title terms are read for its prior.
import { COMPLETION_LIST_LENGTH, LISTED_PREFIX_LENGTH, topCompletions } from "../core/search/completions.js";
import {
  AVAILABLE,
  chunkOf,
  DOC_CHUNK,
  docColumns,
  FLAGS_OFFSET,
  LIVE,
  popularityScale,
  slotOf,
  type DocColumns,
} from "../core/search/doc-columns.js";
import { boundedEditDistance } from "../core/search/edits.js";
import type { RankedDocument, RankingIndex } from "../core/search/index-view.js";
import { normaliseCode } from "../core/search/indexed-product.js";
import { readPostingBlock, type PostingBlock } from "../core/search/postings.js";
import { wordTypoKeys } from "../core/search/typo-keys.js";
import type { MerchantId } from "../core/types.js";
import { AFTER_EVERY_STRING, type SearchTables } from "./search-tables.js";

type NearTerm = { term: string; edits: number };

/** What a thread keeps of one merchant's index between queries. */
export interface ReaderCache {
  /** Typo candidates per word, as of SearchMeta.vocabulary. */
  vocabulary: number;
  nearTerms: Map<string, NearTerm[]>;
  /** Dfs, as of SearchMeta.frequencies. */
  frequencies: number;
  dfs: Map<string, number>;
}

export function emptyReaderCache(): ReaderCache {
  return { vocabulary: -1, nearTerms: new Map(), frequencies: -1, dfs: new Map() };
}

/** Entries each map of a ReaderCache holds at most; it is cleared when full. */
const NEAR_TERM_ENTRIES = 10_000;
const DF_ENTRIES = 50_000;

export class SearchIndexView implements RankingIndex {
  readonly size: number;
  readonly averageLength: number;
  readonly docCapacity: number;
  readonly popularityScale: number;

  constructor(
    private readonly tables: SearchTables,
    readonly merchant: MerchantId,
    private readonly cache: ReaderCache,
  ) {
    const meta = tables.metaOf(merchant);
    if (cache.vocabulary !== meta.vocabulary) {
      cache.vocabulary = meta.vocabulary;
      cache.nearTerms.clear();
    }
    if (cache.frequencies !== meta.frequencies) {
      cache.frequencies = meta.frequencies;
      cache.dfs.clear();
    }
    this.size = meta.size;
    this.averageLength = meta.size === 0 ? 1 : meta.totalLength / meta.size;
    this.docCapacity = meta.capacity;
    this.popularityScale = popularityScale(meta.ranked);
  }

  df(term: string): number {
    const { dfs } = this.cache;
    let df = dfs.get(term);
    if (df === undefined) {
      df = this.tables.df(this.merchant, term);
      if (dfs.size >= DF_ENTRIES) dfs.clear();
      dfs.set(term, df);
    }
    return df;
  }

  completions(prefix: string, max: number): string[] {
    const top =
      prefix.length <= LISTED_PREFIX_LENGTH
        ? (this.tables.completions.get([this.merchant, prefix]) ?? [])
        : topCompletions(this.tables.termsStartingWith(this.merchant, prefix), COMPLETION_LIST_LENGTH);
    return top
      .filter(({ term }) => term !== prefix)
      .slice(0, max)
      .map(({ term }) => term);
  }

  nearTerms(word: string, maxEdits: number): NearTerm[] {
    const { nearTerms } = this.cache;
    const key = `${maxEdits}:${word}`;
    let found = nearTerms.get(key);
    if (found === undefined) {
      found = this.lookUpNearTerms(word, maxEdits);
      if (nearTerms.size >= NEAR_TERM_ENTRIES) nearTerms.clear();
      nearTerms.set(key, found);
    }
    return found;
  }

  private lookUpNearTerms(word: string, maxEdits: number): NearTerm[] {
    const candidates = new Set<string>();
    for (const typoKey of wordTypoKeys(word, maxEdits)) {
      for (const key of this.tables.typoKeys.getKeys({
        start: [this.merchant, typoKey],
        end: [this.merchant, typoKey, AFTER_EVERY_STRING],
      })) {
        candidates.add(key[2] as string);
      }
    }
    const found: NearTerm[] = [];
    for (const term of candidates) {
      if (term === word || Math.abs(term.length - word.length) > maxEdits) continue;
      const edits = boundedEditDistance(word, term, maxEdits);
      if (edits <= maxEdits) found.push({ term, edits });
    }
    return found.sort((a, b) => (a.term < b.term ? -1 : 1));
  }

  productByCode(code: string): number | undefined {
    const normalised = normaliseCode(code);
    for (const key of this.tables.codes.getKeys({
      start: [this.merchant, normalised, AFTER_EVERY_STRING],
      end: [this.merchant, normalised],
      reverse: true,
      limit: 1,
    })) {
      return key[2] as number;
    }
    return undefined;
  }

  forEachPostingBlock(term: string, visit: (block: PostingBlock) => void): void {
    // Most terms fit their first block, read in place; the rest are read as a range.
    const first = this.tables.firstPostingBlock(this.merchant, term);
    if (first === undefined) return;
    const block = readPostingBlock(first);
    visit(block);
    if (block.count === this.df(term)) return;
    for (const bytes of this.tables.postingBlocks(this.merchant, term, 1)) visit(readPostingBlock(bytes));
  }

  columns(chunk: number): DocColumns | undefined {
    const bytes = this.tables.chunkInPlace(this.merchant, "ranking", chunk);
    return bytes && docColumns(bytes);
  }

  readProductIds(chunk: number, into: Float64Array): void {
    const bytes = this.tables.chunkInPlace(this.merchant, "products", chunk);
    const target = new Uint8Array(into.buffer, into.byteOffset, DOC_CHUNK * 8);
    if (bytes === undefined) target.fill(0);
    else target.set(bytes);
  }

  document(doc: number): RankedDocument {
    return this.tables.docs.get([this.merchant, doc])!;
  }

  /** Whether the product is indexed (published), and whether it can be bought: for candidates found by other means. */
  searchable(productId: number): { indexed: boolean; available: boolean } {
    const doc = this.tables.productDocs.get([this.merchant, productId]);
    if (doc === undefined) return { indexed: false, available: false };
    const bytes = this.tables.chunkInPlace(this.merchant, "ranking", chunkOf(doc));
    const flags = bytes === undefined ? 0 : bytes[FLAGS_OFFSET + slotOf(doc)]!;
    return { indexed: (flags & LIVE) !== 0, available: (flags & AVAILABLE) !== 0 };
  }
}
