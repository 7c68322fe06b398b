import type { CatalogReader, RenderCatalog } from "./catalog.js";
import { eligibilityOf } from "./eligibility.js";
import { marketPricingOf } from "./market-pricing.js";
import { encodeStoredJson } from "./stored-json.js";

/**
 * A catalogue whose render data is derived from each product as it is read,
 * by the code that writes the stored data: what a merchant's lists read while
 * the store is still building that data (after an upgrade), so answers are
 * the same before and after.
 */
export function renderDataOnRead(catalog: CatalogReader): RenderCatalog {
  return {
    ...catalog,
    eligibility(id) {
      const product = catalog.product(id);
      return product && eligibilityOf(product);
    },
    marketPricing(marketId, id) {
      const product = catalog.product(id);
      return product ? marketPricingOf(product, (variantId) => catalog.marketPrice(marketId, variantId)) : null;
    },
    storedJsonView(id, projection) {
      const product = catalog.product(id);
      return product && encodeStoredJson(product, projection);
    },
  };
}
