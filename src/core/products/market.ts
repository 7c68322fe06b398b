import type { MarketSettings, Product, Variant, VariantPrice } from "../types.js";

/** The first active market (lowest id) whose countries include the code, if any. */
export function marketForCountry(markets: MarketSettings[], countryCode: string | null): MarketSettings | null {
  if (countryCode === null) return null;
  return markets.find((market) => market.active && market.countries.includes(countryCode)) ?? null;
}

const catalogues = new WeakMap<MarketSettings, Set<number>>();

export function isInMarket(product: Product, market: MarketSettings | null): boolean {
  return isSoldInMarket(product.id, market);
}

export function isSoldInMarket(productId: number, market: MarketSettings | null): boolean {
  if (market === null || market.product_ids === null) return true;
  // Markets are memoised per data version by their reader, so the set is built once per version.
  let catalogue = catalogues.get(market);
  if (!catalogue) {
    catalogue = new Set(market.product_ids);
    catalogues.set(market, catalogue);
  }
  return catalogue.has(productId);
}

/**
 * Variant prices as sold in the market. A variant the market prices no
 * differently keeps the shop's price rather than vanishing from the product.
 */
export function withMarketPrices(
  product: Product,
  market: MarketSettings | null,
  priceOf: (marketId: number, variantId: number) => VariantPrice | undefined,
): Product {
  if (market === null) return product;
  const variants = product.variants.map((variant): Variant => {
    const price = priceOf(market.id, variant.id);
    return price ? { ...variant, price: price.price, compare_at_price: price.compare_at_price } : variant;
  });
  return { ...product, variants };
}
