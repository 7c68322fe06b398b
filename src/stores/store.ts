import { open, type Database, type RootDatabase } from "lmdb";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { InvalidInput } from "../core/ingest/fields.js";
import type { NormalisedProduct } from "../core/ingest/product.js";
import {
  basketUnit,
  CopurchaseDelta,
  DEFAULT_COPURCHASE,
  topNeighbours,
  type CopurchaseConfig,
  type PairRow,
  type Tally,
  type WeightedIds,
} from "../core/recs/copurchase.js";
import { dayNumber } from "../core/recs/days.js";
import { appendToHistory, emptyHistory, productsWithVerb, type History } from "../core/recs/history.js";
import { addOrderChange, type SalesDelta } from "../core/recs/sales.js";
import { customerCounters } from "../core/customer-counters.js";
import type { RateLimits } from "../core/rate-limit.js";
import { DailyCounts, type CountChange } from "./daily-counts.js";
import { CustomerCountersBuild } from "./customer-counters-build.js";
import { DerivedBuilds, type DerivedBuild } from "./derived-builds.js";
import { CopurchaseCounts } from "./copurchase-counts.js";
import { EventHistories, type HistoryWalk } from "./event-histories.js";
import { merchantRange, type Key } from "./merchant-keys.js";
import { ProductRenderStore } from "./product-render.js";
import { StarterVectors } from "./starter-vectors.js";
import { DEFAULT_TOP_SELLERS, RankedLists } from "./ranked-lists.js";
import { RankingWriter } from "./ranking-writer.js";
import { RecentMap } from "./recent-map.js";
import { pruneEventRecords, pruneLoggedOneByOne, pruneSessionPairs, type Retention, type SessionPairDay } from "./retention.js";
import { SearchIndexStore } from "./search-index.js";
import { SessionIndex } from "./session-index.js";
import { SessionIndexBuild } from "./session-index-build.js";
import { ViewedRelatedTunings } from "./viewed-related-tuning.js";
import { SimilarStore } from "./similar.js";
import type {
  BehaviourEvent,
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

/** Bumped whenever the stored layout changes; a data dir of another version is migrated (from formats 2 to 5) or refused. */
export const STORE_FORMAT_VERSION = 6;

/** What a change touches, so caches of unrelated lists survive it. */
/**
 * "similar": the similar-products model (vectors and neighbour lists);
 * "collections": collections (moves with "catalogue"); "rankings": the stored
 * shop-wide rankings, whenever a refresh changes one.
 */
export type DataDomain = "catalogue" | "customers" | "orders" | "similar" | "collections" | "rankings";

export class StoreFormatError extends Error {}

/** A command that needs existing data found none where it looked. */
export class StoreNotFoundError extends Error {
  constructor(readonly dataDir: string) {
    super(`no aisle data in ${dataDir}: pass --data (or set AISLE_DATA_DIR) to the data dir aisle serve uses`);
  }
}

/** Where each environment keeps the id that pairs aisle.lmdb with its events.lmdb. */
const PAIR_KEY = "environment_pair";
/** A bulk append (appendEvents) logs records of at most this many events. */
const BULK_RECORD_EVENTS = 1_000;
/** Sessions whose merchant logEvents remembers without reading the index: about 100k sessions take ~10 MB. */
const RECENT_SESSIONS = 100_000;
const MISMATCHED_LOG =
  "events.lmdb in this data dir is missing or belongs to another aisle.lmdb (their pair ids differ): restore the two files together, or move both away to start afresh";

/** The log's counter of a merchant's last event sequence number. */
function eventSequenceKey(merchant: MerchantId): string {
  return `event_sequence:${merchant}`;
}

/** The meta key of a merchant's derived watermark (see deriveEventsSync). */
function derivedKey(merchant: MerchantId): string {
  return `event_derived:${merchant}`;
}

export type ProductsChanged = (merchant: MerchantId, productIds: number[]) => void;

/** The kinds of record a merchant has, as the admin API names them. */
export type RecordKind = "products" | "collections" | "customers" | "orders" | "markets";

/** A create of something that exists already (merchants are created once, never upserted). */
export class AlreadyExistsError extends Error {}

/** An upsert whose path names the input object, for error messages. */
export interface Located<T> {
  path: string;
  value: T;
}

/**
 * The one LMDB environment of a data dir, its named dbs and every read and write
 * aisle makes. The main thread and every worker open it once; reads are
 * synchronous memory-mapped lookups, writes are batched async transactions.
 */
export class Store {
  private readonly meta: Database<unknown, string>;
  private readonly merchants: Database<Merchant, MerchantId>;
  private readonly apiKeys: Database<MerchantId, string>;
  private readonly versions: Database<number, Key>;
  private readonly products: Database<Product, Key>;
  private readonly handles: Database<number, Key>;
  private readonly variants: Database<number, Key>;
  private readonly skus: Database<number, Key>;
  private readonly metafieldsDb: Database<Metafield[], Key>;
  private readonly collections: Database<Collection, Key>;
  private readonly customers: Database<Customer, Key>;
  private readonly orders: Database<Order, Key>;
  private readonly customerOrders: Database<true, Key>;
  private readonly markets: Database<MarketSettings, Key>;
  private readonly marketPrices: Database<VariantPrice, Key>;
  /** The event log up to format 4: one record per event, keyed [merchant, sequence]. Read, never written. */
  private readonly eventsOneByOne: Database<BehaviourEvent, Key>;
  /**
   * The event log since format 5: one record per commit and merchant, keyed
   * [merchant, last sequence], so the first record at or after a sequence
   * number is the one holding it.
   */
  private readonly eventRecords: Database<readonly BehaviourEvent[], Key>;
  /** Units sold per day and product: an order touches only its own lines. */
  readonly dailySales: DailyCounts;
  /** Recent events per [merchant, "session" | "customer", id]. */
  private readonly histories: EventHistories;
  /** Add-to-cart events per day and product: a demand signal beside sales. */
  readonly dailyAdds: DailyCounts;
  /** Up to format 6: session → the last merchant that logged it. Read, never written: a session belongs to whoever logs it. */
  private readonly sessionMerchants: Database<MerchantId, string>;
  /**
   * [uuid, merchant] of every merchant that logged the session (one shop's
   * events never move a session away from another) → the day it last did.
   */
  private readonly sessionMerchantPairs: Database<SessionPairDay, [string, MerchantId]>;
  private readonly customerEmails: Database<number, Key>;
  private readonly coCounts: CopurchaseCounts;
  private readonly coNeighbours: Database<WeightedIds, Key>;
  private readonly coListVersions: Database<number, Key>;
  /** [merchant, product] of bought-together lists that carts changed and that are not recomputed yet. */
  private readonly staleLists: Database<true, Key>;
  /** The similar-products model's vectors and lists. */
  readonly similar: SimilarStore;
  /** Each product's eligibility record and JSON, and markets' prices of it: what lists read instead of products. */
  readonly productRender: ProductRenderStore;
  /** Quick-view search's index: catalogue writes keep it, the stored top sellers its popularity. */
  readonly searchIndex: SearchIndexStore;
  /** Each product's starter vector: similar lists before a trained model exists. */
  readonly starterVectors: StarterVectors;
  /** The shop-wide rankings, as stored lists every thread reads. */
  readonly rankings: RankedLists;
  /** Their one writer, the applier thread's background job (other threads only read the lists). */
  readonly rankingWriter: RankingWriter;
  /** viewed-related's sessions and, per product, their recent viewers: the applier writes it with the histories. */
  readonly sessionIndex: SessionIndex;
  /** Each shop's tuned viewed-related settings. */
  readonly viewedRelatedTuning: ViewedRelatedTunings;
  private readonly sessionIndexBuild: SessionIndexBuild;
  /** Which derived stores each merchant has built (a data dir from an older build lacks some). */
  private readonly derived: DerivedBuilds;
  private readonly productListeners: ProductsChanged[] = [];

  /** Event-log sequence counters ("event_sequence:<merchant>"), in the log's environment. */
  private readonly logMeta: Database<unknown, string>;
  /** Per merchant, the next sequence number logEvents hands out, once it has logged for that merchant. */
  private readonly nextSequences = new Map<MerchantId, number>();
  /** Sessions logEvents has indexed lately: most events come from a session it has seen, and a Map is cheaper than an LMDB read. */
  private readonly indexedSessions = new RecentMap<string, number>(RECENT_SESSIONS);

  private constructor(
    private readonly root: RootDatabase,
    /**
     * The behaviour-event log in an environment of its own: LMDB has one writer
     * per environment, so logging an event (what its acknowledgement waits for)
     * never waits behind a catalogue write or the application of earlier events.
     */
    private readonly logRoot: RootDatabase,
    /** The bought-together model's settings; evaluations try others. */
    readonly copurchase: CopurchaseConfig,
  ) {
    const db = <V, K extends string | Key>(name: string, env: RootDatabase = root) =>
      env.openDB<V, K>({ name, encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") });
    this.meta = db("meta");
    this.merchants = db("merchants");
    this.apiKeys = db("api_keys");
    this.versions = db("versions");
    this.products = db("products");
    this.handles = db("product_handles");
    this.variants = db("variant_products");
    this.skus = db("sku_variants");
    this.metafieldsDb = db("metafields");
    this.collections = db("collections");
    this.customers = db("customers");
    this.orders = db("orders");
    this.customerOrders = db("customer_orders");
    this.markets = db("markets");
    this.marketPrices = db("market_prices");
    this.eventsOneByOne = db("events", logRoot);
    this.eventRecords = db("event_records", logRoot);
    this.logMeta = db("log_meta", logRoot);
    this.dailySales = new DailyCounts(root, "sales_by_day_product", "sales_day_stamps");
    this.histories = new EventHistories(root);
    this.dailyAdds = new DailyCounts(root, "adds_by_day_product", "adds_day_stamps");
    this.sessionMerchants = db("session_merchants", logRoot);
    this.sessionMerchantPairs = db("session_merchant_pairs", logRoot);
    this.customerEmails = db("customer_emails");
    this.coCounts = new CopurchaseCounts(root);
    this.coNeighbours = db("copurchase_neighbours");
    this.coListVersions = db("copurchase_list_versions");
    this.staleLists = db("copurchase_stale_lists");
    this.similar = new SimilarStore(root, (merchant) => this.bump(merchant, "similar"));
    this.productRender = new ProductRenderStore(root, this);
    const searchSource = {
      product: (merchant: MerchantId, id: number) => this.product(merchant, id),
      productIdsAfter: (merchant: MerchantId, after: number | null, limit: number) => this.productIdsAfter(merchant, after, limit),
      collectionsOf: (merchant: MerchantId) => this.collectionsOf(merchant),
      topSellers: (merchant: MerchantId) => this.rankings.read(merchant, DEFAULT_TOP_SELLERS),
    };
    this.searchIndex = new SearchIndexStore(root, searchSource, (merchant) => this.bump(merchant, "catalogue"));
    this.starterVectors = new StarterVectors(root, this);
    this.rankings = new RankedLists(root, (merchant, previous, next) => this.searchIndex.followTopSellers(merchant, previous, next));
    const rankingSources = {
      dailySales: this.dailySales,
      dailyAdds: this.dailyAdds,
      collectionsOf: (merchant: MerchantId) => this.collectionsOf(merchant),
      collectionsVersion: (merchant: MerchantId) => this.version(merchant, "collections"),
    };
    this.rankingWriter = new RankingWriter(root, this.rankings, rankingSources, (merchant) => this.bump(merchant, "rankings"));
    this.sessionIndex = new SessionIndex(root);
    this.sessionIndexBuild = new SessionIndexBuild(this.sessionIndex, this);
    this.viewedRelatedTuning = new ViewedRelatedTunings(root);
    const customerCountersBuild = new CustomerCountersBuild({
      customerIdsAfter: (merchant, after, limit) => this.idsAfter("customers", merchant, after, limit),
      recountCustomers: (merchant, ids) => {
        const changed = this.recountCustomers(merchant, ids);
        if (changed) this.bump(merchant, "customers");
        return changed;
      },
    });
    this.derived = new DerivedBuilds(this.meta, [
      this.productRender,
      this.rankingWriter.build,
      this.starterVectors,
      this.sessionIndexBuild,
      customerCountersBuild,
      this.searchIndex,
    ]);
  }

  /**
   * Opens the store of a data dir, creating it if the dir has none. `mustExist`:
   * for commands that only read or change what is there, so that a mistyped
   * --data names the problem instead of quietly creating an empty store.
   */
  static open(dataDir: string, options: { copurchase?: CopurchaseConfig; mustExist?: boolean } = {}): Store {
    if (options.mustExist && !existsSync(join(dataDir, "aisle.lmdb"))) throw new StoreNotFoundError(dataDir);
    mkdirSync(dataDir, { recursive: true });
    const root = open({ path: join(dataDir, "aisle.lmdb"), maxDbs: 64, mapSize: 64 * 1024 ** 3 });
    // separateFlushed: a write's promise also says when its transaction is on disk (logEvents).
    const logRoot = open({ path: join(dataDir, "events.lmdb"), maxDbs: 8, mapSize: 64 * 1024 ** 3, separateFlushed: true });
    const store = new Store(root, logRoot, options.copurchase ?? DEFAULT_COPURCHASE);
    store.checkFormat();
    return store;
  }

  private checkFormat(): void {
    let found = this.meta.get("format_version");
    if (found === undefined) {
      if (this.logMeta.get(PAIR_KEY) !== undefined) throw new StoreFormatError(MISMATCHED_LOG);
      this.root.transactionSync(() => this.meta.putSync("format_version", STORE_FORMAT_VERSION));
      this.pairEnvironments();
      return;
    }
    if (found === 2) found = this.migrateHistoriesToBinary();
    if (found === 3) found = this.moveEventLog();
    if (found === 4) found = this.startEventRecords();
    if (found === 5) found = this.startHistoryTails();
    if (found !== STORE_FORMAT_VERSION) {
      throw new StoreFormatError(`data dir has store format ${String(found)}, this build reads format ${STORE_FORMAT_VERSION}`);
    }
    // The applied watermarks here count events of that log: any other log would be misread.
    const pair = this.meta.get(PAIR_KEY);
    if (pair === undefined && this.logMeta.get(PAIR_KEY) === undefined)
      this.pairEnvironments(); // a migration interrupted at its end
    else if (pair !== this.logMeta.get(PAIR_KEY)) throw new StoreFormatError(MISMATCHED_LOG);
  }

  /** Gives both environments one random id, so a data dir never runs on another one's event log. */
  private pairEnvironments(): void {
    const id = randomUUID();
    this.logRoot.transactionSync(() => this.logMeta.putSync(PAIR_KEY, id));
    this.root.transactionSync(() => this.meta.putSync(PAIR_KEY, id));
  }

  /** Format 2 kept histories as msgpack in "histories"; format 3 keeps them binary in "event_histories". */
  private migrateHistoriesToBinary(): number {
    const old = this.root.openDB<History, Key>({ name: "histories", encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") });
    this.root.transactionSync(() => {
      for (const { key, value } of old.getRange()) this.histories.putWhole(key, value);
      old.dropSync();
      this.meta.putSync("format_version", 3);
    });
    return 3;
  }

  /**
   * Format 3 kept the event log, its counters and the session → merchant index
   * in the main environment; format 4 keeps them in events.lmdb. Copied in
   * chunks (a crash midway copies again: the same keys), then dropped here.
   */
  private moveEventLog(): number {
    const shared = { encoding: "msgpack" as const, sharedStructuresKey: Symbol.for("structures") };
    const oldEvents = this.root.openDB<BehaviourEvent, Key>({ name: "events", ...shared });
    const oldSessions = this.root.openDB<MerchantId, string>({ name: "session_merchants", ...shared });
    const CHUNK = 50_000;
    const copy = <V, K extends Key | string>(from: Database<V, K>, to: Database<V, K>) => {
      const chunk: { key: K; value: V }[] = [];
      const flush = () =>
        this.logRoot.transactionSync(() => {
          for (const { key, value } of chunk.splice(0)) to.put(key, value);
        });
      for (const entry of from.getRange()) {
        chunk.push({ key: entry.key, value: entry.value });
        if (chunk.length >= CHUNK) flush();
      }
      flush();
    };
    copy(oldEvents, this.eventsOneByOne);
    copy(oldSessions, this.sessionMerchants);
    const counters = [...this.meta.getRange({ start: "event_sequence:", end: "event_sequence;" })];
    this.logRoot.transactionSync(() => {
      for (const { key, value } of counters) this.logMeta.put(key, value);
    });
    this.root.transactionSync(() => {
      oldEvents.dropSync();
      oldSessions.dropSync();
      for (const { key, value } of counters) {
        this.meta.removeSync(key);
        // Before format 4 most data dirs applied each event in the commit that logged it.
        const merchant = key.slice("event_sequence:".length);
        if (this.meta.get(derivedKey(merchant)) === undefined) this.meta.putSync(derivedKey(merchant), value);
      }
      this.meta.putSync("format_version", 4);
    });
    this.pairEnvironments();
    return 4;
  }

  /**
   * Format 5 logs a commit's events of one merchant as one record
   * (eventRecords). Events format 4 logged one by one stay where they are:
   * eventsSince reads them before the records, whose sequence numbers follow
   * theirs.
   */
  private startEventRecords(): number {
    this.root.transactionSync(() => this.meta.putSync("format_version", 5));
    return 5;
  }

  /**
   * Format 6 keeps each history as a head and a tail (EventHistories), and
   * logs the applier's carts until a list refresh folds them into the
   * bought-together counts (CopurchaseCounts). A format-5 history is a head
   * without a tail, and a format-5 data dir has no carts waiting: nothing is
   * copied, but a build that reads format 5 would miss tails and waiting
   * carts from here on.
   */
  private startHistoryTails(): number {
    this.root.transactionSync(() => this.meta.putSync("format_version", 6));
    return 6;
  }

  async close(): Promise<void> {
    await Promise.all([this.root.close(), this.logRoot.close()]);
  }

  /**
   * Starts reading from the latest committed state. lmdb-js renews its read
   * snapshot on a timer, which never fires in a pool worker that blocks between
   * tasks: without this, a worker would keep answering from an old catalogue.
   */
  refreshSnapshot(): void {
    this.root.resetReadTxn();
    this.logRoot.resetReadTxn();
  }

  /** Runs `write` in one transaction that rolls back if it throws (for writers outside this class, e.g. the similar model). */
  async atomically<T>(write: () => T): Promise<T> {
    return this.root.childTransaction(write);
  }

  /** Derived stores some merchant lacks: the derived-state thread builds them (buildStepSync). */
  pendingBuilds(): { build: DerivedBuild; merchant: MerchantId }[] {
    return this.derived.pending(this.listMerchants().map((merchant) => merchant.id));
  }

  /** Whether the derived store holds all of the merchant's data (until then, readers derive it from the source). */
  isBuilt(build: DerivedBuild, merchant: MerchantId): boolean {
    return this.derived.isBuilt(build, merchant);
  }

  /** One slice of a derived store's rebuild for a merchant, in its own transaction (after the slice's reading, if any); true once built. */
  buildStepSync(build: DerivedBuild, merchant: MerchantId): boolean {
    build.prepare?.(merchant);
    return this.root.transactionSync(() => this.derived.step(build, merchant));
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

  version(merchant: MerchantId, domain: DataDomain): number {
    return this.versions.get([merchant, domain]) ?? 0;
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

  order(merchant: MerchantId, id: number): Order | undefined {
    return this.orders.get([merchant, id]);
  }

  ordersOfCustomer(merchant: MerchantId, customerId: number): Order[] {
    const range = this.customerOrders.getKeys({ start: [merchant, customerId], end: [merchant, customerId + 1] });
    const found: Order[] = [];
    for (const key of range) {
      const order = this.orders.get([merchant, key[2] as number]);
      if (order) found.push(order);
    }
    return found;
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
    return [...this.products.getKeys(merchantRange(merchant)).map((key) => key[1] as number)];
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
      orders: this.orders,
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

  collectionsOf(merchant: MerchantId): Collection[] {
    return [...this.collections.getRange(merchantRange(merchant)).map(({ value }) => value)];
  }

  countOf(merchant: MerchantId, kind: RecordKind): number {
    return this.tableOf(kind).getKeysCount(merchantRange(merchant));
  }

  // ── writes: each call is one transaction; a thrown InvalidInput writes nothing ──

  async createMerchant(merchant: Merchant): Promise<void> {
    await this.root.childTransaction(() => {
      if (this.merchants.get(merchant.id)) throw new AlreadyExistsError(`Merchant ${merchant.id} already exists`);
      this.merchants.put(merchant.id, merchant);
      this.apiKeys.put(merchant.api_key, merchant.id);
      this.derived.markAllBuilt(merchant.id);
    });
  }

  /** Replaces a merchant's own rate limits; the merchant as now stored, or undefined when there is none. */
  async setMerchantRateLimits(id: MerchantId, limits: Partial<RateLimits>): Promise<Merchant | undefined> {
    return this.root.childTransaction(() => {
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
    await this.root.childTransaction(() => {
      for (const { path, value } of items) this.writeProduct(merchant, path, value);
      for (const { value } of items) this.starterVectors.write(merchant, value.product);
      const products = items.map(({ value }) => value.product);
      this.productRender.writeProducts(merchant, products);
      this.searchIndex.writeProducts(merchant, products);
      this.bump(merchant, "catalogue");
    });
    this.productsChanged(
      merchant,
      items.map(({ value }) => value.product.id),
    );
  }

  /** Returns false when there was no such product. */
  async deleteProduct(merchant: MerchantId, id: number): Promise<boolean> {
    const deleted = await this.root.childTransaction(() => {
      const old = this.products.get([merchant, id]);
      if (!old) return false;
      this.unindexProduct(merchant, old);
      this.products.remove([merchant, id]);
      this.productRender.removeProduct(merchant, id);
      this.searchIndex.removeProduct(merchant, id);
      this.starterVectors.remove(merchant, id);
      this.bump(merchant, "catalogue");
      return true;
    });
    if (deleted) this.productsChanged(merchant, [id]);
    return deleted;
  }

  async upsertCollections(merchant: MerchantId, items: Located<Collection>[]): Promise<void> {
    await this.root.childTransaction(() => {
      for (const { value } of items) this.collections.put([merchant, value.id], value);
      this.searchIndex.writeCollections(
        merchant,
        items.map(({ value }) => value),
      );
      this.bump(merchant, "catalogue");
      this.bump(merchant, "collections");
    });
  }

  async deleteCollection(merchant: MerchantId, id: number): Promise<boolean> {
    return this.root.childTransaction(() => {
      if (!this.collections.get([merchant, id])) return false;
      this.collections.remove([merchant, id]);
      this.searchIndex.removeCollection(merchant, id);
      this.bump(merchant, "catalogue");
      this.bump(merchant, "collections");
      return true;
    });
  }

  /** A market replaces its whole price list: prices it no longer lists are removed. */
  async upsertMarkets(merchant: MerchantId, items: Located<Market>[]): Promise<void> {
    await this.root.childTransaction(() => {
      for (const { value } of items) {
        const { variant_prices: prices, ...settings } = value;
        for (const key of this.marketPrices.getKeys({ start: [merchant, value.id], end: [merchant, value.id, "\uffff"] })) {
          this.marketPrices.remove(key);
        }
        for (const [variantId, price] of Object.entries(prices)) this.marketPrices.put([merchant, value.id, Number(variantId)], price);
        this.markets.put([merchant, value.id], settings);
        this.productRender.rewriteMarket(merchant, value.id, Object.keys(prices).map(Number));
      }
      this.bump(merchant, "catalogue");
    });
  }

  marketPrice(merchant: MerchantId, marketId: number, variantId: number): VariantPrice | undefined {
    return this.marketPrices.get([merchant, marketId, variantId]);
  }

  async upsertCustomers(merchant: MerchantId, items: Located<Customer>[]): Promise<void> {
    await this.root.childTransaction(() => {
      for (const { value } of items) {
        const old = this.customers.get([merchant, value.id]);
        if (old && old.email !== "") this.customerEmails.remove([merchant, old.email.toLowerCase()]);
        // The counters follow the orders held here, whatever the record says.
        const customer: Customer = { ...value, ...customerCounters(this.ordersOfCustomer(merchant, value.id)) };
        this.customers.put([merchant, customer.id], customer);
        if (customer.email !== "") this.customerEmails.put([merchant, customer.email.toLowerCase()], customer.id);
      }
      this.bump(merchant, "customers");
    });
  }

  /** Counts the customers' orders again into their records (in the caller's transaction); true if any record changed. */
  private recountCustomers(merchant: MerchantId, customerIds: Iterable<number>): boolean {
    let changed = false;
    for (const id of customerIds) {
      const customer = this.customers.get([merchant, id]);
      if (!customer) continue;
      this.customers.put([merchant, id], { ...customer, ...customerCounters(this.ordersOfCustomer(merchant, id)) });
      changed = true;
    }
    return changed;
  }

  /**
   * Orders, the customer index, daily sales and the bought-together model move
   * together in one transaction, so the next request sees all of it. Bulk loads
   * pass `deferNeighbours` and call rebuildNeighbours once at the end.
   */
  async upsertOrders(merchant: MerchantId, items: Located<Order>[], options: { deferNeighbours?: boolean } = {}): Promise<void> {
    await this.root.childTransaction(() => {
      const sales: SalesDelta = new Map();
      const copurchase = new CopurchaseDelta();
      const customers = new Set<number>();
      for (const { value: order } of items) {
        const old = this.orders.get([merchant, order.id]);
        if (old?.customer_id != null) {
          this.customerOrders.remove([merchant, old.customer_id, old.id]);
          customers.add(old.customer_id);
        }
        this.orders.put([merchant, order.id], order);
        if (order.customer_id !== null) {
          this.customerOrders.put([merchant, order.customer_id, order.id], true);
          customers.add(order.customer_id);
        }
        addOrderChange(sales, old, order);
        copurchase.addOrderChange(old, order, this.copurchase);
      }
      if (this.recountCustomers(merchant, customers)) this.bump(merchant, "customers");
      this.dailySales.add(merchant, salesChanges(sales));
      // The carts applied so far first, so the lists recomputed below count them (their stale marks stay).
      this.coCounts.foldCarts(merchant);
      this.coCounts.applyChanges(merchant, copurchase);
      if (!options.deferNeighbours) this.refreshNeighbours(merchant, copurchase.touched);
      this.bump(merchant, "orders");
    });
  }

  /**
   * Rebuilds the bought-together model of a merchant from all its orders: after
   * a change of model settings, or to repair drift. Orders are read in id order
   * and counted in memory, then written in chunked transactions.
   */
  async rebuildCopurchase(merchant: MerchantId): Promise<void> {
    const delta = new CopurchaseDelta();
    for (const order of this.allOrders(merchant)) delta.addOrderChange(undefined, order, this.copurchase);
    // Carts are replayed from the event log, in order, as writeDerived saw them, up to the
    // applied watermark as this snapshot has it. Run it with the service stopped (`aisle
    // rebuild`): carts the applier thread applies meanwhile would be cleared with the rest.
    const carts = new Map<string, number[]>();
    const derived = this.derivedSequence(merchant);
    for (const { sequence, event } of this.eventsSince(merchant, 0)) {
      if (sequence > derived) break;
      if (event.verb !== "added" || event.uuid === null) continue;
      const cart = carts.get(event.uuid) ?? [];
      delta.addCartItem(cart, event.product_id, event.at, this.copurchase);
      cart.push(event.product_id);
      carts.set(event.uuid, cart);
    }
    await this.root.childTransaction(() => {
      this.coCounts.clear(merchant);
      for (const key of [...this.coNeighbours.getKeys(merchantRange(merchant))]) this.coNeighbours.remove(key);
    });
    const ids = [...delta.items.keys()];
    const CHUNK = 5_000;
    for (let start = 0; start < ids.length; start += CHUNK) {
      const part = new CopurchaseDelta();
      for (const id of ids.slice(start, start + CHUNK)) {
        part.items.set(id, delta.items.get(id)!);
        const row = delta.pairs.get(id);
        if (row) part.pairs.set(id, row);
      }
      await this.root.childTransaction(() => this.coCounts.applyChanges(merchant, part));
    }
    await this.rebuildNeighbours(merchant);
  }

  /** Recomputes every neighbour list of a merchant from the stored co-occurrence rows. */
  async rebuildNeighbours(merchant: MerchantId): Promise<void> {
    await this.root.childTransaction(() => this.coCounts.foldCarts(merchant));
    const ids = this.coCounts.productIds(merchant);
    const CHUNK = 2_000;
    for (let start = 0; start < ids.length; start += CHUNK) {
      await this.root.childTransaction(() => this.refreshNeighbours(merchant, ids.slice(start, start + CHUNK)));
    }
    await this.root.childTransaction(() => this.bump(merchant, "orders"));
  }

  /**
   * The model's sufficient statistics: basket weight of a product and its
   * co-occurrence row, with the carts folded in by the last list refresh.
   */
  copurchaseCounts(merchant: MerchantId, productId: number): { item: Tally | undefined; row: PairRow | undefined } {
    return { item: this.coCounts.item(merchant, productId), row: this.coCounts.row(merchant, productId) };
  }

  /** Bumped whenever the product's neighbour list is rewritten: cached answers for it go stale. */
  copurchaseListVersion(merchant: MerchantId, productId: number): number {
    return this.coListVersions.get([merchant, productId]) ?? 0;
  }

  copurchaseNeighbours(merchant: MerchantId, productId: number): WeightedIds | undefined {
    return this.coNeighbours.get([merchant, productId]);
  }

  private refreshNeighbours(merchant: MerchantId, ids: Iterable<number>): void {
    const unit = basketUnit(Date.now(), this.copurchase);
    // Touched products share partners: read each partner's weight once per refresh.
    const weights = new Map<number, number>();
    const weightOf = (id: number) => {
      let weight = weights.get(id);
      if (weight === undefined) {
        weight = this.coCounts.item(merchant, id)?.weight ?? 0;
        weights.set(id, weight);
      }
      return weight;
    };
    for (const id of ids) {
      const row = this.coCounts.row(merchant, id);
      const weight = weightOf(id);
      const neighbours = row && weight > 0 ? topNeighbours(weight, row, weightOf, this.copurchase, unit) : null;
      if (neighbours && neighbours.ids.length > 0) this.coNeighbours.put([merchant, id], neighbours);
      else this.coNeighbours.remove([merchant, id]);
      this.coListVersions.put([merchant, id], this.copurchaseListVersion(merchant, id) + 1);
    }
  }

  /** Every order of a merchant, in id order (model rebuilds and evaluations). */
  *allOrders(merchant: MerchantId): Generator<Order> {
    for (const { value } of this.orders.getRange(merchantRange(merchant))) yield value;
  }

  /**
   * Appends behaviour events and applies them at once: for bulk loaders
   * (demo seed, evaluations, imports), which want everything in place when
   * this resolves, and run while no service writes to the log. The service
   * acknowledges after the log alone (logEvents) and derives behind it
   * (deriveEventsSync).
   */
  async appendEvents(merchant: MerchantId, events: BehaviourEvent[]): Promise<void> {
    await this.logRoot.transaction(() => this.writeEventLog(merchant, events));
    await this.root.transaction(() => {
      // Everything behind the watermark, so events the service logged and has not applied yet keep their order.
      this.deriveInTransaction(merchant, Number.POSITIVE_INFINITY);
      if (this.derived.isBuilt(this.sessionIndexBuild, merchant)) this.sessionIndex.follow(merchant, this, Number.POSITIVE_INFINITY);
      // Every list the carts left stale, also those an interrupted service left.
      this.coCounts.foldCarts(merchant);
      const stale = this.staleListProducts(merchant);
      this.refreshNeighbours(merchant, stale);
      for (const id of stale) this.staleLists.remove([merchant, id]);
    });
  }

  /**
   * Appends events to the log (numbered by a per-merchant sequence, so readers
   * can follow it) and the session → merchant index, nothing else: this commit
   * is what an acknowledgement waits for. Each merchant's events of the batch
   * are one record on a sequential key: one put, however many events share the
   * commit. Histories, add counts and carts follow in deriveEventsSync.
   *
   * For the service's HTTP thread: lmdb's asynchronous puts, so nothing here
   * blocks. They join this event-loop turn's write batch, which lmdb's own
   * write thread commits as one transaction, and with overlappingSync flushes
   * to disk while the next batch is written. Sequence numbers are handed out
   * from memory: while the service runs it is the log's only appender (a bulk
   * appendEvents is for seeding and evaluation, with no service running; the
   * applier only removes records past the retention, pruneEventLogSync).
   * Returns each merchant's first sequence number and a promise that resolves
   * once the batch is committed and flushed, or rejects if its commit failed;
   * the numbers it took then stay unused, a gap readers of the log skip.
   */
  logEvents(groups: Iterable<[MerchantId, readonly BehaviourEvent[]]>): { firsts: Map<MerchantId, number>; durable: Promise<void> } {
    const firsts = new Map<MerchantId, number>();
    let last: Promise<boolean> | undefined;
    for (const [merchant, events] of groups) {
      if (events.length === 0) continue;
      const first = this.nextSequences.get(merchant) ?? this.eventSequence(merchant) + 1;
      const lastSequence = first + events.length - 1;
      // Encoded now, so the caller may go on reading the array.
      void this.eventRecords.put([merchant, lastSequence], events);
      for (const event of events) if (event.uuid !== null) this.indexSession(event.uuid, merchant, event.at);
      this.nextSequences.set(merchant, lastSequence + 1);
      firsts.set(merchant, first);
      last = this.logMeta.put(eventSequenceKey(merchant), lastSequence);
    }
    if (last === undefined) return { firsts, durable: Promise.resolve() };
    // Every put of this turn is in one transaction: the last one's promises stand for all.
    const committed = last as Promise<boolean> & { flushed: Promise<void> };
    const durable = committed.then(() => committed.flushed);
    // A failed batch may have taken sessions' index entries with it: read the index again from now on.
    durable.catch(() => this.indexedSessions.clear());
    return { firsts, durable };
  }

  /**
   * Adds a session to the session → merchant index, or moves its pair's day
   * (what retention prunes by) to the day of `at`, in the write batch or
   * transaction under way: once a day per session at most.
   */
  private indexSession(uuid: string, merchant: MerchantId, at: number): void {
    const memo = `${merchant}\u0000${uuid}`;
    const day = dayNumber(at);
    if ((this.indexedSessions.get(memo) ?? -1) >= day) return;
    const stored = this.sessionMerchantPairs.get([uuid, merchant]);
    if (typeof stored !== "number" || stored < day) void this.sessionMerchantPairs.put([uuid, merchant], day);
    this.indexedSessions.set(memo, Math.max(day, typeof stored === "number" ? stored : day));
  }

  /**
   * Applies the oldest logged events not yet applied — at most `maxEvents` —
   * to each session's and customer's history and the add-to-cart day counts
   * (the session index follows on its own: followSessionIndexSync), logs their carts for the bought-together model,
   * marks the lists those carts change as stale and moves the merchant's
   * derived watermark past them, in one transaction: each event is applied
   * exactly once, also after a crash between the two commits. Returns how
   * many events it applied (0: nothing was behind) and the products whose
   * bought-together lists the carts change: the caller refreshes those
   * (refreshNeighboursSync, which folds the carts into the counts first), at
   * its own pace, since recomputing a list reads every partner of the product.
   */
  deriveEventsSync(merchant: MerchantId, maxEvents: number): { applied: number; cartProducts: number[] } {
    return this.root.transactionSync(() => this.deriveInTransaction(merchant, maxEvents));
  }

  /**
   * Folds the carts applied so far into the counts, recomputes the
   * bought-together lists of these products from them, and clears their stale
   * marks, in one transaction.
   */
  refreshNeighboursSync(merchant: MerchantId, productIds: readonly number[]): void {
    this.root.transactionSync(() => {
      this.coCounts.foldCarts(merchant);
      this.refreshNeighbours(merchant, productIds);
      for (const id of productIds) this.staleLists.remove([merchant, id]);
    });
  }

  /** Products whose bought-together lists applied carts changed and no refresh has recomputed yet (they survive a restart). */
  staleListProducts(merchant: MerchantId, limit = Number.POSITIVE_INFINITY): number[] {
    return [...this.staleLists.getKeys({ ...merchantRange(merchant), limit })].map((key) => (key as Key)[1] as number);
  }

  private deriveInTransaction(merchant: MerchantId, maxEvents: number): { applied: number; cartProducts: number[] } {
    const after = this.derivedSequence(merchant);
    const events: BehaviourEvent[] = [];
    let through = after;
    for (const { sequence, event } of this.eventsSince(merchant, after)) {
      if (events.length >= maxEvents) break;
      events.push(event);
      through = sequence;
    }
    if (events.length === 0) return { applied: 0, cartProducts: [] };
    const cartProducts = this.writeDerived(merchant, events, through);
    // Marked in the same transaction as the counts they follow: a crash before the refresh leaves the marks.
    // Under load most are marked already, and a put would dirty their page again.
    for (const id of cartProducts) if (!this.staleLists.doesExist([merchant, id])) this.staleLists.put([merchant, id], true);
    this.meta.put(derivedKey(merchant), through);
    return { applied: events.length, cartProducts };
  }

  /**
   * Whether viewed-related's session index has applied events of the log to
   * take in, up to `upTo` (a data dir building it: no, the build takes them).
   */
  sessionIndexBehind(merchant: MerchantId, upTo = Number.POSITIVE_INFINITY): boolean {
    const applied = Math.min(this.derivedSequence(merchant), upTo);
    return this.derived.isBuilt(this.sessionIndexBuild, merchant) && this.sessionIndex.through(merchant) < applied;
  }

  /** Takes up to `maxEvents` applied events (up to `upTo`) into the session index in one transaction; true once it has reached them. */
  followSessionIndexSync(merchant: MerchantId, maxEvents: number, upTo = Number.POSITIVE_INFINITY): boolean {
    return this.root.transactionSync(() => this.sessionIndex.follow(merchant, this, maxEvents, upTo));
  }

  /** Prunes up to `limit` of the merchant's sessions past `retention` at `now` in one transaction; returns how many (below `limit`: done). */
  pruneSessionsSync(merchant: MerchantId, retention: Retention, now: number, limit: number): number {
    return this.root.transactionSync(() => this.sessionIndex.prune(merchant, retention, now, limit));
  }

  /**
   * Removes up to `limit` of the merchant's oldest log records (or events
   * logged one by one) whose events are all before `before` (ms) and applied,
   * in one transaction of the log's environment; returns how many (below
   * `limit`: done). The HTTP thread goes on logging meanwhile: it numbers
   * events from its own counter, which this leaves alone.
   */
  pruneEventLogSync(merchant: MerchantId, before: number, limit: number): number {
    // What the histories and the session index have both taken in.
    const applied = Math.min(this.derivedSequence(merchant), this.sessionIndex.through(merchant));
    return this.logRoot.transactionSync(() => {
      const oneByOne = pruneLoggedOneByOne(this.eventsOneByOne, merchant, before, applied, limit);
      return oneByOne + pruneEventRecords(this.eventRecords, merchant, before, applied, limit - oneByOne);
    });
  }

  /** A slice of a walk over the merchant's histories, removing those whose latest event is before `before` (EventHistories.prune). */
  pruneHistoriesSync(merchant: MerchantId, before: number, walk: HistoryWalk | null, limit: number): HistoryWalk | null {
    return this.root.transactionSync(() => this.histories.prune(merchant, before, walk, limit));
  }

  /** A slice of a walk over the session → merchant pairs, removing those last logged before `before` (pruneSessionPairs). */
  pruneSessionPairsSync(before: number, now: number, after: [string, MerchantId] | null, limit: number): [string, MerchantId] | null {
    return this.logRoot.transactionSync(() => pruneSessionPairs(this.sessionMerchantPairs, before, now, after, limit));
  }

  /** The last event sequence whose histories, add counts and carts are stored (0: none yet). */
  derivedSequence(merchant: MerchantId): number {
    return (this.meta.get(derivedKey(merchant)) as number | undefined) ?? 0;
  }

  /** Logs events in the caller's transaction (of the log's environment); returns the first one's sequence number. */
  private writeEventLog(merchant: MerchantId, events: readonly BehaviourEvent[]): number {
    const counterKey = eventSequenceKey(merchant);
    const before = (this.logMeta.get(counterKey) as number | undefined) ?? 0;
    for (let start = 0; start < events.length; start += BULK_RECORD_EVENTS) {
      const record = events.slice(start, start + BULK_RECORD_EVENTS);
      this.eventRecords.put([merchant, before + start + record.length], record);
    }
    for (const event of events) if (event.uuid !== null) this.indexSession(event.uuid, merchant, event.at);
    const lastSequence = before + events.length;
    this.logMeta.put(counterKey, lastSequence);
    this.nextSequences.set(merchant, lastSequence + 1);
    return before + 1;
  }

  /**
   * Applies logged events, in log order, to everything derived from them (in
   * the caller's transaction) but the bought-together model, whose carts are
   * logged for the next list refresh to fold in: returns the products whose
   * lists the carts change.
   */
  private writeDerived(merchant: MerchantId, events: readonly BehaviourEvent[], through: number): number[] {
    // Each history touched by this batch, and the events the batch adds to it.
    const touched = new Map<string, { key: Key; appended: BehaviourEvent[] }>();
    const entryOf = (key: Key) => {
      const id = key.join("\u0000");
      let entry = touched.get(id);
      if (!entry) touched.set(id, (entry = { key, appended: [] }));
      return entry;
    };
    const adds: CountChange[] = [];
    const carts = new CopurchaseDelta();
    for (const event of events) {
      if (event.verb === "added") {
        adds.push([dayNumber(event.at), event.product_id, 1]);
        if (event.uuid !== null) {
          // Only an add-to-cart needs the session's history: its earlier adds are the cart.
          const key: Key = [merchant, "session", event.uuid];
          const history = this.histories.read(key) ?? emptyHistory();
          for (const earlier of entryOf(key).appended) appendToHistory(history, earlier);
          carts.addCartItem(productsWithVerb(history, "added"), event.product_id, event.at, this.copurchase);
        }
      }
      if (event.uuid !== null) entryOf([merchant, "session", event.uuid]).appended.push(event);
      if (event.customer_id !== null) entryOf([merchant, "customer", event.customer_id]).appended.push(event);
    }
    for (const { key, appended } of touched.values()) this.histories.append(key, appended);
    this.dailyAdds.add(merchant, adds);
    if (carts.items.size === 0) return [];
    this.coCounts.addCarts(merchant, through, carts);
    return [...carts.touched];
  }

  /** The latest event sequence number of a merchant (0: none yet). */
  eventSequence(merchant: MerchantId): number {
    return (this.logMeta.get(eventSequenceKey(merchant)) as number | undefined) ?? 0;
  }

  /** Events with sequence numbers after `after`, oldest first. */
  *eventsSince(merchant: MerchantId, after: number): Generator<{ sequence: number; event: BehaviourEvent }> {
    const end: Key = [merchant, Number.MAX_SAFE_INTEGER];
    // Logged one by one before format 5: all of them precede every record.
    for (const { key, value } of this.eventsOneByOne.getRange({ start: [merchant, after + 1], end })) {
      yield { sequence: key[1] as number, event: value };
    }
    // Records are keyed by their last sequence: the first one at or after after + 1 holds it (or follows a gap).
    for (const { key, value } of this.eventRecords.getRange({ start: [merchant, after + 1], end })) {
      const first = (key[1] as number) - value.length + 1;
      for (let i = Math.max(0, after + 1 - first); i < value.length; i++) yield { sequence: first + i, event: value[i]! };
    }
  }

  /** The stored history: events after derivedSequence are not in it yet. */
  sessionHistory(merchant: MerchantId, uuid: string): History | undefined {
    return this.histories.read([merchant, "session", uuid]);
  }

  customerHistory(merchant: MerchantId, customerId: number): History | undefined {
    return this.histories.read([merchant, "customer", customerId]);
  }

  /** The merchants that logged events of this session (viewed without a key); two at most are read. */
  merchantsOfSession(uuid: string): MerchantId[] {
    const merchants = new Set<MerchantId>();
    for (const key of this.sessionMerchantPairs.getKeys({ start: [uuid], end: [uuid, "\uffff"], limit: 2 })) merchants.add(key[1]);
    const logged = this.sessionMerchants.get(uuid);
    if (logged !== undefined) merchants.add(logged);
    return [...merchants];
  }

  customerIdByEmail(merchant: MerchantId, email: string): number | undefined {
    return this.customerEmails.get([merchant, email.toLowerCase()]);
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

  private bump(merchant: MerchantId, domain: DataDomain): void {
    this.versions.put([merchant, domain], this.version(merchant, domain) + 1);
  }
}

function* salesChanges(sales: SalesDelta): Generator<CountChange> {
  for (const [day, change] of sales) for (const [productId, units] of change) yield [day, productId, units];
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
