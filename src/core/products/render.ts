import { isProductAvailable, isProductPublished } from "../availability.js";
import type { CatalogReader } from "./catalog.js";
import { EXCLUDE_SERVICE_TAG } from "./eligibility.js";
import { isInMarket, marketForCountry, withMarketPrices } from "./market.js";
import { applyPriceFilter, hasTag } from "./price-filter.js";
import { projectProduct, type OutputObject } from "./projection.js";
import type { ListOptions } from "./query.js";

/**
 * Turns ranked candidate ids into response products: eligibility, market,
 * projection, then `limit`. Candidates are read lazily, so a ranking can offer
 * many more than `limit` and only the ones shown cost a product read.
 */
export function renderProductList(catalog: CatalogReader, candidates: Iterable<number>, list: ListOptions): OutputObject[] {
  // Markets are only read when asked for: their price tables are large.
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
    // Prices are compared as sold in the market, so the market goes first.
    const product = applyPriceFilter(withMarketPrices(stored, market, priceOf), list.price, list.unsetVariants);
    if (product === null) continue;
    if (list.filterOos && !isProductAvailable(product)) continue;
    if (list.filterUnpublished && !isProductPublished(product)) continue;
    output.push(projectProduct(product, projection));
  }
  return output;
}
