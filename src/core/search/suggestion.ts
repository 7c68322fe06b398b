// The spec's Suggestion and Variant suggestion, built from a product already
// priced for the request's market.
import { isProductAvailable, isVariantAvailable } from "../availability.js";
import { toCents } from "../money.js";
import type { CollectionHeading, Metafield, Product, ProductImage, Variant } from "../types.js";

export interface SuggestionImage {
  alt: string;
  url: string;
}

export interface VariantSuggestion {
  id: string;
  name: string;
  url: string;
  price: number;
  compareAtPrice: number;
  images: SuggestionImage[];
  canPurchase: boolean;
}

/** A product suggestion: what a variant suggestion has, plus its variants and ratings. */
export interface Suggestion extends VariantSuggestion {
  variants: VariantSuggestion[];
  ratings: { average: number; count: number };
}

export interface CollectionSuggestion {
  id: string;
  title: string;
  handle: string;
  url: string;
}

/** Money as the spec's number type; a missing compare-at price is 0 (the type leaves no room for null). */
function amount(decimal: string | null): number {
  const cents = decimal === null ? null : toCents(decimal);
  return cents === null ? 0 : cents / 100;
}

export function productUrl(domain: string, product: Product): string {
  return `https://${domain}/products/${encodeURIComponent(product.handle)}`;
}

function image(found: ProductImage, fallbackAlt: string): SuggestionImage {
  return { alt: found.alt ?? fallbackAlt, url: found.src };
}

function variantImages(product: Product, variant: Variant): SuggestionImage[] {
  const own = product.images.filter((candidate) => candidate.id === variant.image_id || candidate.variant_ids.includes(variant.id));
  return own.map((found) => image(found, product.title));
}

/**
 * The variant whose price the product shows: the cheapest one that can be
 * bought, or the cheapest of all when none can ("from $x").
 */
function shownVariant(product: Product): Variant | undefined {
  const purchasable = product.variants.filter(isVariantAvailable);
  const pool = purchasable.length > 0 ? purchasable : product.variants;
  let best: Variant | undefined;
  for (const variant of pool) if (best === undefined || amount(variant.price) < amount(best.price)) best = variant;
  return best;
}

/**
 * Review ratings from the product metafields reviews.rating (a number, or the
 * platform's rating JSON {"value": "4.5", ...}) and reviews.rating_count.
 */
export function ratingsOf(metafields: Metafield[]): { average: number; count: number } {
  const rating = metafields.find((m) => m.namespace === "reviews" && m.key === "rating")?.value;
  const count = metafields.find((m) => m.namespace === "reviews" && m.key === "rating_count")?.value;
  return { average: ratingValue(rating), count: ratingCount(count) };
}

/** A whole count of reviews, 0 when the metafield holds none (or a number too long to be one: 400 nines were Infinity, shown as null). */
function ratingCount(raw: string | undefined): number {
  const count = Math.trunc(Number(raw ?? 0));
  return Number.isSafeInteger(count) && count > 0 ? count : 0;
}

function ratingValue(raw: string | undefined): number {
  if (raw === undefined) return 0;
  let value: unknown = raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    value = typeof parsed === "object" && parsed !== null && "value" in parsed ? (parsed as { value: unknown }).value : parsed;
  } catch {
    // A plain number written as text.
  }
  const number = Number(value);
  return Number.isFinite(number) ? number : 0;
}

export function toSuggestion(product: Product, domain: string, productMetafields: Metafield[]): Suggestion {
  const url = productUrl(domain, product);
  const shown = shownVariant(product);
  return {
    id: String(product.id),
    name: product.title,
    url,
    price: amount(shown?.price ?? null),
    compareAtPrice: amount(shown?.compare_at_price ?? null),
    images: product.images.map((found) => image(found, product.title)),
    variants: product.variants.map((variant) => ({
      id: String(variant.id),
      name: variant.title,
      url: `${url}?variant=${variant.id}`,
      price: amount(variant.price),
      compareAtPrice: amount(variant.compare_at_price),
      images: variantImages(product, variant),
      canPurchase: isVariantAvailable(variant),
    })),
    canPurchase: isProductAvailable(product),
    ratings: ratingsOf(productMetafields),
  };
}

export function toCollectionSuggestion(collection: CollectionHeading, domain: string): CollectionSuggestion {
  return {
    id: String(collection.id),
    title: collection.title,
    handle: collection.handle,
    url: `https://${domain}/collections/${encodeURIComponent(collection.handle)}`,
  };
}
