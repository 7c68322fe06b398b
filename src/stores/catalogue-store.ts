// The catalogue: merchants and their API keys, products with the indexes of
// their handles, variants and SKUs, metafields, collections, customers (their
// emails and order counters) and markets with their prices. A catalogue write
// feeds the derived stores kept from it in its own transaction.
import type { Database } from "lmdb";
import { InvalidInput } from "../core/ingest/fields.js";
import type { NormalisedProduct } from "../core/ingest/product.js";
import { customerCounters } from "../core/customer-counters.js";
import type { RateLimits } from "../core/rate-limit.js";
import type {
  Collection,
  Customer,
  Market,
  MarketSettings,
  Merchant,
  MerchantId,
  Metafield,
  Order,
  Product,
  VariantPrice,
} from "../core/types.js";
import type { DerivedBuilds } from "./derived-builds.js";
import type { Environment } from "./environment.js";
import { merchantRange, type Key } from "./merchant-keys.js";
import type { OrderStore } from "./order-store.js";
import type { ProductAttributesStore } from "./product-attributes.js";
import type { ProductRenderStore } from "./product-render.js";
import type { SearchIndexStore } from "./search-index.js";
import type { StarterVectors } from "./starter-vectors.js";

export type ProductsChanged = (merchant: MerchantId, productIds: number[]) => void;

/** The kinds of record a merchant has, as the admin API names them. */
export type RecordKind = "products" | "collections" | "customers" | "orders" | "markets";

/** A create of something that exists already (merchants are created once, never upserted). */
export class AlreadyExistsError extends Error {}

/** Validated records of a kind rewrite() writes. */
export type RecordBatch =
  | { kind: "products"; items: Located<NormalisedProduct>[] }
  | { kind: "collections"; items: Located<Collection>[] }
  | { kind: "customers"; items: Located<Customer>[] };

/** An upsert whose path names the input object, for error messages. */
export interface Located<T> {
  path: string;
  value: T;
}

/**
 * What catalogue writes feed, in their transaction: the derived stores kept
 * from the catalogue (built after it, since they read it), the derived builds'
 * markers, and the orders customers' counters are counted from.
 */
export interface CatalogueFeeds {
  readonly productRender: ProductRenderStore;
  readonly searchIndex: SearchIndexStore;
  readonly starterVectors: StarterVectors;
  readonly productAttributes: ProductAttributesStore;
  readonly derived: Pick<DerivedBuilds, "markAllBuilt">;
  readonly orders: Pick<OrderStore, "ordersOfCustomer" | "table">;
}

export class CatalogueStore {
  private readonly merchants: Database<Merchant, MerchantId>;
  private readonly apiKeys: Database<MerchantId, string>;
  private readonly products: Database<Product, Key>;
  private readonly handles: Database<number, Key>;
  private readonly variants: Database<number, Key>;
  private readonly skus: Database<number, Key>;
  private readonly metafieldsDb: Database<Metafield[], Key>;
  private readonly collections: Database<Collection, Key>;
  private readonly customers: Database<Customer, Key>;
  private readonly markets: Database<MarketSettings, Key>;
  private readonly marketPrices: Database<VariantPrice, Key>;
  private readonly customerEmails: Database<number, Key>;
  private readonly productListeners: ProductsChanged[] = [];

  constructor(
    private readonly env: Environment,
    private readonly feeds: CatalogueFeeds,
  ) {
    this.merchants = env.table("merchants");
    this.apiKeys = env.table("api_keys");
    this.products = env.table("products");
    this.handles = env.table("product_handles");
    this.variants = env.table("variant_products");
    this.skus = env.table("sku_variants");
    this.metafieldsDb = env.table("metafields");
    this.collections = env.table("collections");
    this.customers = env.table("customers");
    this.markets = env.table("markets");
    this.marketPrices = env.table("market_prices");
    this.customerEmails = env.table("customer_emails");
  }

  isEmpty(): boolean {
    return this.merchants.getKeysCount() === 0;
  }

  // ── reads ────────────────────────────────────────────────────────────────

  merchant(id: MerchantId): Merchant | undefined {
    return this.merchants.get(id);
  }

  merchantIdByKey(apiKey: string): MerchantId | undefined {
    return this.apiKeys.get(apiKey);
  }

  listMerchants(): Merchant[] {
    return [...this.merchants.getRange().map(({ value }) => value)];
  }

  product(merchant: MerchantId, id: number): Product | undefined {
    return this.products.get([merchant, id]);
  }

  productIdByHandle(merchant: MerchantId, handle: string): number | undefined {
    return this.handles.get([merchant, handle]);
  }

