import type { Market, Product, Variant } from "../types.js";

/** The first active market (lowest id) whose countries include the code, if any. */
export function marketForCountry(markets: Market[], countryCode: string | null): Market | null {
  if (countryCode === null) return null;
  return markets.find((market) => market.active && market.countries.includes(countryCode)) ?? null;
}

const catalogues = new WeakMap<Market, Set<number>>();

export function isInMarket(product: Product, market: Market | null): boolean {
  if (market === null || market.product_ids === null) return true;
  // Markets are memoised per data version by their reader, so the set is built once per version.
  let catalogue = catalogues.get(market);
  if (!catalogue) {
    catalogue = new Set(market.product_ids);
    catalogues.set(market, catalogue);
  }
  return catalogue.has(product.id);
}

/**
 * Variant prices as sold in the market. A variant the market prices no
 * differently keeps the shop's price rather than vanishing from the product.
 */
export function withMarketPrices(product: Product, market: Market | null): Product {
  if (market === null) return product;
  const variants = product.variants.map((variant): Variant => {
    const price = market.variant_prices[String(variant.id)];
    return price ? { ...variant, price: price.price, compare_at_price: price.compare_at_price } : variant;
  });
  return { ...product, variants };
}
