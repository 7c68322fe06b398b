// A product's texts as custom sources' rules compare them: lower case, tags
// split and trimmed, with its variant ids in the product's order (which its
// eligibility record's prices follow).
import type { Product } from "../types.js";

/** The catalogue attributes a rule can RETURN products by. */
export type Attribute = "tags" | "vendors" | "product_types";

export interface ProductTexts {
  tags: string[];
  vendor: string;
  type: string;
  handle: string;
  title: string;
  variantIds: number[];
}

export function productTexts(product: Product): ProductTexts {
  return {
    tags: splitTags(product.tags),
    vendor: product.vendor.trim().toLowerCase(),
    type: product.product_type.trim().toLowerCase(),
    handle: product.handle.toLowerCase(),
    title: product.title.trim().toLowerCase(),
    variantIds: product.variants.map((variant) => variant.id),
  };
}

/** A comma-separated tags field (a product's, a customer's) as rules compare it. */
export function splitTags(tags: string): string[] {
  return tags
    .split(",")
    .map((tag) => tag.trim().toLowerCase())
    .filter((tag) => tag !== "");
}

/**
 * Each value the product is found by, once: what the attribute index holds for
 * it. An empty vendor or type is left out, as no rule can ask for one.
 */
export function attributeValues(texts: ProductTexts): { attribute: Attribute; value: string }[] {
  const values = [...new Set(texts.tags)].map((value) => ({ attribute: "tags" as Attribute, value }));
  if (texts.vendor !== "") values.push({ attribute: "vendors", value: texts.vendor });
  if (texts.type !== "") values.push({ attribute: "product_types", value: texts.type });
  return values;
}
