// What a market changes in a product: the prices its variants sell at there.
// Its catalogue is read from its settings; its prices are kept per product,
// and only for products whose JSON they change, as the cents the price
// conditions compare and the JSON values spliced into the product's stored
// JSON in place of its own.
import { toCents } from "../money.js";
import type { Product, VariantPrice } from "../types.js";

export interface MarketPricing {
  /** Every variant's price in cents as sold in the market (NaN: not an amount). */
  cents: Float64Array;
  /**
   * Per price slot (variant i's price is slot 2i, its compare_at_price slot
   * 2i + 1), the JSON value the market shows; null where the product's own stands.
   */
  slots: (Uint8Array | null)[];
}

export function priceSlot(variantIndex: number, field: "price" | "compare_at_price"): number {
  return variantIndex * 2 + (field === "price" ? 0 : 1);
}

const encoder = new TextEncoder();

/**
 * The market's prices for the product, as withMarketPrices applies them (a
 * variant it does not price keeps the shop's); null when they leave every
 * value as it is.
 */
export function marketPricingOf(product: Product, priceOf: (variantId: number) => VariantPrice | undefined): MarketPricing | null {
  const cents = new Float64Array(product.variants.length);
  const slots: (Uint8Array | null)[] = [];
  product.variants.forEach((variant, i) => {
    const sold = priceOf(variant.id) ?? variant;
    cents[i] = toCents(sold.price) ?? Number.NaN;
    slots.push(changedJson(sold.price, variant.price), changedJson(sold.compare_at_price, variant.compare_at_price));
  });
  return slots.some((slot) => slot !== null) ? { cents, slots } : null;
}

function changedJson(value: string | null, own: string | null): Uint8Array | null {
  return value === own ? null : encoder.encode(JSON.stringify(value));
}

// Stored as: the variant count (u32), four unused bytes, the cents (f64
// each), then per slot its JSON's length (u16; UNCHANGED: none) and the JSON.
const HEADER_BYTES = 8;
const UNCHANGED = 0xffff;

export function encodeMarketPricing(pricing: MarketPricing): Uint8Array {
  const count = pricing.cents.length;
  const slotsStart = HEADER_BYTES + count * 8;
  const length = slotsStart + pricing.slots.reduce((sum, slot) => sum + 2 + (slot?.length ?? 0), 0);
  const bytes = new Uint8Array(length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, count, true);
  for (let i = 0; i < count; i++) view.setFloat64(HEADER_BYTES + i * 8, pricing.cents[i]!, true);
  let at = slotsStart;
  for (const slot of pricing.slots) {
    view.setUint16(at, slot === null ? UNCHANGED : slot.length, true);
    at += 2;
    if (slot !== null) {
      bytes.set(slot, at);
      at += slot.length;
    }
  }
  return bytes;
}

export function decodeMarketPricing(bytes: Uint8Array): MarketPricing {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  const cents = new Float64Array(count);
  for (let i = 0; i < count; i++) cents[i] = view.getFloat64(HEADER_BYTES + i * 8, true);
  const slots: (Uint8Array | null)[] = [];
  let at = HEADER_BYTES + count * 8;
  for (let slot = 0; slot < count * 2; slot++) {
    const length = view.getUint16(at, true);
    at += 2;
    if (length === UNCHANGED) {
      slots.push(null);
      continue;
    }
    // A copy: the bytes may be a buffer the store reuses for its next read.
    slots.push(new Uint8Array(bytes.subarray(at, at + length)));
    at += length;
  }
  return { cents, slots };
}
