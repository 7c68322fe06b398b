// The LMDB tables of the stored search index (src/stores/search-index.ts) and
// how each is keyed: every key starts with the merchant, so each merchant's
// entries are one range of each table.
import type { Database, RootDatabase } from "lmdb";
import { createHash } from "node:crypto";
import type { Completion } from "../core/search/completions.js";
import { DOC_BOUNDS_BYTES, DOC_GRIDS_BYTES, DOC_PRODUCTS_BYTES } from "../core/search/doc-columns.js";
import type { MerchantId } from "../core/types.js";
import type { Key } from "./merchant-keys.js";

/** A merchant's totals, read once per query. */
export interface SearchMeta {
  /** Products indexed. */
  size: number;
  /** Their lengths summed (BM25's average length). */
  totalLength: number;
  /** Every doc number in use is below this. */
  capacity: number;
  /** Products in the top-sellers ranking popularity follows. */
  ranked: number;
  /** Moves whenever a term comes into use or goes out of it: typo candidates cached against it hold until then. */
  vocabulary: number;
  /** Moves whenever a term's df changes: dfs cached against it hold until then. */
  frequencies: number;
  /** Moves whenever a doc is written or freed. */
  documents: number;
  /** Moves whenever a product's rank changes. */
  ranks: number;
  /** Moves whenever a doc's bounds (doc-columns.ts) change: written or freed docs, availability, ranks. */
  columns: number;
  /** Moves with every write that lists changed docs (changedDocs): written, freed, or bought again or no longer. */
  changes: number;
}

export const EMPTY_META: SearchMeta = {
  size: 0,
  totalLength: 0,
  capacity: 0,
  ranked: 0,
  vocabulary: 0,
  frequencies: 0,
  documents: 0,
  ranks: 0,
  columns: 0,
  changes: 0,
};

/** The last build of a merchant's leader lists (leaders.ts): the index's versions it read, and when. */
export interface LeaderBuild {
  /** SearchMeta.changes when it started: docs changed later are listed in changedDocs under a higher one. */
  changes: number;
  /** SearchMeta.ranks when it started. */
  ranks: number;
  builtAt: number;
  /** Moves with every build: what readers cached of the lists holds until then. */
  version: number;
}

/** A doc as stored: its product and its search document's terms and codes. */
export interface DocRecord {
  productId: number;
  titleTerms: string[];
  extraTerms: string[];
  head: string | null;
  codes: string[];
}

/** The kinds of doc-number chunks (doc-columns.ts): the ranker's bounds, the grid sums they are kept from, each doc's product id. */
export type ChunkKind = "bounds" | "grids" | "products";

/** The size of a whole chunk of each kind. */
export const CHUNK_BYTES: Readonly<Record<ChunkKind, number>> = {
  bounds: DOC_BOUNDS_BYTES,
  grids: DOC_GRIDS_BYTES,
  products: DOC_PRODUCTS_BYTES,
};

/** Terms whose UTF-8 is longer than this are keyed by a digest (LMDB keys are at most 1,978 bytes). */
const TERM_KEY_BYTES = 1_000;

/**
 * A term as keys name it: itself, or for an absurdly long one (a title of
 * characters that NFKD spells out) its first 200 characters and a digest,
 * the whole term then kept in its record. Terms never hold U+0000.
 */
export function termKey(term: string): string {
  if (term.length * 3 <= TERM_KEY_BYTES || Buffer.byteLength(term) <= TERM_KEY_BYTES) return term;
  return `${term.slice(0, 200)}\u0000${createHash("sha256").update(term).digest("hex")}`;
}

/** The end of the range of keys whose string starts with `prefix`: above every character's UTF-8. */
export const AFTER_EVERY_STRING = "\u{10ffff}";

/** Every key of one merchant in a search table, also those whose second element starts above U+FFFF. */
export function searchKeysOf(merchant: MerchantId): { start: Key; end: Key } {
  return { start: [merchant], end: [merchant, AFTER_EVERY_STRING] };
}

export class SearchTables {
  readonly meta: Database<SearchMeta, MerchantId>;
  /** [merchant, termKey(term)] → df as u32, then the whole term's UTF-8 when the key is a digest. */
  readonly terms: Database<Uint8Array, Key>;
  /** [merchant, termKey(term), lowest doc the block may hold] → a posting block (postings.ts); the first block's key is 0. */
  readonly postings: Database<Uint8Array, Key>;
  /** [merchant, doc] → DocRecord. */
  readonly docs: Database<DocRecord, Key>;
  /** [merchant, ChunkKind, chunk] → the chunk's columns of that kind (doc-columns.ts). */
  readonly chunks: Database<Uint8Array, Key>;
  /** [merchant, product id] → its doc. */
  readonly productDocs: Database<number, Key>;
  /** [merchant, doc] of docs freed by a delete: the lowest is used next. */
  readonly freeDocs: Database<true, Key>;
  /** [merchant, product id] → its 0-based rank in the shop's default-window top sellers. */
  readonly ranks: Database<number, Key>;
  /** [merchant, normalised code, product id]: the code's holders, highest id last. */
  readonly codes: Database<true, Key>;
  /** [merchant, prefix] → its first terms (completions.ts), for prefixes of up to LISTED_PREFIX_LENGTH characters. */
  readonly completions: Database<Completion[], Key>;
  /** [merchant, typo key, term] (typo-keys.ts). */
  readonly typoKeys: Database<true, Key>;
  /** [merchant, collection id] → its title, for data.collections. */
  readonly collectionTitles: Database<string, Key>;
  /** [merchant, termKey(term)] → the term's leader list (leaders.ts), a posting block. */
  readonly leaders: Database<Uint8Array, Key>;
  /**
   * [merchant, SearchMeta.changes of the write, doc] for each doc a write
   * wrote, freed, or made bought again or no longer: what a leader list built
   * before holds of it is stale. Pruned behind each build (SearchLeaders).
   */
  readonly changedDocs: Database<true, Key>;
  /** merchant → its last LeaderBuild. */
  readonly leaderBuilds: Database<LeaderBuild, MerchantId>;