  productIdByVariant(merchant: MerchantId, variantId: number): number | undefined {
    return this.variants.get([merchant, variantId]);
  }

  variantIdBySku(merchant: MerchantId, sku: string): number | undefined {
    return this.skus.get([merchant, sku]);
  }

  metafields(merchant: MerchantId, owner: Metafield["owner_resource"], ownerId: number): Metafield[] {
    return this.metafieldsDb.get([merchant, owner, ownerId]) ?? [];
  }

  collection(merchant: MerchantId, id: number): Collection | undefined {
    return this.collections.get([merchant, id]);
  }

  customer(merchant: MerchantId, id: number): Customer | undefined {
    return this.customers.get([merchant, id]);
  }

  customerIdByEmail(merchant: MerchantId, email: string): number | undefined {
    return this.customerEmails.get([merchant, email.toLowerCase()]);
  }

  /** The merchant's markets in id order: "the first active market" is the lowest id. */
  marketsOf(merchant: MerchantId): MarketSettings[] {
    return [...this.markets.getRange(merchantRange(merchant)).map(({ value }) => value)];
  }

  /** The merchant's market ids, read without decoding their settings. */
  marketIds(merchant: MerchantId): number[] {
    return [...this.markets.getKeys(merchantRange(merchant)).map((key) => key[1] as number)];
  }

  productIds(merchant: MerchantId): number[] {
    return [...this.productIdsInOrder(merchant)];
  }

  /** The merchant's product ids in id order, read as they are taken: a list that needs a few reads no more. */
  productIdsInOrder(merchant: MerchantId): Iterable<number> {
    return this.products.getKeys(merchantRange(merchant)).map((key) => key[1] as number);
  }

  /** Up to `limit` product ids above `after` (from the first when null), in id order: the catalogue read a slice at a time. */
  productIdsAfter(merchant: MerchantId, after: number | null, limit: number): number[] {
    return this.idsAfter("products", merchant, after, limit);
  }

  /** Up to `limit` ids of a kind of record above `after` (from the first when null), in id order: a listing a page at a time. */
  idsAfter(kind: RecordKind, merchant: MerchantId, after: number | null, limit: number): number[] {
    const { start, end } = merchantRange(merchant);
    const ids: number[] = [];
    for (const key of this.tableOf(kind).getKeys({ start: after === null ? start : [merchant, after], end, limit: limit + 1 })) {
      const id = (key as Key)[1] as number;
      if (id !== after && ids.length < limit) ids.push(id);
    }
    return ids;
  }

  private tableOf(kind: RecordKind): { getKeys: Database<unknown, Key>["getKeys"]; getKeysCount: Database<unknown, Key>["getKeysCount"] } {
    return {
      products: this.products,
      collections: this.collections,
      customers: this.customers,
      orders: this.feeds.orders.table,
      markets: this.markets,
    }[kind];
  }

  /** A market's price list, by variant id (as the admin API takes it). */
  marketPriceList(merchant: MerchantId, marketId: number): Record<string, VariantPrice> {
    const prices: Record<string, VariantPrice> = {};
    for (const { key, value } of this.marketPrices.getRange({ start: [merchant, marketId], end: [merchant, marketId, "\uffff"] })) {
      prices[String(key[2])] = value;
    }
    return prices;
  }

  marketPrice(merchant: MerchantId, marketId: number, variantId: number): VariantPrice | undefined {
    return this.marketPrices.get([merchant, marketId, variantId]);
  }

  collectionsOf(merchant: MerchantId): Collection[] {
    return [...this.collections.getRange(merchantRange(merchant)).map(({ value }) => value)];
  }

  countOf(merchant: MerchantId, kind: RecordKind): number {
    return this.tableOf(kind).getKeysCount(merchantRange(merchant));
  }

  // ── writes: each call is one transaction; a thrown InvalidInput writes nothing ──

  async createMerchant(merchant: Merchant): Promise<void> {
    await this.env.root.childTransaction(() => {
      if (this.merchants.get(merchant.id)) throw new AlreadyExistsError(`Merchant ${merchant.id} already exists`);
      this.merchants.put(merchant.id, merchant);
      this.apiKeys.put(merchant.api_key, merchant.id);
      this.feeds.derived.markAllBuilt(merchant.id);
    });
  }

  /** Replaces a merchant's own rate limits; the merchant as now stored, or undefined when there is none. */
  async setMerchantRateLimits(id: MerchantId, limits: Partial<RateLimits>): Promise<Merchant | undefined> {
    return this.env.root.childTransaction(() => {
      const merchant = this.merchants.get(id);
      if (!merchant) return undefined;
      const updated: Merchant = { ...merchant, rate_limits: limits };
      this.merchants.put(id, updated);
      return updated;
    });
  }

