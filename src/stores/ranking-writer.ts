// The ranking writer: the one job that computes the shop-wide rankings and
// stores them (src/stores/ranked-lists.ts). It runs on the applier thread (the
// derived-state writer, src/ingest/event-applier.ts), which keeps the only
// in-memory copy of the daily counts (src/stores/daily-units.ts): 90 days of
// sales and 40 of add-to-cart counts are read in full the first time (5.8M
// rows at 1M products), then only the days whose stamps moved. A refresh reads in steps between which the thread applies events,
// computes every list outside any transaction, then writes them in one short
// transaction with the state they were computed from: a crash leaves the old
// lists and their state, or the new ones and theirs.
import type { RootDatabase } from "lmdb";
import { dayNumber } from "../core/recs/days.js";
import { IntegerIds } from "../core/recs/id-tables.js";
import { rankedSlots } from "../core/recs/ranking.js";
import { ADD_TO_CART_WEIGHT, DEFAULT_TRENDING, momentum } from "../core/recs/sales.js";
import type { Collection, MerchantId } from "../core/types.js";
import type { DailyCounts } from "./daily-counts.js";
import { DailyUnits, ProductSlots } from "./daily-units.js";
import type { DerivedBuild } from "./derived-builds.js";
import { DEFAULT_WINDOW_DAYS, type ListIds, type RankedLists, type RankingState } from "./ranked-lists.js";

/** A window other than the default is kept while top_sellers requests asked for it within this long. */
const WINDOW_KEPT_MS = 86_400_000;
/** Windows kept besides the default, at most: the ones asked for most recently. */
const MAX_EXTRA_WINDOWS = 8;
/**
 * Reading per slice of a rebuild (DerivedBuild). It holds no lock (it reads
 * before the slice's transaction), only the applier, which builds when no
 * event is due; each slice commits its cursor, which took 5-70 ms on a busy
 * disk: 5 ms slices spent most of a 100k-product rebuild committing (98
 * slices, 8.5 s).
 */
const BUILD_SLICE_MS = 20;
/** Days of add-to-cart counts trending reads: its recent and baseline windows. */
const TRENDING_DAYS = DEFAULT_TRENDING.recentDays + DEFAULT_TRENDING.baselineDays;

/** What the rankings are computed from, besides the daily counts. */
export interface RankingSources {
  readonly dailySales: DailyCounts;
  readonly dailyAdds: DailyCounts;
  collectionsOf(merchant: MerchantId): Collection[];
  /** Moves with every change of the merchant's collections. */
  collectionsVersion(merchant: MerchantId): number;
}

/** Every list of a refresh, computed, and the state they were computed from: what one write stores. */
export interface PreparedRankings {
  state: RankingState;
  lists: ListIds[];
}

/**
 * Which collections hold each product, built again only when the collections'
 * version moves. In typed arrays rather than a Map of arrays: the 20
 * collections of a 100k-product shop hold 183k ids, which took over 10 MB of
 * the applier's heap as a Map.
 */
class CollectionMembership {
  private version = -1;
  /** Product id → its index below. */
  private index = new IntegerIds();
  /** The collections of product index i are collectionIds[starts[i]] to collectionIds[starts[i + 1]] (exclusive). */
  private starts = new Int32Array(1);
  private collectionIds = new Float64Array(0);

  follow(version: number, collections: () => readonly Collection[]): void {
    if (version === this.version) return;
    this.version = version;
    this.index = new IntegerIds();
    // Two passes: count each product's collections, then place them; a product listed twice in one collection counts once.
    const counts: number[] = [];
    const lastCollection: number[] = [];
    const read = collections();
    for (const { id, product_ids } of read) {
      for (const productId of product_ids) {
        let at = this.index.get(productId);
        if (at < 0) this.index.set(productId, (at = counts.push(0) - 1));
        if (lastCollection[at] === id) continue;
        lastCollection[at] = id;
        counts[at]!++;
      }
    }
    this.starts = new Int32Array(counts.length + 1);
    for (let at = 0; at < counts.length; at++) this.starts[at + 1] = this.starts[at]! + counts[at]!;
    this.collectionIds = new Float64Array(this.starts[counts.length]!);
    const next = this.starts.slice(0, counts.length);
    lastCollection.length = 0;
    for (const { id, product_ids } of read) {
      for (const productId of product_ids) {
        const at = this.index.get(productId);
        if (lastCollection[at] === id) continue;
        lastCollection[at] = id;
        this.collectionIds[next[at]!++] = id;
      }
    }
  }

