import type { Product, Variant } from "./types.js";

// The one availability rule, used by filter_oos, search and canPurchase:
// a variant can be bought when it has stock, when overselling is allowed, or when
// nobody tracks its inventory.
export function isVariantAvailable(variant: Variant): boolean {
  return variant.inventory_quantity > 0 || variant.inventory_policy === "continue" || variant.inventory_management === null;
}

export function isProductAvailable(product: Product): boolean {
  return product.variants.some(isVariantAvailable);
}

/** Published on the online store: active and with a publication date. */
export function isProductPublished(product: Product): boolean {
  return product.status === "active" && product.published_at !== null;
}