  /** Called after a commit that created, changed or deleted products (models derived from product text follow). */
  onProductsChanged(listener: ProductsChanged): void {
    this.productListeners.push(listener);
  }

  private productsChanged(merchant: MerchantId, ids: number[]): void {
    for (const listener of this.productListeners) listener(merchant, ids);
  }

  async upsertProducts(merchant: MerchantId, items: Located<NormalisedProduct>[]): Promise<void> {
    await this.env.root.childTransaction(() => this.writeProducts(merchant, items));
    this.productsChanged(
      merchant,
      items.map(({ value }) => value.product.id),
    );
  }

  /** upsertProducts' writes, in the caller's transaction. */
  private writeProducts(merchant: MerchantId, items: Located<NormalisedProduct>[]): void {
    for (const { path, value } of items) this.writeProduct(merchant, path, value);
    const products = items.map(({ value }) => value.product);
    this.feeds.starterVectors.writeProducts(merchant, products);
    this.feeds.productRender.writeProducts(merchant, products);
    this.feeds.searchIndex.writeProducts(merchant, products);
    this.feeds.productAttributes.writeProducts(merchant, products);
    this.env.bump(merchant, "catalogue");
  }

  /**
   * One record written again from what is stored of it: `next` reads the
   * stored record and returns what to write (null: there is none, and nothing
   * is written; it may throw, and nothing is written), and `readBack` then
   * reads what was written, all in the write's own transaction. No other write
   * lands between that read and this write, so writes to one record that race
   * each build on the one before, as if sent one after another (a PATCH read on
   * the HTTP thread, then queued, wrote back what it had read over writes
   * committed meanwhile); and what is answered is this write's record, even if
   * the next write deletes it. Null when there was none.
   */
  async rewrite<T>(merchant: MerchantId, next: () => RecordBatch | null, readBack: () => T): Promise<T | null> {
    const written = await this.env.root.childTransaction(() => {
      const batch = next();
      if (batch === null) return null;
      switch (batch.kind) {
        case "products":
          this.writeProducts(merchant, batch.items);
          break;
        case "collections":
          this.writeCollections(merchant, batch.items);
          break;
        case "customers":
          this.writeCustomers(merchant, batch.items);
          break;
      }
      return { batch, record: readBack() };
    });
    if (written?.batch.kind === "products")
      this.productsChanged(
        merchant,
        written.batch.items.map(({ value }) => value.product.id),
      );
    return written === null ? null : written.record;
  }

  /** Returns false when there was no such product. */
  async deleteProduct(merchant: MerchantId, id: number): Promise<boolean> {
    const deleted = await this.env.root.childTransaction(() => {
      const old = this.products.get([merchant, id]);
      if (!old) return false;
      this.unindexProduct(merchant, old);
      this.products.remove([merchant, id]);
      this.feeds.productRender.removeProduct(merchant, id);
      this.feeds.searchIndex.removeProduct(merchant, id);
      this.feeds.starterVectors.remove(merchant, id);
      this.feeds.productAttributes.removeProduct(merchant, id);
      this.env.bump(merchant, "catalogue");
      return true;
    });
    if (deleted) this.productsChanged(merchant, [id]);
    return deleted;
  }

  async upsertCollections(merchant: MerchantId, items: Located<Collection>[]): Promise<void> {
    await this.env.root.childTransaction(() => this.writeCollections(merchant, items));
  }

  /** upsertCollections' writes, in the caller's transaction. */
  private writeCollections(merchant: MerchantId, items: Located<Collection>[]): void {
    this.feeds.productAttributes.writeCollections(
      merchant,
      items.map(({ value }) => value),
    );
    for (const { value } of items) this.collections.put([merchant, value.id], value);
    this.feeds.searchIndex.writeCollections(
      merchant,
      items.map(({ value }) => value),
    );
    this.env.bump(merchant, "catalogue");
    this.env.bump(merchant, "collections");
  }

  async deleteCollection(merchant: MerchantId, id: number): Promise<boolean> {
    return this.env.root.childTransaction(() => {
      if (!this.collections.get([merchant, id])) return false;
      this.feeds.productAttributes.removeCollection(merchant, id);
      this.collections.remove([merchant, id]);
      this.feeds.searchIndex.removeCollection(merchant, id);
      this.env.bump(merchant, "catalogue");
      this.env.bump(merchant, "collections");
      return true;
    });
  }

