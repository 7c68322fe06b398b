import type { CatalogReader, RenderCatalog } from "../core/products/catalog.js";
import { renderDataOnRead } from "../core/products/render-data-on-read.js";
import type { MarketSettings, MerchantId } from "../core/types.js";
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

/** Merchants' views with their render data built, made once per store: a list miss asks for one, and making it was 8% of one. */
const catalogsByStore = new PerStore<MerchantId, RenderCatalog>();

/** One merchant's view of the store: tenancy is decided here, once. */
export function merchantCatalog(store: Store, merchantId: MerchantId): RenderCatalog {
  const catalogs = catalogsByStore.of(store);
  const made = catalogs.get(merchantId);
  if (made !== undefined) return made;
  const catalog: CatalogReader = {
    product: (id) => store.catalogue.product(merchantId, id),
    productIdByHandle: (handle) => store.catalogue.productIdByHandle(merchantId, handle),
    collection: (id) => store.catalogue.collection(merchantId, id),
    metafields: (owner, ownerId) => store.catalogue.metafields(merchantId, owner, ownerId),
    markets: () => marketsOf(store, merchantId),
    marketPrice: (marketId, variantId) => store.catalogue.marketPrice(merchantId, marketId, variantId),
  };
  // Until the applier has built a merchant's render data (after an upgrade), lists derive it from each product they read.
  if (!hasRenderData(store, merchantId)) return renderDataOnRead(catalog);
  const withRenderData: RenderCatalog = {
    ...catalog,
    eligibility: (id) => store.productRender.eligibility(merchantId, id),
    marketPricing: (marketId, id) => store.productRender.marketPricing(merchantId, marketId, id),
    storedJsonView: (id, projection) => store.productRender.storedJsonView(merchantId, id, projection),
  };
  catalogs.set(merchantId, withRenderData);
  return withRenderData;
}
