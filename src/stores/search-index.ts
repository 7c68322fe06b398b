// Quick-view search's index, stored: the term dictionary with document
// frequencies, postings in blocks read in place, per doc its terms and the
// columns the ranker reads (availability, sales popularity, the prior's
// bounds), codes, completion lists, typo keys and collection titles.
//
// Written in the transaction of every catalogue write that changes what is
// indexed (products, collections), so it never disagrees with the catalogue,
// also across a crash; sales popularity follows the stored top-sellers list in
// the transaction that replaces it (the ranking writer, on the applier
// thread). Rebuilt from the catalogue when a data dir lacks it (DerivedBuild).
// Read by pool workers (src/search/quick-view.ts) and evaluations through
// SearchIndexView; opened by Store (src/stores/store.ts).
import type { RootDatabase } from "lmdb";
import { docBounds, rankSteps, slotOf } from "../core/search/doc-columns.js";
import { indexedProduct } from "../core/search/indexed-product.js";
import { DEFAULT_LEADERS, type LeaderSettings } from "../core/search/leaders.js";
import { searchDocument } from "../core/search/search-document.js";
import type { Collection, MerchantId, Product } from "../core/types.js";
import type { DerivedBuild } from "./derived-builds.js";
import { merchantRange } from "./merchant-keys.js";
import { ChunkEdits, SearchIndexWrite } from "./search-index-write.js";
import { PostingCache } from "./posting-cache.js";
import { ReaderCache, SearchIndexView } from "./search-index-view.js";
import { SearchLeaders } from "./search-leaders.js";
import { EMPTY_META, searchKeysOf, SearchTables } from "./search-tables.js";

/** The catalogue and ranking reads the index is derived from. */
export interface SearchSource {
  product(merchant: MerchantId, id: number): Product | undefined;
  productIdsAfter(merchant: MerchantId, after: number | null, limit: number): number[];
  collectionsOf(merchant: MerchantId): Collection[];
  /** The shop's top sellers over the default window, as stored: sales popularity follows it. */
  topSellers(merchant: MerchantId): Iterable<number>;
}

/**
 * Work per slice of a rebuild, in the applier's transaction, at most: each
 * slice also commits its cursor, which costs milliseconds on a busy disk.
 */
const BUILD_SLICE_MS = 20;
const BUILD_SLICE_PRODUCTS = 512;
/** Products indexed per write of a rebuild, between looks at the clock. */
const BUILD_BATCH = 64;
/** Ranks copied between looks at the clock. */
const RANK_BATCH = 1_024;

export class SearchIndexStore implements DerivedBuild {
  readonly name = "search_index";
  readonly layout = 1;
  private readonly tables: SearchTables;
  /** The leader lists' one writer (the applier's ranking job runs its builds). */
  readonly leaders: SearchLeaders;
  /** This thread's caches of each merchant's index (the store instance is the thread's). */
  private readonly readerCaches = new Map<MerchantId, ReaderCache>();
  /** This thread's cache of common terms' postings, all merchants'. */
  private readonly postingCache: PostingCache;

  constructor(
    root: RootDatabase,
    private readonly source: SearchSource,
    /** Called in the transaction that completes a merchant's rebuild: answers cached from a partial index go stale. */
    private readonly built: (merchant: MerchantId) => void,
    private readonly leaderSettings: LeaderSettings = DEFAULT_LEADERS,
    postingCacheBytes = 0,
  ) {
    this.postingCache = new PostingCache(postingCacheBytes);
    this.tables = new SearchTables(root);
    this.leaders = new SearchLeaders(root, this.tables, leaderSettings);
  }

  // ── reads ──

  /** The merchant's index as this thread's snapshot has it, for one query. */
  view(merchant: MerchantId): SearchIndexView {
    let cache = this.readerCaches.get(merchant);
    if (cache === undefined) this.readerCaches.set(merchant, (cache = new ReaderCache()));
    return new SearchIndexView(this.tables, merchant, cache, this.postingCache, this.leaderSettings);
  }

  /** The merchant's collections and their titles, in id order. */
  collectionTitles(merchant: MerchantId): { id: number; title: string }[] {
    return [...this.tables.collectionTitles.getRange(merchantRange(merchant))].map(({ key, value }) => ({
      id: key[1] as number,
      title: value,
    }));
  }

  // ── writes, in the caller's transaction ──

  /** After the products were written. */
  writeProducts(merchant: MerchantId, products: readonly Product[]): void {
    const write = new SearchIndexWrite(this.tables, merchant);
    for (const product of products) {
      const indexed = indexedProduct(product);
      if (indexed === null) write.remove(product.id);
      else write.upsert(searchDocument(indexed));
    }
    write.commit();
  }

  removeProduct(merchant: MerchantId, id: number): void {
    const write = new SearchIndexWrite(this.tables, merchant);
    write.remove(id);
    write.commit();
  }

  writeCollections(merchant: MerchantId, collections: readonly Collection[]): void {
    for (const { id, title } of collections) this.tables.collectionTitles.put([merchant, id], title);
  }

