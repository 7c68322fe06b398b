import { toCents } from "../money.js";
import type { PRICE_FILTER_PARAMS } from "../params/definitions.js";
import type { ParsedParams } from "../params/parse.js";
import type { Product, Variant } from "../types.js";

/** Bounds in cents; a variant passes when it satisfies every bound present. */
export interface PriceFilter {
  atMost?: number;
  equalTo?: number;
  above?: number;
  atLeast?: number;
}

/** The spec's five price parameters as one range (both "less than" names mean ≤). */
export function priceFilterFrom(params: Partial<ParsedParams<typeof PRICE_FILTER_PARAMS>>): PriceFilter | null {
  const upper = [params.any_variant_price_less_than, params.any_variant_price_less_than_or_equal_to].filter(
    (value): value is number => value !== undefined,
  );
  const filter: PriceFilter = {};
  if (upper.length > 0) filter.atMost = Math.min(...upper);
  if (params.any_variant_price_equal_to !== undefined) filter.equalTo = params.any_variant_price_equal_to;
  if (params.variant_price_greater_than !== undefined) filter.above = params.variant_price_greater_than;
  if (params.variant_price_greater_than_or_equal_to !== undefined) filter.atLeast = params.variant_price_greater_than_or_equal_to;
  return Object.keys(filter).length > 0 ? filter : null;
}

export function variantPassesPrice(variant: Variant, filter: PriceFilter): boolean {
  return centsPassPrice(toCents(variant.price) ?? Number.NaN, filter);
}

/** A price in cents (NaN: not an amount, which no filter accepts) against every bound present. */
export function centsPassPrice(price: number, filter: PriceFilter): boolean {
  if (Number.isNaN(price)) return false;
  return (
    (filter.atMost === undefined || price <= filter.atMost) &&
    (filter.equalTo === undefined || price === filter.equalTo) &&
    (filter.above === undefined || price > filter.above) &&
    (filter.atLeast === undefined || price >= filter.atLeast)
  );
}

/**
 * The product as the price conditions leave it: null when no variant passes;
 * otherwise the product, with failing variants removed when asked to.
 */
export function applyPriceFilter(product: Product, filter: PriceFilter | null, unsetVariants: boolean): Product | null {
  if (filter === null) return product;
  const passing = product.variants.filter((variant) => variantPassesPrice(variant, filter));
  if (passing.length === 0) return null;
  return unsetVariants && passing.length < product.variants.length ? { ...product, variants: passing } : product;
}

export function hasTag(product: Product, tag: string): boolean {
  return product.tags.split(",").some((t) => t.trim().toLowerCase() === tag);
}
