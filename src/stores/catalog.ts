import type { CatalogReader, RenderCatalog } from "../core/products/catalog.js";
import type { Eligibility } from "../core/products/eligibility.js";
import type { MarketPricing } from "../core/products/market-pricing.js";
import { renderDataOnRead } from "../core/products/render-data-on-read.js";
import type { CollectionHeading, MarketSettings, MerchantId } from "../core/types.js";
import { PerStore } from "./per-store.js";
import { readThrough, renderCacheOf, renderGroup } from "./render-cache.js";
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

/**
 * A collection's id, title and handle, kept in the render cache per collections
 * version: its record holds every member too (1 ms to decode in a shop of a
 * million products), and quick-view shows collections on every keystroke.
 */
export function collectionHeading(store: Store, merchantId: MerchantId, id: number): CollectionHeading | undefined {
  const group = renderGroup(merchantId, store.version(merchantId, "collections"), "collections");
  return readThrough<CollectionHeading>(renderCacheOf(store), group, id, () => {
    const collection = store.catalogue.collection(merchantId, id);
    return collection && { id: collection.id, title: collection.title, handle: collection.handle };
  });
}

/** Whether the merchant's products' stored JSON and eligibility records are built (not yet, for a while after an upgrade). */
export function hasRenderData(store: Store, merchantId: MerchantId): boolean {
  return store.derived.isBuilt(store.productRender, merchantId);
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
  /** Per market, the group of its prices at `version`: made when a list first asks for that market's prices. */
  marketGroups: Map<number, string>;
  /** The catalogue version `groups` name. */
  version: number;
}

/** Merchants' views with their render data built, made once per store: a list miss asks for one, and making it was 8% of one. */
const viewsByStore = new PerStore<MerchantId, MerchantView>();

/**
 * One merchant's view of the store: tenancy is decided here, once. Ask for it
 * at the start of each answer and use it synchronously, never across an
 * await: its render reads are cached (render-cache.ts) under the catalogue
 * version read now, in the read snapshot the rest of the answer reads, since
 * every write of render data moves that version in its own transaction. Held
 * across an await, the snapshot could move on while cached reads stay behind.
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
    const group = (kind: string) => renderGroup(merchantId, version, kind);
    view.groups = { eligibility: group("eligibility"), full: group("full"), reduced: group("reduced") };
    view.marketGroups.clear();
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
    marketGroups: new Map(),
    version: -1,
    catalog: {
      ...readerOf(store, merchantId),
      eligibility: (id) => readThrough<Eligibility>(cache, view.groups.eligibility, id, () => productRender.eligibility(merchantId, id)),
      marketPricing: (marketId, id) => {
        let group = view.marketGroups.get(marketId);
        if (group === undefined) view.marketGroups.set(marketId, (group = renderGroup(merchantId, view.version, `market ${marketId}`)));
        // A market that leaves the product's prices as they are has no record: cached as absent.
        return (
          readThrough<MarketPricing>(cache, group, id, () => productRender.marketPricing(merchantId, marketId, id) ?? undefined) ?? null
        );
      },
      storedJsonView: (id, projection) =>
        readThrough<Uint8Array>(cache, view.groups[projection], id, () => {
          const read = productRender.storedJsonView(merchantId, id, projection);
          // The read is a view of a buffer the next read reuses, so the cache keeps a copy: to the length the
          // store sets on its reads, not the buffer's own (and not by Buffer's slice, which is another view).
          return read && Uint8Array.prototype.slice.call(read, 0, read.length);
        }),
    },
  };
  return view;
}
