import type { CatalogReader } from "../core/products/catalog.js";
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
  const markets = store.marketsOf(merchantId);
  marketsMemo.set(merchantId, { version, markets });
  return markets;
}

/** One merchant's view of the store: tenancy is decided here, once. */
export function merchantCatalog(store: Store, merchantId: MerchantId): CatalogReader {
  return {
    product: (id) => store.product(merchantId, id),
    productIdByHandle: (handle) => store.productIdByHandle(merchantId, handle),
    collection: (id) => store.collection(merchantId, id),
    metafields: (owner, ownerId) => store.metafields(merchantId, owner, ownerId),
    markets: () => marketsOf(store, merchantId),
    marketPrice: (marketId, variantId) => store.marketPrice(merchantId, marketId, variantId),
  };
}
