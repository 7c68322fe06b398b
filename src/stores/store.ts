import { DEFAULT_LEADERS, type LeaderSettings } from "../core/search/leaders.js";
import { DEFAULT_COPURCHASE, type CopurchaseConfig } from "../core/recs/copurchase.js";
import type { MerchantId } from "../core/types.js";
import { AppliedEvents } from "./applied-events.js";
import { CatalogueStore } from "./catalogue-store.js";
import { CustomSources } from "./custom-sources.js";
import { CustomerCountersBuild } from "./customer-counters-build.js";
import { DerivedBuilds, type DerivedBuild } from "./derived-builds.js";
import { Environment, type DataDomain } from "./environment.js";
import { EventLog } from "./event-log.js";
import { FbtModelStore } from "./fbt-model.js";
import { OrderStore } from "./order-store.js";
import { ProductAttributesStore } from "./product-attributes.js";
import { ProductRenderStore } from "./product-render.js";
import { DEFAULT_TOP_SELLERS, RankedLists } from "./ranked-lists.js";
import { RankingWriter } from "./ranking-writer.js";
import { SearchIndexStore } from "./search-index.js";
import { SearchSettingsStore } from "./search-settings.js";
import { SessionIndex, type AppliedEventLog } from "./session-index.js";
import { SessionIndexBuild } from "./session-index-build.js";
import { RecentVersions } from "./recent-versions.js";
import { SimilarStore } from "./similar.js";
import { StreamWatermarks } from "./stream-watermarks.js";
import { StarterVectors } from "./starter-vectors.js";
import { checkFormat } from "./store-format.js";
import { ViewedRelatedTunings } from "./viewed-related-tuning.js";

/**
 * The LMDB environments of a data dir and every store aisle keeps in them:
 * the one object callers hold. The main thread and every worker open it once;
 * reads are synchronous memory-mapped lookups, writes are batched async
 * transactions.
 */
export class Store {
  /** Merchants, products, collections, customers and markets. */
  readonly catalogue: CatalogueStore;
  /** Orders, daily sales and the bought-together model. */
  readonly orders: OrderStore;
  /** The behaviour-event log. */
  readonly events: EventLog;
  /** What the applier derives from the log: histories, add counts, carts, the session index's follow. */
  readonly applied: AppliedEvents;
  /** The log as far as the histories have taken it in: what the session index follows and a bought-together rebuild replays. */
  readonly appliedLog: AppliedEventLog;
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
  /** Each shop's trained bought-together model: a list per product (EASE with its text neighbours), blended with the co-purchase lists. */
  readonly fbtModel: FbtModelStore;
  private readonly sessionIndexBuild: SessionIndexBuild;
  /** Merchants' custom data sources (src/stores/custom-sources.ts). */
  readonly customSources: CustomSources;
  /** Merchants' search merchandising: keyword groups, exclusions, synonyms. */
  readonly searchSettings: SearchSettingsStore;
  /** Products' texts, tags, vendors, types and collections as custom sources' rules read them: catalogue writes keep them. */
  readonly productAttributes: ProductAttributesStore;
  /** Which derived stores each merchant has built (a data dir from an older build lacks some). */
  readonly derived: DerivedBuilds;
  /** A cluster node's place in the write stream (src/cluster/). */
  readonly streamWatermarks: StreamWatermarks;
  /**
   * The versions response-cache keys name, as the HTTP thread reads them:
   * read at most a millisecond ago, and since this thread's last asynchronous
   * commit to aisle.lmdb (recent-versions.ts). For keys of answers computed
   * afterwards (never older than their key), and for memos that may lag a
   * millisecond (the event route's handle ids); not for a cache of what an
   * answer reads that must match its snapshot (the render cache keys its
   * reads by version(), in that snapshot).
   * Not for a thread that writes with transactionSync (the applier), whose
   * commits it does not hear of, and never inside a transaction.
   */
  readonly recentVersions: RecentVersions;

