// A worker's search index of one merchant: built from the store on first use,
// then patched from the catalogue change log (only the products and collections
// that changed), so an update costs microseconds instead of a rebuild.
import { indexedProduct } from "../core/search/indexed-product.js";
import { LexicalIndex } from "../core/search/lexical-index.js";
import type { MerchantId } from "../core/types.js";
import type { WarmStep } from "../pool/protocol.js";
import { topSellers } from "../recs/sales-rankings.js";
import { PerStore } from "../stores/per-store.js";
import { DEFAULT_WINDOW_DAYS } from "../stores/ranked-lists.js";
import type { Store } from "../stores/store.js";
import { CollectionIndex } from "./collection-index.js";

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
  /** The rankings' version (Store.version) popularity was last set from; -1: never. */
  private popularityVersion = -1;

  constructor(readonly merchant: MerchantId) {}

  /** Reads the whole catalogue; `sequence` is read in the same snapshot, so no change is missed or applied twice. */
  static build(store: Store, merchant: MerchantId): MerchantSearchIndex {
    const build = new IndexBuild(store, merchant);
    build.advance(store, Number.POSITIVE_INFINITY);
    return build.index;
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

  /**
   * Sales popularity from the stored top-sellers ranking of the default
   * window: rank 1 → 1, fading by log rank. Set again only when a refresh
   * changed the rankings: at 1M products that is 766k priors.
   */
  refreshPopularity(store: Store): void {
    const version = store.version(this.merchant, "rankings");
    if (version === this.popularityVersion) return;
    this.popularityVersion = version;
    const ranked = [...topSellers(store, this.merchant, DEFAULT_WINDOW_DAYS)];
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

  /** @internal for IndexBuild */
  applyProduct(store: Store, id: number): void {
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

/** Products indexed between deadline checks: a few ms at the indexing rate of a 1M-product shop (~60 µs a product). */
const BUILD_SLICE = 64;

/**
 * An index built a slice of the catalogue at a time, so that warming it up
 * (at start, in every worker) leaves the worker free for other tasks between
 * slices: a 1M-product catalogue takes about a minute to index. Slices read in
 * later snapshots may already hold changes made after `sequence`; the first
 * catch-up applies those again, which is harmless (an upsert replaces, a
 * remove of an absent product does nothing), and applies every other change.
 */
class IndexBuild {
  readonly index: MerchantSearchIndex;
  /** The last product id indexed; null before the first slice. */
  private after: number | null = null;
  /** Time spent indexing so far, over all slices. */
  busyMs = 0;

  constructor(
    store: Store,
    readonly merchant: MerchantId,
  ) {
    this.index = new MerchantSearchIndex(merchant);
    this.index.sequence = store.catalogueSequence(merchant);
  }

  /** Indexes slices until every product is in (true) or `deadline` (performance.now()) has passed (false). */
  advance(store: Store, deadline: number): boolean {
    const started = performance.now();
    try {
      for (;;) {
        const ids = store.productIdsAfter(this.merchant, this.after, BUILD_SLICE);
        for (const id of ids) this.index.applyProduct(store, id);
        if (ids.length < BUILD_SLICE) break;
        this.after = ids[ids.length - 1]!;
        if (performance.now() >= deadline) return false;
      }
      for (const collection of store.collectionsOf(this.merchant)) this.index.collections.upsert(collection.id, collection.title);
      this.index.products.refreshPriorsIfDrifted();
      return true;
    } finally {
      this.busyMs += performance.now() - started;
    }
  }
}

/** Per store, per merchant. */
const indexes = new PerStore<MerchantId, MerchantSearchIndex>();
/** Builds a warm-up started and has not finished, per store, per merchant. */
const builds = new PerStore<MerchantId, IndexBuild>();

/** This thread's search index of a merchant, up to date with the catalogue of the current snapshot. */
export function searchIndexOf(store: Store, merchant: MerchantId): MerchantSearchIndex {
  // With no deadline, a warm-up under way is finished rather than thrown away.
  warmSearchIndex(store, merchant, Number.POSITIVE_INFINITY);
  return indexes.of(store).get(merchant)!;
}

/** How long a shopper's request may spend building an index that is not complete yet. */
export const REQUEST_BUILD_BUDGET_MS = 3;

/**
 * This thread's search index of a merchant for a shopper's request. Once
 * built, it is the whole catalogue, kept up to date (rebuilt in one go when
 * too much changed at once, as searchIndexOf does). Before the first build is
 * complete (the start-up warm-up: a 1M-product catalogue takes about a
 * minute), the request builds for about `budgetMs` (one slice of products at
 * least) and is answered from the products indexed so far (`complete:
 * false`), instead of holding the worker, and every shopper queued behind it,
 * for the rest of the build. Rankings cached on a partial index lapse as it
 * grows (they are kept per index version).
 */
export function searchIndexForRequest(
  store: Store,
  merchant: MerchantId,
  budgetMs = REQUEST_BUILD_BUDGET_MS,
): { index: MerchantSearchIndex; complete: boolean } {
  if (indexes.of(store).has(merchant)) return { index: searchIndexOf(store, merchant), complete: true };
  if (warmSearchIndex(store, merchant, budgetMs).done) return { index: indexes.of(store).get(merchant)!, complete: true };
  const { index } = builds.of(store).get(merchant)!;
  // Priors are computed when a build completes; the part built so far needs its own.
  index.products.refreshPriorsIfDrifted();
  return { index, complete: false };
}

/**
 * Advances this thread's index of the merchant for about `sliceMs`, building
 * it a slice at a time across calls (warm-up); with no deadline, until it is
 * complete and current.
 */
export function warmSearchIndex(store: Store, merchant: MerchantId, sliceMs: number): WarmStep {
  const index = indexes.of(store).get(merchant);
  if (index && index.catchUp(store)) return { done: true, buildSeconds: null };
  const pending = builds.of(store);
  const build = pending.get(merchant) ?? new IndexBuild(store, merchant);
  if (!build.advance(store, performance.now() + sliceMs)) {
    pending.set(merchant, build);
    return { done: false, buildSeconds: null };
  }
  pending.delete(merchant);
  // Too many changes while it was built (catch-up declines): build again in one go.
  const built = build.index.catchUp(store) ? build.index : MerchantSearchIndex.build(store, merchant);
  indexes.of(store).set(merchant, built);
  return { done: true, buildSeconds: build.busyMs / 1000 };
}

/**
 * Builds a merchant's index as a worker would, timing it and measuring the JS
 * heap it adds (exact when Node runs with --expose-gc, approximate otherwise).
 */
export function measuredIndexBuild(
  store: Store,
  merchant: MerchantId,
): { index: MerchantSearchIndex; buildMs: number; heapMb: number; exactHeap: boolean } {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const index = searchIndexOf(store, merchant);
  const buildMs = performance.now() - started;
  collect?.();
  return { index, buildMs, heapMb: (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024, exactHeap: collect !== undefined };
}