  /** Calls `visit` with each collection that holds the product. */
  eachOf(productId: number, visit: (collectionId: number) => void): void {
    const at = this.index.get(productId);
    if (at < 0) return;
    for (let k = this.starts[at]!; k < this.starts[at + 1]!; k++) visit(this.collectionIds[k]!);
  }
}

/** One merchant's daily counts as the writer holds them, and which collections hold each product. */
class MerchantCounts {
  readonly products = new ProductSlots();
  readonly sales: DailyUnits;
  readonly adds: DailyUnits;
  readonly collections = new CollectionMembership();

  constructor(sources: RankingSources, merchant: MerchantId) {
    this.sales = new DailyUnits(sources.dailySales, merchant, this.products);
    this.adds = new DailyUnits(sources.dailyAdds, merchant, this.products);
  }

  /** Each product's units over days [fromDay, toDay], by slot. */
  total(units: DailyUnits, fromDay: number, toDay: number): Float64Array {
    const totals = new Float64Array(this.products.size);
    units.addInto(totals, fromDay, toDay);
    return totals;
  }
}

/** A refresh under way: what it will store as its state, and the days it has still to read. */
interface Refresh {
  state: RankingState;
  toRead: { units: DailyUnits; day: number }[];
}

/** Lists computed before the merchant's first sale or add: empty whatever has come since. */
function computedFromNothing(state: RankingState): boolean {
  return state.sales === 0 && state.adds === 0;
}

export class RankingWriter {
  private readonly counts = new Map<MerchantId, MerchantCounts>();
  private readonly refreshes = new Map<MerchantId, Refresh>();
  /** Rebuilds whose lists are computed and wait for their slice's transaction. */
  private readonly builtLists = new Map<MerchantId, PreparedRankings>();

  constructor(
    private readonly root: RootDatabase,
    private readonly lists: RankedLists,
    private readonly sources: RankingSources,
    /** Called in the write's transaction when a list changed (cached answers that read them go stale). */
    private readonly listsChanged: (merchant: MerchantId) => void,
  ) {}

  /**
   * Whether the merchant's lists are due at `now`: none stored yet, a refresh
   * under way, a new day (the windows moved), a different set of windows asked
   * for, or counts or collections that changed and lists older than `refreshMs`
   * — at once when the stored lists were computed before the shop's first
   * sale or add, so a shop's first orders (an import, the demo's seed) show
   * in its top sellers and trending within a look, not an interval later.
   */
  due(merchant: MerchantId, now: number, refreshMs: number): boolean {
    if (this.refreshes.has(merchant)) return true;
    const state = this.lists.state(merchant);
    if (state === undefined || state.day !== dayNumber(now)) return true;
    if (state.windows.join() !== this.windowsWanted(merchant, now).join()) return true;
    const changed =
      state.sales !== this.sources.dailySales.versionOf(merchant) ||
      state.adds !== this.sources.dailyAdds.versionOf(merchant) ||
      state.collections !== this.sources.collectionsVersion(merchant);
    return changed && (computedFromNothing(state) || now - state.computedAt >= refreshMs);
  }

  /** Whether the merchant has sales or adds and no lists computed from any yet (none stored, or stored before the first). */
  awaitingFirst(merchant: MerchantId): boolean {
    const state = this.lists.state(merchant);
    const counted = this.sources.dailySales.versionOf(merchant) > 0 || this.sources.dailyAdds.versionOf(merchant) > 0;
    return counted && (state === undefined || computedFromNothing(state));
  }

