// What custom sources ask of the whole catalogue, kept in a worker's memory per
// merchant: the products carrying each tag, vendor and type (texts lower case,
// as rules compare them), built on first use and kept current from the
// catalogue change log; and the collections each product belongs to, read
// again when the collections change. Merchants whose sources never ask keep neither.
import type { MerchantId, Product } from "../core/types.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";

/** Products read per slice of a build. */
const BUILD_SLICE = 2_000;
/** More changes than this share of the catalogue since the last look: rebuild rather than replay them. */
const REBUILD_SHARE = 0.25;

export type Attribute = "tags" | "vendors" | "product_types";

/** A product's texts as rules compare them. */
export interface ProductTexts {
  tags: string[];
  vendor: string;
  type: string;
  handle: string;
  title: string;
  /** In the product's order, which its eligibility record's prices follow. */
  variantIds: number[];
}

const EMPTY: ReadonlySet<number> = new Set();

function textsOf(product: Product): ProductTexts {
  return {
    tags: product.tags
      .split(",")
      .map((tag) => tag.trim().toLowerCase())
      .filter((tag) => tag !== ""),
    vendor: product.vendor.trim().toLowerCase(),
    type: product.product_type.trim().toLowerCase(),
    handle: product.handle.toLowerCase(),
    title: product.title.trim().toLowerCase(),
    variantIds: product.variants.map((variant) => variant.id),
  };
}

export class ProductAttributes {
  private readonly byProduct = new Map<number, ProductTexts>();
  private readonly index: Record<Attribute, Map<string, Set<number>>> = { tags: new Map(), vendors: new Map(), product_types: new Map() };

  private constructor(
    private readonly merchant: MerchantId,
    private sequence: number,
  ) {}

  static build(store: Store, merchant: MerchantId): ProductAttributes {
    // The log's position first: changes made while the catalogue is read are replayed after.
    const attributes = new ProductAttributes(merchant, store.catalogueSequence(merchant));
    let after: number | null = null;
    for (;;) {
      const ids = store.productIdsAfter(merchant, after, BUILD_SLICE);
      for (const id of ids) attributes.apply(id, store.product(merchant, id));
      if (ids.length < BUILD_SLICE) return attributes;
      after = ids[ids.length - 1]!;
    }
  }

  /** Takes in the changes logged since; false when a rebuild is cheaper (or the log is not the one it followed). */
  catchUp(store: Store): boolean {
    const latest = store.catalogueSequence(this.merchant);
    if (latest === this.sequence) return true;
    if (latest < this.sequence || latest - this.sequence > Math.max(1_000, this.byProduct.size * REBUILD_SHARE)) return false;
    const changes = store.catalogueChangesSince(this.merchant, this.sequence);
    if (changes === null) return false;
    for (const { change } of changes) if (change.kind === "product") this.apply(change.id, store.product(this.merchant, change.id));
    this.sequence = latest;
    return true;
  }

  /** The products with this value of the attribute (lower case). */
  productsWith(attribute: Attribute, value: string): ReadonlySet<number> {
    return this.index[attribute].get(value) ?? EMPTY;
  }

  /** undefined: no such product. */
  textsOf(id: number): ProductTexts | undefined {
    return this.byProduct.get(id);
  }

  hasTag(id: number, tag: string): boolean {
    return this.byProduct.get(id)?.tags.includes(tag) ?? false;
  }

  private apply(id: number, product: Product | undefined): void {
    const old = this.byProduct.get(id);
    if (old) {
      for (const tag of old.tags) this.index.tags.get(tag)?.delete(id);
      this.index.vendors.get(old.vendor)?.delete(id);
      this.index.product_types.get(old.type)?.delete(id);
      this.byProduct.delete(id);
    }
    if (!product) return;
    const texts = textsOf(product);
    this.byProduct.set(id, texts);
    const add = (attribute: Attribute, value: string) => {
      let ids = this.index[attribute].get(value);
      if (!ids) this.index[attribute].set(value, (ids = new Set()));
      ids.add(id);
    };
    for (const tag of texts.tags) add("tags", tag);
    add("vendors", texts.vendor);
    add("product_types", texts.type);
  }
}

const attributesByStore = new PerStore<MerchantId, ProductAttributes>();

/** The merchant's attribute index in this worker, current with the catalogue this task reads. */
export function productAttributes(store: Store, merchant: MerchantId): ProductAttributes {
  const memo = attributesByStore.of(store);
  const known = memo.get(merchant);
  if (known?.catchUp(store)) return known;
  const built = ProductAttributes.build(store, merchant);
  memo.set(merchant, built);
  return built;
}

interface Memberships {
  version: number;
  collectionsOf: Map<number, number[]>;
  members: Map<number, ReadonlySet<number>>;
}

const membershipsByStore = new PerStore<MerchantId, Memberships>();

/** The merchant's collections by product and products by collection, read once per version of its collections. */
export function collectionMemberships(store: Store, merchant: MerchantId): Memberships {
  const memo = membershipsByStore.of(store);
  const version = store.version(merchant, "collections");
  const known = memo.get(merchant);
  if (known && known.version === version) return known;
  const collectionsOf = new Map<number, number[]>();
  const members = new Map<number, ReadonlySet<number>>();
  for (const collection of store.collectionsOf(merchant)) {
    members.set(collection.id, new Set(collection.product_ids));
    for (const id of collection.product_ids) {
      const list = collectionsOf.get(id);
      if (list) list.push(collection.id);
      else collectionsOf.set(id, [collection.id]);
    }
  }
  const built = { version, collectionsOf, members };
  memo.set(merchant, built);
  return built;
}

/** The products of a collection, none for an unknown one. */
export function membersOf(memberships: Memberships, collectionId: number): ReadonlySet<number> {
  return memberships.members.get(collectionId) ?? EMPTY;
}
