// One query's reads of a merchant's stored search index, in the reading
// thread's snapshot: what the query planner and the ranker ask
// (src/core/search/index-view.ts). Between queries a thread keeps, per
// merchant, some of what it read, while the index's versions of it stay the
// same: keystrokes repeat words (a rare word at every later keystroke of its
// query) and show the same products again.
import { COMPLETION_LIST_LENGTH, LISTED_PREFIX_LENGTH, topCompletions } from "../core/search/completions.js";
import {
  AVAILABLE,
  chunkOf,
  DOC_PRODUCTS_BYTES,
  docBounds,
  FLAGS_OFFSET,
  LIVE,
  popularityOf,
  popularityScale,
  slotOf,
  type DocBounds,
} from "../core/search/doc-columns.js";
import { boundedEditDistance } from "../core/search/edits.js";
import type { RankedDocument, RankingIndex } from "../core/search/index-view.js";
import type { LeaderReads, LeaderSettings, WrittenDoc } from "../core/search/leaders.js";
import { normaliseCode } from "../core/search/indexed-product.js";
import { POSTING_BLOCK_MAX, readPostingBlock, type PostingBlock } from "../core/search/postings.js";
import { documentLength, termMarks } from "../core/search/search-document.js";
import { wordTypoKeys } from "../core/search/typo-keys.js";
import type { MerchantId } from "../core/types.js";
import type { PostingCache } from "./posting-cache.js";
import { AFTER_EVERY_STRING, type SearchTables } from "./search-tables.js";

type NearTerm = { term: string; edits: number };

/** Values read from the index, kept while the index's version of them stays the same; cleared when full. */
class VersionedMap<K, V> {
  private version = -1;
  private readonly entries = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  /** Starts over when the index's version of these values moved. */
  follow(version: number): void {
    if (version === this.version) return;
    this.version = version;
    this.entries.clear();
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): V {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }
}

/** What a thread keeps of one merchant's index between queries, each part as of its version in SearchMeta. */
export class ReaderCache {
  /** Typo candidates per word, as of the vocabulary. */
  readonly nearTerms = new VersionedMap<string, NearTerm[]>(10_000);
  /** Dfs, as of the frequencies. */
  readonly dfs = new VersionedMap<string, number>(50_000);
  /** Docs' products and title terms, as of the documents. */
  readonly documents = new VersionedMap<number, RankedDocument>(20_000);
  /** Products' popularity, as of the ranks. */
  readonly popularity = new VersionedMap<number, number>(20_000);
  /**
   * Chunks of doc bounds, copied out of the store, as of the columns: a query
   * over a common word reads most of a big shop's chunks (5 MB at 1M products),
   * and the next keystroke reads them again.
   */
  readonly bounds = new VersionedMap<number, DocBounds | null>(4_096);
  /** The docs changed since the last leader build, as of the changes and that build (null: too many to use the lists). */
  changedDocs: { key: string; docs: { changed: Set<number>; written: WrittenDoc[] } | null } | undefined;
}

export class SearchIndexView implements RankingIndex {
  readonly size: number;
  readonly averageLength: number;
  readonly docCapacity: number;
  readonly popularityScale: number;
  /** The index's changes version this view reads. */
  private readonly changes: number;
  /** The index's documents version this view reads. */
  private readonly documents: number;

  constructor(
    private readonly tables: SearchTables,
    readonly merchant: MerchantId,
    private readonly cache: ReaderCache,
    private readonly postingCache: PostingCache,
    private readonly leaderSettings: LeaderSettings,
  ) {
    const meta = tables.metaOf(merchant);
    cache.nearTerms.follow(meta.vocabulary);
    cache.dfs.follow(meta.frequencies);
    cache.documents.follow(meta.documents);
    cache.popularity.follow(meta.ranks);
    cache.bounds.follow(meta.columns);
    this.changes = meta.changes;
    this.documents = meta.documents;
    this.size = meta.size;
    this.averageLength = meta.size === 0 ? 1 : meta.totalLength / meta.size;
    this.docCapacity = meta.capacity;
    this.popularityScale = popularityScale(meta.ranked);
  }

  df(term: string): number {
    return this.cache.dfs.get(term) ?? this.cache.dfs.set(term, this.tables.df(this.merchant, term));
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
    const key = `${maxEdits}:${word}`;
    return this.cache.nearTerms.get(key) ?? this.cache.nearTerms.set(key, this.lookUpNearTerms(word, maxEdits));
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
    // A term of several blocks is common: the next keystroke likely reads it again (posting-cache.ts).
    if (this.postingCache.keeps) {
      const df = this.df(term);
      if (df > POSTING_BLOCK_MAX) {
        visit(this.postingCache.whole(this.merchant, term, this.documents, df, (read) => this.readPostingBlocks(term, read)));
        return;
      }
    }
    this.readPostingBlocks(term, visit);
  }

