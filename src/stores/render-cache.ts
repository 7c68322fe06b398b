// A thread's bounded cache of what answers read to render products: stored
// JSON (which LZ4 decompresses on every read: about 2.4 µs for the demo's
// 4.8 KB, most of a recommended miss's reads), decoded eligibility records,
// decoded market prices (a list with a country_code reads them for every
// candidate it judges) and collection headings. Values are grouped by merchant and the data version
// read with them (see merchantCatalog, collectionHeading), so a write that
// moves the version retires them, and no group is shared between merchants.
import { GenerationalCache } from "../core/generational-cache.js";
import type { Eligibility } from "../core/products/eligibility.js";
import type { MarketPricing } from "../core/products/market-pricing.js";
import type { CollectionHeading } from "../core/types.js";
import type { Store } from "./store.js";

/** null: the store has no such record (remembered too, so a miss is not read again). */
export type CachedRead = Uint8Array | Eligibility | MarketPricing | CollectionHeading | null;

/**
 * What one generation holds: about 1,600 products' JSON of the demo's 4.8 KB;
 * both generations, about twice that (16 MB) per thread.
 */
const GENERATION_BYTES = 8 * 1024 * 1024;

/**
 * What a value costs beyond its own bytes, measured: a stored JSON copy's
 * typed array, backing store and Map entry about 200 bytes; an eligibility
 * record (an object, two small typed arrays, the entry) about 520.
 */
const BYTES_OUTSIDE_JSON = 200;
const ELIGIBILITY_BYTES = 520;
const HEADING_BYTES = 200;
/**
 * A market's prices of a product: its object, slot array and cents array, and
 * each changed price's own small typed array; not measured, but set from the
 * eligibility record's measured cost (an object and two small typed arrays,
 * about 520): about 200 bytes a typed array with its backing store.
 */
const PRICING_BYTES = 500;
const PRICE_SLOT_BYTES = 200;
const ABSENT_BYTES = 100;

const caches = new WeakMap<Store, GenerationalCache<CachedRead>>();

export function renderCacheOf(store: Store): GenerationalCache<CachedRead> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new GenerationalCache(GENERATION_BYTES, cachedBytes)));
  return cache;
}

/** The group of a merchant's values of one kind at one data version: what they were read under, and nothing of another merchant. */
export function renderGroup(merchantId: string, version: number, kind: string): string {
  return `${merchantId}\u0000${version}\u0000${kind}`;
}

/**
 * The cached value of `id` in `group`, or what `read` gives, cached (an absent
 * record too, as null). `T` is the kind the group holds: each group holds one.
 */
export function readThrough<T extends Exclude<CachedRead, null>>(
  cache: GenerationalCache<CachedRead>,
  group: string,
  id: number,
  read: () => T | undefined,
): T | undefined {
  const cached = cache.get(group, id) as T | null | undefined;
  if (cached !== undefined) return cached ?? undefined;
  const value = read();
  cache.set(group, id, value ?? null);
  return value;
}

/** Drops what this thread cached for the store: for measuring answers that read everything from LMDB (the bench). */
export function forgetRenderReads(store: Store): void {
  caches.get(store)?.clear();
}

function cachedBytes(value: CachedRead): number {
  if (value === null) return ABSENT_BYTES;
  if (value instanceof Uint8Array) return value.length + BYTES_OUTSIDE_JSON;
  // Before eligibility's test: both carry cents.
  if ("slots" in value)
    return (
      PRICING_BYTES +
      value.cents.byteLength +
      value.slots.reduce((sum, slot) => sum + (slot === null ? 8 : PRICE_SLOT_BYTES + slot.length), 0)
    );
  if ("cents" in value) return ELIGIBILITY_BYTES + value.cents.byteLength + value.available.length;
  return HEADING_BYTES + 2 * (value.title.length + value.handle.length);
}