  /**
   * One step of a refresh, reading counts until `deadline` (performance.now();
   * at least one day per call), then computing and writing every list in its
   * own transaction. True once written.
   */
  refreshStep(merchant: MerchantId, now: number, deadline: number): boolean {
    const prepared = this.prepare(merchant, now, deadline);
    if (prepared === null) return false;
    this.root.transactionSync(() => this.write(merchant, prepared));
    return true;
  }

  /**
   * A whole refresh as of `now`, at once (tools, evaluations and tests, which
   * may name the windows to keep besides the default instead of those asked
   * for). Finishes a refresh under way instead, if there is one.
   */
  refreshSync(merchant: MerchantId, now: number, extraWindows?: readonly number[]): void {
    const windows = extraWindows === undefined ? undefined : withDefault(extraWindows);
    const prepared = this.prepare(merchant, now, Number.POSITIVE_INFINITY, windows)!;
    this.root.transactionSync(() => this.write(merchant, prepared));
  }

  /**
   * Advances the merchant's refresh (starting one as of `now` if none is under
   * way) until `deadline`; once every day it needs is read, computes its lists
   * and answers them. Reads only: no transaction.
   */
  prepare(merchant: MerchantId, now: number, deadline: number, windows = this.windowsWanted(merchant, now)): PreparedRankings | null {
    let refresh = this.refreshes.get(merchant);
    if (refresh === undefined) this.refreshes.set(merchant, (refresh = this.start(merchant, now, windows)));
    const { toRead } = refresh;
    while (toRead.length > 0) {
      const { units, day } = toRead[0]!;
      if (!units.read(day, deadline)) return null;
      toRead.shift();
      if (toRead.length > 0 && performance.now() >= deadline) return null;
    }
    this.refreshes.delete(merchant);
    return { state: refresh.state, lists: this.computeLists(merchant, refresh.state) };
  }

  /** Stores a refresh's lists and state, in the caller's transaction, and forgets window requests that lapsed. */
  write(merchant: MerchantId, { state, lists }: PreparedRankings): void {
    const lapsed = this.lists.windowRequests(merchant).filter(({ at }) => state.computedAt - at >= WINDOW_KEPT_MS);
    this.lists.removeRequests(
      merchant,
      lapsed.map(({ days }) => days),
    );
    if (this.lists.replaceAll(merchant, lists, state)) this.listsChanged(merchant);
  }

  /**
   * The rebuild of a merchant's lists when a data dir lacks them (rebuilt by
   * the applier thread before the service reports ready): each slice reads
   * counts for BUILD_SLICE_MS outside its transaction (prepare), and computes
   * the lists once all are read; the next slice writes them, unless a refresh
   * has stored them meanwhile.
   */
  readonly build: DerivedBuild = {
    name: "sales_rankings",
    layout: 1,
    prepare: (merchant) => {
      if (this.builtLists.has(merchant)) return;
      const prepared = this.prepare(merchant, Date.now(), performance.now() + BUILD_SLICE_MS);
      if (prepared !== null) this.builtLists.set(merchant, prepared);
    },
    clear: (merchant) => this.lists.clear(merchant),
    buildSlice: (merchant, cursor) => {
      const prepared = this.builtLists.get(merchant);
      if (prepared === undefined) return this.lists.state(merchant) === undefined ? (cursor ?? 0) + 1 : null;
      this.builtLists.delete(merchant);
      this.write(merchant, prepared);
      return null;
    },
  };

  /** The windows to keep: the default, and those top_sellers requests asked for lately (the most recent few). */
  private windowsWanted(merchant: MerchantId, now: number): number[] {
    const asked = this.lists
      .windowRequests(merchant)
      .filter(({ days, at }) => days !== DEFAULT_WINDOW_DAYS && now - at < WINDOW_KEPT_MS)
      .sort((a, b) => b.at - a.at)
      .slice(0, MAX_EXTRA_WINDOWS)
      .map(({ days }) => days);
    return withDefault(asked);
  }

