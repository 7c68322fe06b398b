import { GenerationalCache } from "../core/generational-cache.js";
import type { CatalogReader, RenderCatalog } from "../core/products/catalog.js";
import type { Eligibility } from "../core/products/eligibility.js";
import { renderDataOnRead } from "../core/products/render-data-on-read.js";
import type { CollectionHeading, MarketSettings, MerchantId } from "../core/types.js";
import { PerStore } from "./per-store.js";
import type { Store } from "./store.js";

const marketsByStore = new PerStore<MerchantId, { version: number; markets: MarketSettings[] }>();

/** A merchant's markets, decoded once per catalogue version and store. */
function marketsOf(store: Store, merchantId: MerchantId): MarketSettings[] {
  const marketsMemo = marketsByStore.of(store);
  const version = store.version(merchantId, "catalogue");
  const memo = marketsMemo.get(merchantId);
  if (memo && memo.version === version) return memo.markets;
  const markets = store.catalogue.marketsOf(merchantId);
  marketsMemo.set(merchantId, { version, markets });
  return markets;
}

const headingsByStore = new PerStore<MerchantId, { version: number; headings: Map<number, CollectionHeading | null> }>();

/**
 * A collection's id, title and handle, decoded once per collections version
 * and store: its record holds every member too (1 ms to decode in a shop of a
 * million products), and quick-view shows collections on every keystroke.
 */
export function collectionHeading(store: Store, merchantId: MerchantId, id: number): CollectionHeading | undefined {
  const memos = headingsByStore.of(store);
  const version = store.version(merchantId, "collections");
  let memo = memos.get(merchantId);
  if (memo === undefined || memo.version !== version) memos.set(merchantId, (memo = { version, headings: new Map() }));
  let heading = memo.headings.get(id);
  if (heading === undefined) {
    const collection = store.catalogue.collection(merchantId, id);
    heading = collection === undefined ? null : { id: collection.id, title: collection.title, handle: collection.handle };
    memo.headings.set(id, heading);
  }
  return heading ?? undefined;
}

/** Merchants whose render data is built: once built it stays so for the life of the store instance. */
const renderDataBuilt = new PerStore<MerchantId, true>();

/** Whether the merchant's products' stored JSON and eligibility records are built (not yet, for a while after an upgrade). */
export function hasRenderData(store: Store, merchantId: MerchantId): boolean {
  const built = renderDataBuilt.of(store);
  if (built.has(merchantId)) return true;
  if (!store.derived.isBuilt(store.productRender, merchantId)) return false;
  built.set(merchantId, true);
  return true;
}

/**
 * What one generation of a thread's render cache holds: about 1,700 products'
 * JSON of the demo's 4.8 KB, both generations twice that. A list miss reads
 * each shown product's stored JSON, which LZ4 decompresses (about 2.4 µs for
 * 4.8 KB, most of a recommended miss's reads), and the eligibility record of
 * each candidate judged; products shown again are read from here instead.
 */
const RENDER_CACHE_GENERATION_BYTES = 8 * 1024 * 1024;
/** What a cached value costs beyond its bytes: its Map entry, the object's header. */
const ENTRY_OVERHEAD_BYTES = 160;

type RenderRead = Uint8Array | Eligibility | null;

/** Per store, the products' render data as the latest answers read it, keyed by merchant and catalogue version. */
const renderCaches = new WeakMap<Store, GenerationalCache<RenderRead>>();

function renderCacheOf(store: Store): GenerationalCache<RenderRead> {
  let cache = renderCaches.get(store);
  if (!cache) renderCaches.set(store, (cache = new GenerationalCache(RENDER_CACHE_GENERATION_BYTES, renderReadBytes)));
  return cache;
}

function renderReadBytes(value: RenderRead): number {
  const own = value === null ? 0 : value instanceof Uint8Array ? value.length : value.cents.byteLength + value.available.length;
  return own + ENTRY_OVERHEAD_BYTES;
}

/** The render cache's groups of one merchant at one catalogue version. */
interface RenderGroups {
  eligibility: string;
  full: string;
  reduced: string;
}

interface MerchantView {
  catalog: RenderCatalog;
  /** Set for each answer (see merchantCatalog). */
  groups: RenderGroups;
  /** The catalogue version `groups` name. */
  version: number;
}

/** Merchants' views with their render data built, made once per store: a list miss asks for one, and making it was 8% of one. */
const viewsByStore = new PerStore<MerchantId, MerchantView>();

/**
 * One merchant's view of the store: tenancy is decided here, once. Ask for it
 * once per answer: its render reads are cached under the catalogue version
 * read now, in the same read snapshot as the answer's, since every write of
 * render data moves that version in its own transaction.
 */
export function merchantCatalog(store: Store, merchantId: MerchantId): RenderCatalog {
  const views = viewsByStore.of(store);
  let view = views.get(merchantId);
  if (view === undefined) {
    const made = makeCatalog(store, merchantId);
    if (made === null) return renderDataOnRead(readerOf(store, merchantId));
    views.set(merchantId, (view = made));
  }
  const version = store.version(merchantId, "catalogue");
  if (version !== view.version) {
    const prefix = `${merchantId}\u0000${version}\u0000`;
    view.groups = { eligibility: `${prefix}eligibility`, full: `${prefix}full`, reduced: `${prefix}reduced` };
    view.version = version;
  }
  return view.catalog;
}

function readerOf(store: Store, merchantId: MerchantId): CatalogReader {
  return {
    product: (id) => store.catalogue.product(merchantId, id),
    productIdByHandle: (handle) => store.catalogue.productIdByHandle(merchantId, handle),
    collection: (id) => store.catalogue.collection(merchantId, id),
    metafields: (owner, ownerId) => store.catalogue.metafields(merchantId, owner, ownerId),
    markets: () => marketsOf(store, merchantId),
    marketPrice: (marketId, variantId) => store.catalogue.marketPrice(merchantId, marketId, variantId),
  };
}

/** null until the applier has built the merchant's render data (after an upgrade): lists then derive it from each product they read. */
function makeCatalog(store: Store, merchantId: MerchantId): MerchantView | null {
  if (!hasRenderData(store, merchantId)) return null;
  const cache = renderCacheOf(store);
  const { productRender } = store;
  const view: MerchantView = {
    groups: { eligibility: "", full: "", reduced: "" },
    version: -1,
    catalog: {
      ...readerOf(store, merchantId),
      eligibility(id) {
        const group = view.groups.eligibility;
        const cached = cache.get(group, id);
        if (cached !== undefined) return (cached as Eligibility | null) ?? undefined;
        const read = productRender.eligibility(merchantId, id);
        cache.set(group, id, read ?? null);
        return read;
      },
      marketPricing: (marketId, id) => productRender.marketPricing(merchantId, marketId, id),
      storedJsonView(id, projection) {
        const group = view.groups[projection];
        const cached = cache.get(group, id) as Uint8Array | null | undefined;
        if (cached !== undefined) return cached ?? undefined;
        const read = productRender.storedJsonView(merchantId, id, projection);
        // The read is a view of a buffer the next read reuses, so the cache keeps a copy: to the length the
        // store sets on its reads, not the buffer's own (and not by Buffer's slice, which is another view).
        const kept = read === undefined ? null : Uint8Array.prototype.slice.call(read, 0, read.length);
        cache.set(group, id, kept);
        return kept ?? undefined;
      },
    },
  };
  return view;
}