  removeCollection(merchant: MerchantId, id: number): void {
    this.tables.collectionTitles.remove([merchant, id]);
  }

  /**
   * Sales popularity follows the shop's default-window top sellers from
   * `previous` to `next` (product ids in rank order), in the transaction that
   * stores `next`: only the products whose rank changed are written.
   */
  followTopSellers(merchant: MerchantId, previous: Float64Array, next: Float64Array): void {
    const moved = new Map<number, number>();
    for (let rank = 0; rank < next.length; rank++) if (previous[rank] !== next[rank]) moved.set(next[rank]!, rank);
    const gone: number[] = [];
    for (let rank = 0; rank < previous.length; rank++) {
      const id = previous[rank]!;
      if (next[rank] !== id && !moved.has(id)) gone.push(id);
    }
    const bounds = new ChunkEdits(this.tables, merchant, "bounds");
    for (const [id, rank] of moved) this.setRank(merchant, id, rank, bounds);
    for (const id of gone) this.setRank(merchant, id, undefined, bounds);
    const boundsChanged = bounds.write();
    const meta = this.tables.metaOf(merchant);
    if (moved.size > 0 || gone.length > 0)
      this.tables.meta.put(merchant, {
        ...meta,
        ranked: next.length,
        ranks: meta.ranks + 1,
        columns: meta.columns + (boundsChanged ? 1 : 0),
      });
  }

  /** The product's rank (undefined: not ranked), kept by product and in its doc's bounds when it is indexed. */
  private setRank(merchant: MerchantId, productId: number, rank: number | undefined, bounds: ChunkEdits): void {
    if (rank === undefined) this.tables.ranks.remove([merchant, productId]);
    else this.tables.ranks.put([merchant, productId], rank);
    const doc = this.tables.productDocs.get([merchant, productId]);
    if (doc !== undefined) docBounds(bounds.edit(doc)).rankSteps[slotOf(doc)] = rankSteps(rank);
  }

  // ── rebuild (DerivedBuild) ──

  clear(merchant: MerchantId): void {
    for (const table of this.tables.merchantTables) {
      for (const key of table.getKeys(searchKeysOf(merchant))) table.remove(key);
    }
    this.tables.leaderBuilds.remove(merchant);
    // The versions go on: what readers cached against earlier ones must not pass for the rebuild's.
    const { vocabulary, frequencies, documents, ranks, columns, changes } = this.tables.metaOf(merchant);
    this.tables.meta.put(merchant, {
      ...EMPTY_META,
      vocabulary: vocabulary + 1,
      frequencies: frequencies + 1,
      documents: documents + 1,
      ranks: ranks + 1,
      columns: columns + 1,
      changes: changes + 1,
    });
  }

  /**
   * Slices of BUILD_SLICE_MS at most: first the ranks of the stored top
   * sellers (cursor null, then minus the next rank), then the products in id
   * order, BUILD_SLICE_PRODUCTS at most, through the writes a catalogue write
   * makes (cursor: the last product id indexed, 0 before the first), then the
   * collection titles.
   */
  buildSlice(merchant: MerchantId, cursor: number | null): number | null {
    const deadline = performance.now() + BUILD_SLICE_MS;
    if (cursor === null || cursor < 0) return this.buildRanks(merchant, cursor === null ? 0 : -cursor, deadline);
    let after = cursor;
    for (let written = 0; ; written += BUILD_BATCH) {
      const ids = this.source.productIdsAfter(merchant, after, BUILD_BATCH);
      this.writeProducts(
        merchant,
        ids.map((id) => this.source.product(merchant, id)!),
      );
      if (ids.length < BUILD_BATCH) break;
      after = ids[ids.length - 1]!;
      if (written + BUILD_BATCH >= BUILD_SLICE_PRODUCTS || performance.now() >= deadline) return after;
    }
    this.writeCollections(merchant, this.source.collectionsOf(merchant));
    this.built(merchant);
    return null;
  }

  /** Copies ranks from position `from` on; returns the cursor of the next slice (0: the products' first). */
  private buildRanks(merchant: MerchantId, from: number, deadline: number): number {
    const bounds = new ChunkEdits(this.tables, merchant, "bounds");
    let rank = 0;
    let next = 0;
    for (const id of this.source.topSellers(merchant)) {
      if (rank >= from) {
        this.setRank(merchant, id, rank, bounds);
        if ((rank + 1 - from) % RANK_BATCH === 0 && performance.now() >= deadline) {
          next = -(rank + 1);
          break;
        }
      }
      rank++;
    }
    const boundsChanged = bounds.write();
    const meta = this.tables.metaOf(merchant);
    this.tables.meta.put(merchant, {
      ...meta,
      ranked: next === 0 ? rank : meta.ranked,
      ranks: meta.ranks + 1,
      columns: meta.columns + (boundsChanged ? 1 : 0),
    });
    return next;
  }
}