  constructor(root: RootDatabase) {
    const structured = { encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") } as const;
    const binary = { encoding: "binary" } as const;
    this.meta = root.openDB({ name: "search_meta", ...structured });
    this.terms = root.openDB({ name: "search_terms", ...binary });
    this.postings = root.openDB({ name: "search_postings", ...binary });
    this.docs = root.openDB({ name: "search_docs", ...structured });
    this.chunks = root.openDB({ name: "search_doc_chunks", ...binary });
    this.productDocs = root.openDB({ name: "search_product_docs", ...structured });
    this.freeDocs = root.openDB({ name: "search_free_docs", ...structured });
    this.ranks = root.openDB({ name: "search_ranks", ...structured });
    this.codes = root.openDB({ name: "search_codes", ...structured });
    this.completions = root.openDB({ name: "search_completions", ...structured });
    this.typoKeys = root.openDB({ name: "search_typo_keys", ...structured });
    this.collectionTitles = root.openDB({ name: "search_collection_titles", ...structured });
    this.leaders = root.openDB({ name: "search_leaders", ...binary });
    this.changedDocs = root.openDB({ name: "search_changed_docs", ...structured });
    this.leaderBuilds = root.openDB({ name: "search_leader_builds", ...structured });
  }

  /** Every table keyed by merchant and more (all but meta). */
  get merchantTables(): Database<unknown, Key>[] {
    return [
      this.terms,
      this.postings,
      this.docs,
      this.chunks,
      this.productDocs,
      this.freeDocs,
      this.ranks,
      this.codes,
      this.completions,
      this.typoKeys,
      this.collectionTitles,
      this.leaders,
      this.changedDocs,
    ] as Database<unknown, Key>[];
  }

  /** The merchant's totals; versions a data dir's stored record predates start at 0. */
  metaOf(merchant: MerchantId): SearchMeta {
    const stored = this.meta.get(merchant);
    return stored === undefined ? EMPTY_META : { ...EMPTY_META, ...stored };
  }

  /** The term's df (0: not in use). */
  df(merchant: MerchantId, term: string): number {
    const bytes = this.terms.getBinaryFast([merchant, termKey(term)]);
    return bytes === undefined ? 0 : readU32(bytes);
  }

  /** Sets the term's df, removing its record at 0, in the caller's transaction. */
  setDf(merchant: MerchantId, term: string, df: number): void {
    const key = termKey(term);
    if (df === 0) {
      this.terms.remove([merchant, key]);
      return;
    }
    const text = key === term ? new Uint8Array(0) : Buffer.from(term);
    const bytes = new Uint8Array(4 + text.length);
    new DataView(bytes.buffer).setUint32(0, df, true);
    bytes.set(text, 4);
    this.terms.put([merchant, key], bytes);
  }

  /** Every term in use that starts with `prefix`, and its df. */
  *termsStartingWith(merchant: MerchantId, prefix: string): Generator<Completion> {
    for (const { key, value } of this.terms.getRange({ start: [merchant, prefix], end: [merchant, prefix + AFTER_EVERY_STRING] })) {
      const stored = key[1] as string;
      const term = value.length > 4 ? Buffer.from(value.buffer, value.byteOffset + 4, value.length - 4).toString() : stored;
      if (term.startsWith(prefix)) yield { term, df: readU32(value) };
    }
  }

  /**
   * A chunk's bytes, valid until the next read of this environment: lmdb's
   * shared read buffer, whose `length` lmdb sets to the value's own while the
   * array stays the buffer's size, hence the view.
   */
  chunkInPlace(merchant: MerchantId, kind: ChunkKind, chunk: number): Uint8Array | undefined {
    const bytes = this.chunks.getBinaryFast([merchant, kind, chunk]);
    return bytes?.subarray(0, bytes.length);
  }

  /** The term's first posting block, in place (see chunkInPlace). */
  firstPostingBlock(merchant: MerchantId, term: string): Uint8Array | undefined {
    const bytes = this.postings.getBinaryFast([merchant, termKey(term), 0]);
    return bytes?.subarray(0, bytes.length);
  }

  /** The term's leader list, in place (see chunkInPlace). */
  leaderBlock(merchant: MerchantId, term: string): Uint8Array | undefined {
    const bytes = this.leaders.getBinaryFast([merchant, termKey(term)]);
    return bytes?.subarray(0, bytes.length);
  }

  /** The term's posting blocks, in doc order: copies, each in its own buffer. */
  postingBlocks(merchant: MerchantId, term: string): Iterable<Uint8Array> {
    const key = termKey(term);
    return this.postings.getRange({ start: [merchant, key, 0], end: [merchant, key, AFTER_EVERY_STRING] }).map(({ value }) => value);
  }

  /** The term's posting blocks after the first, in doc order, each in place until the next one is read (see chunkInPlace). */
  *laterPostingBlocks(merchant: MerchantId, term: string): Generator<Uint8Array> {
    const key = termKey(term);
    for (const stored of this.postings.getKeys({ start: [merchant, key, 1], end: [merchant, key, AFTER_EVERY_STRING] })) {
      const bytes = this.postings.getBinaryFast(stored)!;
      yield bytes.subarray(0, bytes.length);
    }
  }
}

function readU32(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
}
