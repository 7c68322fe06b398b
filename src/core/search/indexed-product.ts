import { isProductAvailable, isProductPublished } from "../availability.js";
import type { Product } from "../types.js";

/** What search needs of a product; everything else is read from the store for the final page only. */
export interface IndexedProduct {
  id: number;
  title: string;
  /** Vendor, product type, tags and variant titles: matched, but the title leads. */
  extras: string[];
  /** SKUs and barcodes, matched only exactly. */
  codes: string[];
  /** Whether any variant can be bought (the shared availability rule). */
  available: boolean;
}

/** Variant titles the platform fills in when a product has no options: they say nothing. */
const PLACEHOLDER_VARIANT_TITLES = new Set(["default title", "default"]);

/**
 * What the search index keeps of a product, or null when storefront search must
 * not find it (a draft, archived or unpublished product).
 */
export function indexedProduct(product: Product): IndexedProduct | null {
  if (!isProductPublished(product)) return null;
  const variantTitles = product.variants
    .map((variant) => variant.title)
    .filter((title) => title !== "" && !PLACEHOLDER_VARIANT_TITLES.has(title.toLowerCase()));
  return {
    id: product.id,
    title: product.title,
    extras: [product.vendor, product.product_type, product.tags, ...new Set(variantTitles)].filter((text) => text !== ""),
    codes: product.variants.flatMap((variant) => [variant.sku, variant.barcode]).filter((code) => code.trim() !== ""),
    available: isProductAvailable(product),
  };
}

/** SKUs and barcodes compare without case or surrounding space. */
export function normaliseCode(code: string): string {
  return code.trim().toLowerCase();
}
