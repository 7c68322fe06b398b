import type { Collection, MarketSettings, Metafield, Product, VariantPrice } from "../types.js";

/** Read access to one merchant's catalogue; the store implements it, tests fake it. */
export interface CatalogReader {
  product(id: number): Product | undefined;
  productIdByHandle(handle: string): number | undefined;
  collection(id: number): Collection | undefined;
  metafields(owner: Metafield["owner_resource"], ownerId: number): Metafield[];
  markets(): MarketSettings[];
  /** The variant's price in the market, when the market prices it. */
  marketPrice(marketId: number, variantId: number): VariantPrice | undefined;
}