  /** Calls `visit` with each stored block of the term's postings, in doc order, each in place during its call. */
  private readPostingBlocks(term: string, visit: (block: PostingBlock) => void): void {
    // Most terms fit their first block, read in place; the rest are read as a range.
    const first = this.tables.firstPostingBlock(this.merchant, term);
    if (first === undefined) return;
    const block = readPostingBlock(first);
    visit(block);
    if (block.count === this.df(term)) return;
    for (const bytes of this.tables.laterPostingBlocks(this.merchant, term)) visit(readPostingBlock(bytes));
  }

  bounds(chunk: number): DocBounds | undefined {
    const cached = this.cache.bounds.get(chunk);
    if (cached !== undefined) return cached ?? undefined;
    const bytes = this.tables.chunkInPlace(this.merchant, "bounds", chunk);
    // A copy (a Buffer's slice would be a view): the bytes read in place are valid only until the next read.
    return this.cache.bounds.set(chunk, bytes === undefined ? null : docBounds(new Uint8Array(bytes))) ?? undefined;
  }

  readProductIds(chunk: number, into: Float64Array): void {
    const bytes = this.tables.chunkInPlace(this.merchant, "products", chunk);
    const target = new Uint8Array(into.buffer, into.byteOffset, DOC_PRODUCTS_BYTES);
    if (bytes === undefined) target.fill(0);
    else target.set(bytes);
  }

  document(doc: number): RankedDocument {
    return this.cache.documents.get(doc) ?? this.cache.documents.set(doc, this.tables.docs.get([this.merchant, doc])!);
  }

  popularity(productId: number): number {
    const found = this.cache.popularity.get(productId);
    if (found !== undefined) return found;
    return this.cache.popularity.set(productId, popularityOf(this.tables.ranks.get([this.merchant, productId]), this.popularityScale));
  }

  leaders(): LeaderReads | null {
    if (this.size < this.leaderSettings.minShop) return null;
    const build = this.tables.leaderBuilds.get(this.merchant);
    if (build === undefined) return null;
    const key = `${this.changes}:${build.version}`;
    if (this.cache.changedDocs?.key !== key) this.cache.changedDocs = { key, docs: this.readChangedDocs(build.changes) };
    const docs = this.cache.changedDocs.docs;
    if (docs === null) return null;
    const { tables, merchant } = this;
    return {
      forEachLeader(term, visit) {
        const bytes = tables.leaderBlock(merchant, term);
        if (bytes === undefined) return false;
        visit(readPostingBlock(bytes));
        return true;
      },
      changed: docs.changed,
      written: docs.written,
    };
  }

  /** Docs changed since the leader build that read `built` changes, with the terms of those still indexed; null past the settings' maxChanged. */
  private readChangedDocs(built: number): { changed: Set<number>; written: WrittenDoc[] } | null {
    const changed = new Set<number>();
    const { maxChanged } = this.leaderSettings;
    // Entries, not docs, are counted (a doc changed twice is listed twice): past the bound either way, the lists are left aside.
    let entries = 0;
    for (const key of this.tables.changedDocs.getKeys({ start: [this.merchant, built + 1], end: [this.merchant, AFTER_EVERY_STRING] })) {
      if (++entries > maxChanged) return null;
      changed.add(key[2] as number);
    }
    const written: WrittenDoc[] = [];
    for (const doc of changed) {
      const record = this.tables.docs.get([this.merchant, doc]);
      if (record !== undefined) written.push({ doc, length: documentLength(record), marks: termMarks(record) });
    }
    return { changed, written };
  }

  /** Whether the product is indexed (published), and whether it can be bought: for candidates found by other means. */
  searchable(productId: number): { indexed: boolean; available: boolean } {
    const doc = this.tables.productDocs.get([this.merchant, productId]);
    if (doc === undefined) return { indexed: false, available: false };
    const bytes = this.tables.chunkInPlace(this.merchant, "bounds", chunkOf(doc));
    const flags = bytes === undefined ? 0 : bytes[FLAGS_OFFSET + slotOf(doc)]!;
    return { indexed: (flags & LIVE) !== 0, available: (flags & AVAILABLE) !== 0 };
  }
}