  private constructor(
    private readonly env: Environment,
    copurchase: CopurchaseConfig,
    leaders: LeaderSettings,
    /** This thread's cache of common search terms' postings (posting-cache.ts); absent: none. */
    searchCacheBytes: number | undefined,
  ) {
    const { root } = env;
    this.appliedLog = {
      eventsSince: (merchant, after) => this.events.eventsSince(merchant, after),
      derivedSequence: (merchant) => this.applied.derivedSequence(merchant),
    };
    // What the histories and the session index have both taken in.
    this.events = new EventLog(env, (merchant) => Math.min(this.applied.derivedSequence(merchant), this.sessionIndex.through(merchant)));
    // Its writes feed the derived stores below, which read it: they are looked up here at each write.
    this.catalogue = new CatalogueStore(env, this);
    this.orders = new OrderStore(env, copurchase, this.catalogue, this.appliedLog);
    this.sessionIndex = new SessionIndex(root);
    this.applied = new AppliedEvents(env, {
      log: this.events,
      orders: this.orders,
      sessionIndex: this.sessionIndex,
      appliedLog: this.appliedLog,
      sessionIndexBuilt: (merchant) => this.derived.isBuilt(this.sessionIndexBuild, merchant),
    });
    this.similar = new SimilarStore(root, (merchant) => env.bump(merchant, "similar"));
    this.productRender = new ProductRenderStore(root, this.catalogue);
    const searchSource = {
      product: (merchant: MerchantId, id: number) => this.catalogue.product(merchant, id),
      productIdsAfter: (merchant: MerchantId, after: number | null, limit: number) =>
        this.catalogue.productIdsAfter(merchant, after, limit),
      collectionsOf: (merchant: MerchantId) => this.catalogue.collectionsOf(merchant),
      topSellers: (merchant: MerchantId) => this.rankings.read(merchant, DEFAULT_TOP_SELLERS),
    };
    this.searchIndex = new SearchIndexStore(root, searchSource, (merchant) => env.bump(merchant, "catalogue"), leaders, searchCacheBytes);
    this.starterVectors = new StarterVectors(root, this.catalogue);
    this.rankings = new RankedLists(root, (merchant, previous, next) => this.searchIndex.followTopSellers(merchant, previous, next));
    const rankingSources = {
      dailySales: this.orders.dailySales,
      dailyAdds: this.applied.dailyAdds,
      collectionsOf: (merchant: MerchantId) => this.catalogue.collectionsOf(merchant),
      collectionsVersion: (merchant: MerchantId) => env.version(merchant, "collections"),
    };
    this.rankingWriter = new RankingWriter(root, this.rankings, rankingSources, (merchant) => env.bump(merchant, "rankings"));
    this.sessionIndexBuild = new SessionIndexBuild(this.sessionIndex, this.appliedLog);
    this.viewedRelatedTuning = new ViewedRelatedTunings(root);
    this.fbtModel = new FbtModelStore(root);
    const customerCountersBuild = new CustomerCountersBuild({
      customerIdsAfter: (merchant, after, limit) => this.catalogue.idsAfter("customers", merchant, after, limit),
      recountCustomers: (merchant, ids) => {
        const changed = this.catalogue.recountCustomers(merchant, ids);
        if (changed) env.bump(merchant, "customers");
        return changed;
      },
    });
    this.customSources = new CustomSources(root);
    this.streamWatermarks = new StreamWatermarks(env);
    this.searchSettings = new SearchSettingsStore(env);
    this.recentVersions = new RecentVersions({
      version: (merchant, name) => {
        if (name === "fbt_generation") return this.fbtModel.generation(merchant);
        if (name === "search_settings") return this.searchSettings.versions.of(merchant);
        if (name === "custom_sources") return this.customSources.version(merchant);
        return env.version(merchant, name);
      },
      copurchaseList: (merchant, productId) => this.orders.copurchaseListVersion(merchant, productId),
      // Forgets only, never reads: lmdb-js calls this before it resets the snapshot. Where a commit resolves within
      // a later write (every 8th outstanding write), the reset waits for a microtask queued just after this one, and
      // a read in between still sees the state before the commit: forgetting again then keeps no version read there
      // (nothing runs between two microtasks queued one after the other).
      onCommit: (forget) =>
        env.root.on("aftercommit", () => {
          forget();
          queueMicrotask(forget);
        }),
    });
    this.productAttributes = new ProductAttributesStore(root, {
      product: (merchant, id) => this.catalogue.product(merchant, id),
      productIdsAfter: (merchant, after, limit) => this.catalogue.productIdsAfter(merchant, after, limit),
      collection: (merchant, id) => this.catalogue.collection(merchant, id),
      collectionsOf: (merchant) => this.catalogue.collectionsOf(merchant),
      catalogueVersion: (merchant) => env.version(merchant, "catalogue"),
    });
    this.derived = new DerivedBuilds(env.meta, [
      this.productRender,
      this.rankingWriter.build,
      this.starterVectors,
      this.starterVectors.rows,
      this.sessionIndexBuild,
      customerCountersBuild,
      this.orders.purchases,
      this.searchIndex,
      this.productAttributes,
    ]);
  }

