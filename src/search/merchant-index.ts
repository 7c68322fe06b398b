// A worker's search index of one merchant: built from the store on first use,
// then patched from the catalogue change log (only the products and collections
// that changed), so an update costs microseconds instead of a rebuild.
import { indexedProduct } from "../core/search/indexed-product.js";
import { LexicalIndex } from "../core/search/lexical-index.js";
import type { MerchantId } from "../core/types.js";
import { topSellers } from "../recs/sales-rankings.js";
import type { Store } from "../stores/store.js";
import { CollectionIndex } from "./collection-index.js";

/** Popularity comes from units sold over this window. */
export const POPULARITY_DAYS = 90;

/** More pending changes than this share of the catalogue: rebuilding is cheaper than patching. */
const REBUILD_SHARE = 0.25;

export class MerchantSearchIndex {
  readonly products = new LexicalIndex();
  readonly collections = new CollectionIndex();
  /** Change log sequence this index reflects. */
  sequence = 0;
  /** Rankings by query, valid for one index version (see LexicalIndex.version). */
  private readonly rankings = new Map<string, number[]>();
  private rankingsVersion = -1;
  private popularitySource: readonly number[] | null = null;

  constructor(readonly merchant: MerchantId) {}

  /** Reads the whole catalogue; `sequence` is read in the same snapshot, so no change is missed or applied twice. */
  static build(store: Store, merchant: MerchantId): MerchantSearchIndex {
    const built = new MerchantSearchIndex(merchant);
    built.sequence = store.catalogueSequence(merchant);
    for (const id of store.productIds(merchant)) built.applyProduct(store, id);
    for (const collection of store.collectionsOf(merchant)) built.collections.upsert(collection.id, collection.title);
    built.products.refreshPriorsIfDrifted();
    return built;
  }

  /** Applies the changes logged since this index was built; false when they are too many (rebuild instead). */
  catchUp(store: Store): boolean {
    const latest = store.catalogueSequence(this.merchant);
    if (latest === this.sequence) return true;
    // A log behind the index is another log (a restored data dir): trust nothing.
    if (latest < this.sequence) return false;
    if (latest - this.sequence > Math.max(1_000, this.products.size * REBUILD_SHARE)) return false;
    const changes = store.catalogueChangesSince(this.merchant, this.sequence);
    if (changes === null) return false;
    for (const { sequence, change } of changes) {
      if (change.kind === "product") this.applyProduct(store, change.id);
      else this.applyCollection(store, change.id);
      this.sequence = sequence;
    }
    this.sequence = latest;
    this.products.refreshPriorsIfDrifted();
    return true;
  }

  /** Sales popularity from the shared top-seller ranking (memoised per worker): rank 1 → 1, fading by log rank. */
  refreshPopularity(store: Store, now: number): void {
    const ranked = topSellers(store, this.merchant, now, POPULARITY_DAYS);
    if (ranked === this.popularitySource) return;
    this.popularitySource = ranked;
    const scale = Math.log(1 + ranked.length);
    const popularity = new Map<number, number>();
    ranked.forEach((id, rank) => popularity.set(id, 1 - Math.log(1 + rank) / scale));
    this.products.setPopularity(popularity);
  }

  /** A ranking computed earlier for the same query on the same index version, if any. */
  cachedRanking(key: string): number[] | undefined {
    if (this.rankingsVersion !== this.products.version) return undefined;
    return this.rankings.get(key);
  }

  rememberRanking(key: string, ranked: number[]): void {
    if (this.rankingsVersion !== this.products.version) {
      this.rankings.clear();
      this.rankingsVersion = this.products.version;
    }
    // Keystroke prefixes repeat across shoppers; a bounded map keeps the recent ones.
    if (this.rankings.size >= MAX_CACHED_RANKINGS) this.rankings.delete(this.rankings.keys().next().value!);
    this.rankings.set(key, ranked);
  }

  private applyProduct(store: Store, id: number): void {
    const product = store.product(this.merchant, id);
    const indexed = product ? indexedProduct(product) : null;
    if (indexed) this.products.upsert(indexed);
    else this.products.remove(id);
  }

  private applyCollection(store: Store, id: number): void {
    const collection = store.collection(this.merchant, id);
    if (collection) this.collections.upsert(collection.id, collection.title);
    else this.collections.remove(id);
  }
}

const MAX_CACHED_RANKINGS = 5_000;

/** Per store (a thread opens one; tests and evaluations open several), per merchant. */
const indexes = new WeakMap<Store, Map<MerchantId, MerchantSearchIndex>>();

/** This thread's search index of a merchant, up to date with the catalogue of the current snapshot. */
export function searchIndexOf(store: Store, merchant: MerchantId): MerchantSearchIndex {
  let perMerchant = indexes.get(store);
  if (!perMerchant) {
    perMerchant = new Map();
    indexes.set(store, perMerchant);
  }
  let index = perMerchant.get(merchant);
  if (!index || !index.catchUp(store)) {
    index = MerchantSearchIndex.build(store, merchant);
    perMerchant.set(merchant, index);
  }
  return index;
}

/**
 * Builds a merchant's index as a worker would, timing it and measuring the JS
 * heap it adds (exact when Node runs with --expose-gc, approximate otherwise).
 */
export function measuredIndexBuild(store: Store, merchant: MerchantId): { index: MerchantSearchIndex; buildMs: number; heapMb: number; exactHeap: boolean } {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const index = searchIndexOf(store, merchant);
  const buildMs = performance.now() - started;
  collect?.();
  return { index, buildMs, heapMb: (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024, exactHeap: collect !== undefined };
}
