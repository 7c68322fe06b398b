// What the list filters read of a product, kept beside its stored JSON as a
// few bytes, so a list decides which candidates it shows without decoding any
// product. The verdict is the one the filters give on the product itself:
// exclude_service, the price conditions (a variant passes when it meets every
// bound, in cents as sold in the market), stock and publication.
import { isProductPublished, isVariantAvailable } from "../availability.js";
import { toCents } from "../money.js";
import type { Product } from "../types.js";
import { centsPassPrice, hasTag } from "./price-filter.js";
import type { ListOptions } from "./query.js";

export const EXCLUDE_SERVICE_TAG = "exclude_service";

export interface Eligibility {
  /** Active with a publication date. */
  published: boolean;
  excludeService: boolean;
  /** Each variant's price in cents, in the product's variant order (NaN: not an amount, which no price condition accepts). */
  cents: Float64Array;
  /** Each variant's availability (1: it can be bought), in the same order. */
  available: Uint8Array;
}

export function eligibilityOf(product: Product): Eligibility {
  return {
    published: isProductPublished(product),
    excludeService: hasTag(product, EXCLUDE_SERVICE_TAG),
    cents: Float64Array.from(product.variants, (variant) => toCents(variant.price) ?? Number.NaN),
    available: Uint8Array.from(product.variants, (variant) => (isVariantAvailable(variant) ? 1 : 0)),
  };
}

/** How a list shows a candidate: not at all, whole, or with only the variants meeting the price conditions (unset_variants). */
export type Showing = "hidden" | "whole" | "passing_variants";

/**
 * The list's verdict on a product whose variants sell at `cents` (the
 * market's prices, or the product's own). Stock is judged on the variants
 * shown: with unset_variants, those meeting the price conditions.
 */
export function showing(eligibility: Eligibility, cents: Float64Array, list: ListOptions): Showing {
  if (list.honourExcludeServiceTag && eligibility.excludeService) return "hidden";
  if (list.filterUnpublished && !eligibility.published) return "hidden";
  let passing = 0;
  let available = false;
  for (let i = 0; i < cents.length; i++) {
    const passes = list.price === null || centsPassPrice(cents[i]!, list.price);
    if (passes) passing++;
    // Stock counts every variant unless unset_variants leaves only the passing ones.
    if (eligibility.available[i] === 1 && (passes || !list.unsetVariants)) available = true;
  }
  if (list.price !== null && passing === 0) return "hidden";
  if (list.filterOos && !available) return "hidden";
  return list.unsetVariants && passing < cents.length ? "passing_variants" : "whole";
}

// Stored as: a flags byte (1: published, 2: excludeService), three unused
// bytes, the variant count (u32), the cents (f64 each), the availabilities (a byte each).
const PUBLISHED = 1;
const EXCLUDE_SERVICE = 2;
const HEADER_BYTES = 8;

export function encodeEligibility(eligibility: Eligibility): Uint8Array {
  const count = eligibility.cents.length;
  const bytes = new Uint8Array(HEADER_BYTES + count * 9);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, (eligibility.published ? PUBLISHED : 0) | (eligibility.excludeService ? EXCLUDE_SERVICE : 0));
  view.setUint32(4, count, true);
  for (let i = 0; i < count; i++) view.setFloat64(HEADER_BYTES + i * 8, eligibility.cents[i]!, true);
  bytes.set(eligibility.available, HEADER_BYTES + count * 8);
  return bytes;
}

export function decodeEligibility(bytes: Uint8Array): Eligibility {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const flags = view.getUint8(0);
  const count = view.getUint32(4, true);
  const cents = new Float64Array(count);
  for (let i = 0; i < count; i++) cents[i] = view.getFloat64(HEADER_BYTES + i * 8, true);
  return {
    published: (flags & PUBLISHED) !== 0,
    excludeService: (flags & EXCLUDE_SERVICE) !== 0,
    cents,
    // A copy: the bytes may be a buffer the store reuses for its next read.
    available: new Uint8Array(bytes.subarray(HEADER_BYTES + count * 8, HEADER_BYTES + count * 9)),
  };
}
