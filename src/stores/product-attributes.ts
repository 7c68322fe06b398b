// What custom sources ask of the whole catalogue, stored: per product its texts
// as rules compare them (src/core/sources/product-texts.ts), the products
// carrying each tag, vendor and type, and the collections each product is
// listed in. Written in the transaction of every catalogue write that changes
// them (products, collections), so they never disagree with the catalogue;
// rebuilt from the catalogue where a data dir lacks them (DerivedBuild). Pool
// workers read them in place, keeping only a bounded cache of the carriers of
// values rules ask for, while the merchant's catalogue version holds.
import type { Database, RootDatabase } from "lmdb";
import { attributeValues, productTexts, type Attribute, type ProductTexts } from "../core/sources/product-texts.js";
import { MAX_TEXT_VALUE } from "../core/sources/validate.js";
import type { Collection, MerchantId, Product } from "../core/types.js";
import type { DerivedBuild } from "./derived-builds.js";
import { merchantRange, type Key } from "./merchant-keys.js";
import { RecentMap } from "./recent-map.js";

/** The catalogue reads the attributes are derived from. */
export interface AttributeSource {
  product(merchant: MerchantId, id: number): Product | undefined;
  productIdsAfter(merchant: MerchantId, after: number | null, limit: number): number[];
  collection(merchant: MerchantId, id: number): Collection | undefined;
  collectionsOf(merchant: MerchantId): Collection[];
  catalogueVersion(merchant: MerchantId): number;
}

/** The products carrying one value of an attribute, in id order. */
export interface Carriers extends Iterable<number> {
  has(id: number): boolean;
}

/**
 * Values whose carriers a thread keeps, and carriers kept per value at most: at
 * 8 bytes an id, a few MB at worst. A value carried by more is read as it is
 * iterated and asked key by key (a key read costs about a microsecond, an id
 * of a range read a fifth of that).
 */
const CACHED_VALUES = 64;
const CACHED_CARRIERS = 4_096;

/** A product's listings as stored: collection ids, ascending, as float64s. */
function listingBytes(collectionIds: readonly number[]): Uint8Array {
  return new Uint8Array(Float64Array.from(collectionIds).buffer);
}

/** A value's carriers read whole: ids in ascending order. */
class SortedIds implements Carriers {
  constructor(private readonly ids: Float64Array) {}

  has(id: number): boolean {
    let low = 0;
    let high = this.ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.ids[middle]!;
      if (found === id) return true;
      if (found < id) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  [Symbol.iterator](): Iterator<number> {
    return this.ids[Symbol.iterator]();
  }
}

type StoredTexts = [tags: string[], vendor: string, type: string, handle: string, title: string, variantIds: number[]];

/** Products per rebuild slice: each costs a decode and a few puts. */
const BUILD_SLICE = 1_000;

/** Above every number, the last element of this store's keys: bounds the keys that extend a prefix. */
const AFTER_EVERY_ID = "\uffff";

export class ProductAttributesStore implements DerivedBuild {
  readonly name = "product_attributes";
  readonly layout = 1;
  /** [merchant, product] → its texts as a tuple: msgpack then stores no field names, and an array decodes fastest. */
  private readonly texts: Database<StoredTexts, Key>;
  /**
   * [merchant, attribute, value, product]: the products carrying the value, in
   * id order. A value longer than any rule may name is left out: it would only
   * take key space, and LMDB's keys are short.
   */
  private readonly byValue: Database<true, Key>;
  /** [merchant, product] → the ids of the collections listing it, ascending, as float64 (whether or not the product exists). */
  private readonly listings: Database<Uint8Array, Key>;
  /** This thread's carriers of recently asked values, with the catalogue version they were read at; null: too many to keep. */
  private readonly cached = new RecentMap<string, { version: number; ids: SortedIds | null }>(CACHED_VALUES);