  /**
   * A new refresh: the versions it will count as seen are read before any
   * count, so a change made while it reads makes the next one due.
   */
  private start(merchant: MerchantId, now: number, windows: number[]): Refresh {
    const { dailySales, dailyAdds } = this.sources;
    const today = dayNumber(now);
    const state: RankingState = {
      day: today,
      sales: dailySales.versionOf(merchant),
      adds: dailyAdds.versionOf(merchant),
      collections: this.sources.collectionsVersion(merchant),
      computedAt: now,
      windows,
    };
    let counts = this.counts.get(merchant);
    if (counts === undefined) this.counts.set(merchant, (counts = new MerchantCounts(this.sources, merchant)));
    const salesFrom = today - Math.max(TRENDING_DAYS, ...windows) + 1;
    const addsFrom = today - TRENDING_DAYS + 1;
    counts.sales.keepOnly(salesFrom, today);
    counts.adds.keepOnly(addsFrom, today);
    const toRead = [
      ...counts.sales.staleDays(salesFrom, today).map((day) => ({ units: counts.sales, day })),
      ...counts.adds.staleDays(addsFrom, today).map((day) => ({ units: counts.adds, day })),
    ];
    return { state, toRead };
  }

  /** Trending, then top sellers over each window, for the shop and per collection: every list a refresh stores. */
  private computeLists(merchant: MerchantId, { day, windows }: RankingState): ListIds[] {
    const counts = this.counts.get(merchant)!;
    const { ids } = counts.products;
    const idsOf = (slots: Int32Array) => Float64Array.from(slots, (slot) => ids[slot]!);
    const lists: ListIds[] = [{ list: { kind: "trending" }, ids: idsOf(rankedSlots(ids, trendingScores(counts, day))) }];
    // Read in one snapshot: the version names the collections read.
    const version = this.sources.collectionsVersion(merchant);
    counts.collections.follow(version, () => this.sources.collectionsOf(merchant));
    for (const days of windows) {
      const shop = rankedSlots(ids, counts.total(counts.sales, day - days + 1, day));
      lists.push({ list: { kind: "top_sellers", days, collectionId: null }, ids: idsOf(shop) });
      // One pass over the shop's ranking: each collection keeps its order.
      const byCollection = new Map<number, number[]>();
      for (const slot of shop) {
        const productId = ids[slot]!;
        counts.collections.eachOf(productId, (collectionId) => {
          const members = byCollection.get(collectionId);
          if (members === undefined) byCollection.set(collectionId, [productId]);
          else members.push(productId);
        });
      }
      for (const [collectionId, members] of byCollection) {
        lists.push({ list: { kind: "top_sellers", days, collectionId }, ids: Float64Array.from(members) });
      }
    }
    return lists;
  }
}

/**
 * Momentum of each product (see momentum): units and add-to-cart events of
 * the recent days against the baseline days before them. Each count is
 * summed before it is weighed, so the scores do not depend on the order in
 * which days were read.
 */
function trendingScores(counts: MerchantCounts, today: number): Float64Array {
  const { recentDays, baselineDays } = DEFAULT_TRENDING;
  const recentStart = today - recentDays + 1;
  const demand = (from: number, to: number) => {
    const sales = counts.total(counts.sales, from, to);
    const adds = counts.total(counts.adds, from, to);
    return sales.map((units, slot) => units + ADD_TO_CART_WEIGHT * adds[slot]!);
  };
  const recent = demand(recentStart, today);
  const baseline = demand(recentStart - baselineDays, recentStart - 1);
  return recent.map((units, slot) => momentum(units, baseline[slot]!, DEFAULT_TRENDING));
}

/** The default window and `extra`, ascending, once each. */
function withDefault(extra: readonly number[]): number[] {
  return [...new Set([DEFAULT_WINDOW_DAYS, ...extra])].sort((a, b) => a - b);
}
