import type { Collection, MarketSettings, Metafield, Product, VariantPrice } from "../types.js";
import type { Eligibility } from "./eligibility.js";
import type { MarketPricing } from "./market-pricing.js";
import type { Projection } from "./projection.js";

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

/** The catalogue with what lists read instead of decoding products: kept per product by the store. */
export interface RenderCatalog extends CatalogReader {
  /** undefined: no such product. */
  eligibility(id: number): Eligibility | undefined;
  /** null: the market sells the product at the product's own prices. */
  marketPricing(marketId: number, id: number): MarketPricing | null;
  /**
   * The product's JSON in the projection, as encodeStoredJson lays it out: a
   * view that is valid until the catalogue's next read (copy it to keep it).
   */
  storedJsonView(id: number, projection: Projection): Uint8Array | undefined;
}