  /**
   * Opens the store of a data dir, creating it if the dir has none. `mustExist`:
   * for commands that only read or change what is there, so that a mistyped
   * --data names the problem instead of quietly creating an empty store.
   * `copurchase` and `leaders`: the bought-together model's and quick-view's
   * leader lists' settings; evaluations and tests try others.
   */
  static open(
    dataDir: string,
    options: { copurchase?: CopurchaseConfig; leaders?: LeaderSettings; mustExist?: boolean; searchCacheBytes?: number } = {},
  ): Store {
    const store = new Store(
      Environment.open(dataDir, options.mustExist),
      options.copurchase ?? DEFAULT_COPURCHASE,
      options.leaders ?? DEFAULT_LEADERS,
      options.searchCacheBytes,
    );
    const { events, applied } = store;
    checkFormat(store.env, {
      histories: applied.histories,
      eventsOneByOne: events.eventsOneByOne,
      sessionMerchants: events.sessionMerchants,
    });
    return store;
  }

  async close(): Promise<void> {
    await Promise.all([this.env.root.close(), this.env.logRoot.close()]);
  }

  /**
   * Starts reading from the latest committed state. lmdb-js renews its read
   * snapshot on a timer, which never fires in a pool worker that blocks between
   * tasks: without this, a worker would keep answering from an old catalogue.
   */
  refreshSnapshot(): void {
    this.env.root.resetReadTxn();
    this.env.logRoot.resetReadTxn();
    this.recentVersions.forget();
  }

  /** Runs `write` in one transaction that rolls back if it throws (for writers outside the stores, e.g. the similar model). */
  async atomically<T>(write: () => T): Promise<T> {
    return this.env.root.childTransaction(write);
  }

  /** What answers cached for the merchant depend on: moved by every write to `domain`. */
  version(merchant: MerchantId, domain: DataDomain): number {
    return this.env.version(merchant, domain);
  }

  /** Derived stores some merchant lacks: the derived-state thread builds them (buildStepSync). */
  pendingBuilds(): { build: DerivedBuild; merchant: MerchantId }[] {
    return this.derived.pending(this.catalogue.listMerchants().map((merchant) => merchant.id));
  }

  /** One slice of a derived store's rebuild for a merchant, in its own transaction (after the slice's reading, if any); true once built. */
  buildStepSync(build: DerivedBuild, merchant: MerchantId): boolean {
    build.prepare?.(merchant);
    return this.env.root.transactionSync(() => this.derived.step(build, merchant));
  }
}