  /** A market replaces its whole price list: prices it no longer lists are removed. */
  async upsertMarkets(merchant: MerchantId, items: Located<Market>[]): Promise<void> {
    await this.env.root.childTransaction(() => {
      for (const { value } of items) {
        const { variant_prices: prices, ...settings } = value;
        for (const key of this.marketPrices.getKeys({ start: [merchant, value.id], end: [merchant, value.id, "\uffff"] })) {
          this.marketPrices.remove(key);
        }
        for (const [variantId, price] of Object.entries(prices)) this.marketPrices.put([merchant, value.id, Number(variantId)], price);
        this.markets.put([merchant, value.id], settings);
        this.feeds.productRender.rewriteMarket(merchant, value.id, Object.keys(prices).map(Number));
      }
      this.env.bump(merchant, "catalogue");
    });
  }

  async upsertCustomers(merchant: MerchantId, items: Located<Customer>[]): Promise<void> {
    await this.env.root.childTransaction(() => this.writeCustomers(merchant, items));
  }

  /** upsertCustomers' writes, in the caller's transaction. */
  private writeCustomers(merchant: MerchantId, items: Located<Customer>[]): void {
    for (const { value } of items) {
      const old = this.customers.get([merchant, value.id]);
      if (old && old.email !== "") this.customerEmails.remove([merchant, old.email.toLowerCase()]);
      // The counters follow the orders held here, whatever the record says.
      const customer: Customer = { ...value, ...customerCounters(this.feeds.orders.ordersOfCustomer(merchant, value.id)) };
      this.customers.put([merchant, customer.id], customer);
      if (customer.email !== "") this.customerEmails.put([merchant, customer.email.toLowerCase()], customer.id);
    }
    this.env.bump(merchant, "customers");
  }

  /** Counts the customers' orders again into their records (in the caller's transaction); true if any record changed. `ordersOf`: their orders, when the caller has read them already. */
  recountCustomers(
    merchant: MerchantId,
    customerIds: Iterable<number>,
    ordersOf: (customerId: number) => Order[] = (id) => this.feeds.orders.ordersOfCustomer(merchant, id),
  ): boolean {
    let changed = false;
    for (const id of customerIds) {
      const customer = this.customers.get([merchant, id]);
      if (!customer) continue;
      this.customers.put([merchant, id], { ...customer, ...customerCounters(ordersOf(id)) });
      changed = true;
    }
    return changed;
  }

  private writeProduct(merchant: MerchantId, path: string, { product, metafields }: NormalisedProduct): void {
    const old = this.products.get([merchant, product.id]);
    if (old) this.unindexProduct(merchant, old);

    const handleOwner = this.handles.get([merchant, product.handle]);
    if (handleOwner !== undefined && handleOwner !== product.id) {
      throw new InvalidInput(`${path}.handle`, `"${product.handle}" is already the handle of product ${handleOwner}`);
    }
    this.handles.put([merchant, product.handle], product.id);

    product.variants.forEach((variant, index) => {
      const owner = this.variants.get([merchant, variant.id]);
      if (owner !== undefined && owner !== product.id) {
        throw new InvalidInput(`${path}.variants[${index}].id`, `variant ${variant.id} belongs to product ${owner}`);
      }
      this.variants.put([merchant, variant.id], product.id);
      if (variant.sku !== "") this.skus.put([merchant, variant.sku], variant.id);
    });

    for (const [owner, list] of groupMetafields(metafields)) {
      const [resource, ownerId] = owner.split(":") as [Metafield["owner_resource"], string];
      this.metafieldsDb.put([merchant, resource, Number(ownerId)], list);
    }
    this.products.put([merchant, product.id], product);
  }

  private unindexProduct(merchant: MerchantId, old: Product): void {
    if (this.handles.get([merchant, old.handle]) === old.id) this.handles.remove([merchant, old.handle]);
    this.metafieldsDb.remove([merchant, "product", old.id]);
    for (const variant of old.variants) {
      this.variants.remove([merchant, variant.id]);
      this.metafieldsDb.remove([merchant, "variant", variant.id]);
      if (variant.sku !== "" && this.skus.get([merchant, variant.sku]) === variant.id) {
        this.skus.remove([merchant, variant.sku]);
      }
    }
  }
}

function groupMetafields(metafields: Metafield[]): Map<string, Metafield[]> {
  const groups = new Map<string, Metafield[]>();
  for (const metafield of metafields) {
    const owner = `${metafield.owner_resource}:${metafield.owner_id}`;
    const list = groups.get(owner) ?? [];
    list.push(metafield);
    groups.set(owner, list);
  }
  return groups;
}
