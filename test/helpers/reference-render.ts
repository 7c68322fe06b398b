// The product list renderer as it was before lists read stored render data:
// every candidate decoded, priced, judged and projected, and the answer
// serialized with JSON.stringify. Kept only as the oracle the stored path's
// bytes are compared with.
import { isProductAvailable, isProductPublished } from "../../src/core/availability.js";
import { jsonBytes } from "../../src/core/json.js";
import type { CatalogReader } from "../../src/core/products/catalog.js";
import { EXCLUDE_SERVICE_TAG } from "../../src/core/products/eligibility.js";
import { isInMarket, marketForCountry, withMarketPrices } from "../../src/core/products/market.js";
import { applyPriceFilter, hasTag } from "../../src/core/products/price-filter.js";
import { projectProduct, type OutputObject } from "../../src/core/products/projection.js";
import type { ListOptions } from "../../src/core/products/query.js";
import type { Customer } from "../../src/core/types.js";

export function referenceProductList(catalog: CatalogReader, candidates: Iterable<number>, list: ListOptions): OutputObject[] {
  const market = list.countryCode === null ? null : marketForCountry(catalog.markets(), list.countryCode);
  const priceOf = catalog.marketPrice.bind(catalog);
  const excluded = new Set(list.excludedIds);
  const allowed = list.restrictTo ? new Set(list.restrictTo) : null;
  const projection = {
    projection: list.projection,
    metafields: list.metafields,
    sellingPlans: list.sellingPlans,
    loadMetafields: catalog.metafields.bind(catalog),
  };
  const seen = new Set<number>();
  const output: OutputObject[] = [];
  for (const id of candidates) {
    if (output.length >= list.limit) break;
    if (seen.has(id) || excluded.has(id) || (allowed && !allowed.has(id))) continue;
    seen.add(id);
    const stored = catalog.product(id);
    if (!stored || !isInMarket(stored, market)) continue;
    if (list.honourExcludeServiceTag && hasTag(stored, EXCLUDE_SERVICE_TAG)) continue;
    const product = applyPriceFilter(withMarketPrices(stored, market, priceOf), list.price, list.unsetVariants);
    if (product === null) continue;
    if (list.filterOos && !isProductAvailable(product)) continue;
    if (list.filterUnpublished && !isProductPublished(product)) continue;
    output.push({ ...projectProduct(product, projection) });
  }
  return output;
}

/** The answer of every list endpoint but purchased. */
export function referenceListBody(catalog: CatalogReader, candidates: Iterable<number>, list: ListOptions): Uint8Array {
  return jsonBytes({ data: referenceProductList(catalog, candidates, list) }, list.pretty);
}

/** purchased's answer: each product with the units bought, and the customer. */
export function referencePurchasedBody(
  catalog: CatalogReader,
  quantities: Map<number, number>,
  customer: Customer | null,
  list: ListOptions,
): Uint8Array {
  const data = referenceProductList(catalog, quantities.keys(), list);
  for (const product of data) product.metadata = { purchased_quantity: String(quantities.get(product.id as number)) };
  return jsonBytes({ data, metadata: { platform_customer: customer } }, list.pretty);
}
