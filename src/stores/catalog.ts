import type { CatalogReader } from "../core/products/catalog.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "./store.js";

/** One merchant's view of the store: tenancy is decided here, once. */
export function merchantCatalog(store: Store, merchantId: MerchantId): CatalogReader {
  return {
    product: (id) => store.product(merchantId, id),
    productIdByHandle: (handle) => store.productIdByHandle(merchantId, handle),
    collection: (id) => store.collection(merchantId, id),
    metafields: (owner, ownerId) => store.metafields(merchantId, owner, ownerId),
    markets: () => store.marketsOf(merchantId),
  };
}
