// A product's JSON for one projection, stored so a list answer is a
// concatenation of bytes: exactly what projectProduct and JSON.stringify give
// without metafields and selling plans, prefixed with where each variant's
// price and compare_at_price values lie in it, so a market's prices are
// spliced in without parsing anything.
import type { Product } from "../types.js";
import type { MarketPricing } from "./market-pricing.js";
import { priceSlot } from "./market-pricing.js";
import { projectProduct, type Projection } from "./projection.js";

const encoder = new TextEncoder();
const NO_METAFIELDS = { product: null, variant: null };

/** The product's JSON in the projection, as a list without metafields or selling plans shows it. */
export function productJson(product: Product, projection: Projection): string {
  return JSON.stringify(projectProduct(product, { projection, metafields: NO_METAFIELDS, sellingPlans: false, loadMetafields: () => [] }));
}

// Stored as: the number of price values found (u32), then for each, in the
// order they appear, its slot, start and end in the JSON (u32 each), then the JSON.
const SPAN_BYTES = 12;

export function encodeStoredJson(product: Product, projection: Projection): Uint8Array {
  const json = encoder.encode(productJson(product, projection));
  const spans = priceSpans(json);
  const headerBytes = 4 + spans.length * SPAN_BYTES;
  const bytes = new Uint8Array(headerBytes + json.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, spans.length, true);
  spans.forEach(({ slot, start, end }, i) => {
    view.setUint32(4 + i * SPAN_BYTES, slot, true);
    view.setUint32(8 + i * SPAN_BYTES, start, true);
    view.setUint32(12 + i * SPAN_BYTES, end, true);
  });
  bytes.set(json, headerBytes);
  return bytes;
}

/** The stored product's JSON with the market's prices in place of its own (a view of `stored` when there are none). */
export function pricedJson(stored: Uint8Array, pricing: MarketPricing | null): Uint8Array {
  // By `length`, not to the buffer's end: the store's reads are Buffers whose length it sets to the value's.
  const view = new DataView(stored.buffer, stored.byteOffset, stored.length);
  const spanCount = view.getUint32(0, true);
  const json = stored.subarray(4 + spanCount * SPAN_BYTES, stored.length);
  if (pricing === null) return json;
  const replaced: { start: number; end: number; value: Uint8Array }[] = [];
  let length = json.length;
  for (let i = 0; i < spanCount; i++) {
    const value = pricing.slots[view.getUint32(4 + i * SPAN_BYTES, true)];
    if (!value) continue;
    const start = view.getUint32(8 + i * SPAN_BYTES, true);
    const end = view.getUint32(12 + i * SPAN_BYTES, true);
    replaced.push({ start, end, value });
    length += value.length - (end - start);
  }
  const out = new Uint8Array(length);
  let from = 0;
  let to = 0;
  for (const { start, end, value } of replaced) {
    out.set(json.subarray(from, start), to);
    to += start - from;
    out.set(value, to);
    to += value.length;
    from = end;
  }
  out.set(json.subarray(from), to);
  return out;
}

// Finding the price values: a walk over the JSON's structure, so text that
// merely looks like a price member (in a title, a description) is never taken for one.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** The member names looked for, as their JSON (plain ASCII: their text in quotes). */
const VARIANTS_KEY = encoder.encode('"variants"');
const PRICE_KEY = encoder.encode('"price"');
const COMPARE_AT_PRICE_KEY = encoder.encode('"compare_at_price"');

/** Where each variant's price and compare_at_price values lie in a product's compact JSON, in the order they appear. */
function priceSpans(json: Uint8Array): { slot: number; start: number; end: number }[] {
  const spans: { slot: number; start: number; end: number }[] = [];
  const variants = memberValue(json, 0, VARIANTS_KEY);
  if (variants === null || json[variants + 1] === CLOSE_BRACKET) return spans;
  let variant = variants + 1;
  for (let index = 0; ; index++) {
    let name = variant + 1;
    while (json[name] !== CLOSE_BRACE) {
      const start = valueEnd(json, name) + 1; // past the colon
      const end = valueEnd(json, start);
      if (isKey(json, name, start - 1, PRICE_KEY)) spans.push({ slot: priceSlot(index, "price"), start, end });
      else if (isKey(json, name, start - 1, COMPARE_AT_PRICE_KEY)) spans.push({ slot: priceSlot(index, "compare_at_price"), start, end });
      name = json[end] === COMMA ? end + 1 : end;
    }
    // Past the variant's closing brace: a comma means another variant.
    if (json[name + 1] !== COMMA) return spans;
    variant = name + 2;
  }
}

/** Where the value of the member named `key` of the object at `at` starts, or null when it has none. */
function memberValue(json: Uint8Array, at: number, key: Uint8Array): number | null {
  let name = at + 1;
  while (json[name] !== CLOSE_BRACE) {
    const start = valueEnd(json, name) + 1; // past the colon
    if (isKey(json, name, start - 1, key)) return start;
    const end = valueEnd(json, start);
    name = json[end] === COMMA ? end + 1 : end;
  }
  return null;
}

/** Whether the member name from `start` to `end` (its JSON, quotes included) is `key`. */
function isKey(json: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (json[start + i] !== key[i]) return false;
  return true;
}

/** The index just past the value that starts at `at` (JSON as JSON.stringify writes it: no white space). */
function valueEnd(json: Uint8Array, at: number): number {
  const first = json[at];
  if (first === QUOTE) {
    let i = at + 1;
    while (json[i] !== QUOTE) i += json[i] === BACKSLASH ? 2 : 1;
    return i + 1;
  }
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    let i = at;
    do {
      const byte = json[i];
      if (byte === QUOTE) {
        i = valueEnd(json, i);
        continue;
      }
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
      i++;
    } while (depth > 0);
    return i;
  }
  let i = at;
  while (i < json.length && json[i] !== COMMA && json[i] !== CLOSE_BRACE && json[i] !== CLOSE_BRACKET) i++;
  return i;
}