  constructor(
    root: RootDatabase,
    private readonly source: AttributeSource,
  ) {
    const structured = { encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") } as const;
    this.texts = root.openDB({ name: "product_attribute_texts", encoding: "msgpack" });
    this.byValue = root.openDB({ name: "product_attribute_carriers", ...structured });
    this.listings = root.openDB({ name: "product_collection_listings", encoding: "binary" });
  }

  // ── reads ──

  /** undefined: no such product. */
  textsOf(merchant: MerchantId, id: number): ProductTexts | undefined {
    const stored = this.texts.get([merchant, id]);
    if (!stored) return undefined;
    const [tags, vendor, type, handle, title, variantIds] = stored;
    return { tags, vendor, type, handle, title, variantIds };
  }

  /** The products carrying this value (lower case) of the attribute. */
  carriers(merchant: MerchantId, attribute: Attribute, value: string): Carriers {
    const version = this.source.catalogueVersion(merchant);
    const name = `${merchant}\u0000${attribute}\u0000${value}`;
    let known = this.cached.get(name);
    if (known?.version !== version) {
      const ids = [...this.carrierIds(merchant, attribute, value, CACHED_CARRIERS + 1)];
      known = { version, ids: ids.length > CACHED_CARRIERS ? null : new SortedIds(Float64Array.from(ids)) };
      this.cached.set(name, known);
    }
    return known.ids ?? this.carriersInPlace(merchant, attribute, value);
  }

  /** The collections listing the product, in id order. */
  collectionsOf(merchant: MerchantId, id: number): number[] {
    const bytes = this.listings.getBinaryFast([merchant, id]);
    if (!bytes) return [];
    // lmdb's shared read buffer: `length` is the value's (byteLength the buffer's), at any alignment.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    return Array.from({ length: bytes.length / 8 }, (_, i) => view.getFloat64(i * 8, true));
  }

  private carriersInPlace(merchant: MerchantId, attribute: Attribute, value: string): Carriers {
    return {
      has: (id) => this.byValue.doesExist([merchant, attribute, value, id]),
      [Symbol.iterator]: () => this.carrierIds(merchant, attribute, value),
    };
  }

  private *carrierIds(merchant: MerchantId, attribute: Attribute, value: string, limit?: number): Generator<number> {
    const range = { start: [merchant, attribute, value], end: [merchant, attribute, value, AFTER_EVERY_ID], limit };
    for (const key of this.byValue.getKeys(range)) {
      // A key of a longer value can only fall in this range if the value holds control characters: its value element differs.
      if (key[2] === value) yield key[3] as number;
    }
  }

  // ── writes, in the caller's transaction ──

  /** After the products were written (or before: it reads only its own tables). */
  writeProducts(merchant: MerchantId, products: readonly Product[]): void {
    for (const product of products) this.write(merchant, product.id, productTexts(product));
  }

  removeProduct(merchant: MerchantId, id: number): void {
    this.write(merchant, id, undefined);
  }

  /** Before the collections are written: their stored product lists are what changes. */
  writeCollections(merchant: MerchantId, collections: readonly Collection[]): void {
    // A batch may write a collection twice: the second write changes the first's lists.
    const written = new Map<number, readonly number[]>();
    for (const collection of collections) {
      const before = new Set(written.get(collection.id) ?? this.source.collection(merchant, collection.id)?.product_ids ?? []);
      const after = new Set(collection.product_ids);
      for (const id of before) if (!after.has(id)) this.relist(merchant, id, collection.id, false);
      for (const id of after) if (!before.has(id)) this.relist(merchant, id, collection.id, true);
      written.set(collection.id, collection.product_ids);
    }
  }

  /** Before the collection is removed. */
  removeCollection(merchant: MerchantId, collectionId: number): void {
    for (const id of new Set(this.source.collection(merchant, collectionId)?.product_ids)) this.relist(merchant, id, collectionId, false);
  }

  /** Adds the collection to the product's listings, or takes it out. */
  private relist(merchant: MerchantId, id: number, collectionId: number, listed: boolean): void {
    const others = this.collectionsOf(merchant, id).filter((other) => other !== collectionId);
    const ids = listed ? [...others, collectionId].sort((a, b) => a - b) : others;
    if (ids.length === 0) this.listings.remove([merchant, id]);
    else this.listings.put([merchant, id], listingBytes(ids));
  }

  /** Replaces the product's texts and index entries; `texts` undefined: the product is gone. */
  private write(merchant: MerchantId, id: number, texts: ProductTexts | undefined): void {
    const old = this.textsOf(merchant, id);
    const before = this.indexKeys(merchant, id, old);
    const after = this.indexKeys(merchant, id, texts);
    for (const [entry, key] of before) if (!after.has(entry)) this.byValue.remove(key);
    for (const [entry, key] of after) if (!before.has(entry)) this.byValue.put(key, true);
    if (texts) this.texts.put([merchant, id], [texts.tags, texts.vendor, texts.type, texts.handle, texts.title, texts.variantIds]);
    else if (old) this.texts.remove([merchant, id]);
  }

  /** The product's keys in the byValue table, by attribute and value. */
  private indexKeys(merchant: MerchantId, id: number, texts: ProductTexts | undefined): Map<string, Key> {
    const keys = new Map<string, Key>();
    for (const { attribute, value } of texts ? attributeValues(texts) : []) {
      if (value.length <= MAX_TEXT_VALUE) keys.set(`${attribute}\u0000${value}`, [merchant, attribute, value, id]);
    }
    return keys;
  }

  // ── rebuild (DerivedBuild) ──

  clear(merchant: MerchantId): void {
    for (const db of [this.texts, this.byValue, this.listings] as Database<unknown, Key>[]) {
      for (const key of db.getKeys(merchantRange(merchant))) db.remove(key);
    }
  }

  /** Products in id order (cursor: the last one written), then, with the last of them, every collection's listings. */
  buildSlice(merchant: MerchantId, cursor: number | null): number | null {
    const ids = this.source.productIdsAfter(merchant, cursor, BUILD_SLICE);
    for (const id of ids) this.write(merchant, id, productTexts(this.source.product(merchant, id)!));
    if (ids.length === BUILD_SLICE) return ids[ids.length - 1]!;
    const listings = new Map<number, Set<number>>();
    for (const collection of this.source.collectionsOf(merchant)) {
      for (const id of collection.product_ids) {
        const ids = listings.get(id);
        if (ids) ids.add(collection.id);
        else listings.set(id, new Set([collection.id]));
      }
    }
    for (const [id, ids] of listings) this.listings.put([merchant, id], listingBytes([...ids].sort((a, b) => a - b)));
    return null;
  }
}
