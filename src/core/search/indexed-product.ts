import { isProductAvailable, isProductPublished } from "../availability.js";
import type { Product } from "../types.js";
import type { IndexedProduct } from "./lexical-index.js";

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
