// A worker's daily sales and add-to-cart counts of each merchant, held in
// memory for the shop-wide rankings (src/recs/sales-rankings.ts), read from
// the store newest day first and kept current day by day.
//
// At a start the warm-up reads them in steps between shoppers' tasks, as it
// does the search and session indexes: a 1M-product shop's 90 days of sales
// and 40 of adds (5.8M rows) take about 8 s to read. A shopper's request reads
// on for a few ms at most; a ranking whose window is not read yet counts the
// days read so far (the most recent ones), and its answer says so. Days whose
// counts changed later (an order, an add to cart, a cancelled old order) are
// read again within the request, unless they are many (SMALL_REREAD_ROWS).
import type { MerchantId } from "../core/types.js";
import type { WarmStep } from "../pool/protocol.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";
import { DailyUnits, ProductSlots } from "./daily-units.js";

/** Days of sales every worker keeps from the start: the default window of top sellers and of search popularity. */
export const SALES_DAYS_KEPT = 90;
/** Days of add-to-cart counts kept: trending's recent and baseline windows (see DEFAULT_TRENDING). */
export const ADDS_DAYS_KEPT = 40;
/** How long a shopper's request may read counts before every kept day has been read once. */
export const FIRST_READ_BUDGET_MS = 2;
/**
 * Days that changed are read again within the request when they held at most
 * this many rows (~150 ms at 1M products, where today holds ~52k): the answer
 * then counts every order so far, as before. More (a bulk import of old
 * orders) are read REREAD_BUDGET_MS at a time, answering from the days as
 * read before meanwhile, instead of holding the worker for seconds.
 */
export const SMALL_REREAD_ROWS = 100_000;
/** How long a shopper's request may read again a large set of changed days. */
export const REREAD_BUDGET_MS = 10;

export const SALES_WARMING = "sales history warming up: rankings count the most recent days read so far";

interface Pending {
  units: DailyUnits;
  day: number;
}

export class SalesHistory {
  readonly products = new ProductSlots();
  readonly sales: DailyUnits;
  readonly adds: DailyUnits;
  /** Moves whenever a day read in full changes what the sums give. */
  generation = 0;
  private salesDays = SALES_DAYS_KEPT;
  private addsDays = ADDS_DAYS_KEPT;
  /** The latest day the kept spans have ended with; never moves back (a request queued before midnight may run after it). */
  private today = Number.NEGATIVE_INFINITY;
  /** Days to read, most recent first, from the last look at the stamps. */
  private queue: Pending[] = [];
  /** The queue comes from a look made in the current call (rowsToReadAgain), so update need not look again. */
  private justLooked = false;
  busyMs = 0;

  constructor(store: Store, merchant: MerchantId) {
    this.sales = new DailyUnits(store.dailySales, merchant, this.products);
    this.adds = new DailyUnits(store.dailyAdds, merchant, this.products);
  }

  /** Keeps at least `days` days of sales from now on (a window longer than the default was asked for); they are read as the rest. */
  keepSalesDays(days: number): void {
    if (days <= this.salesDays) return;
    this.salesDays = days;
    this.queue = [];
  }

  /**
   * Reads days never read, or changed since, in the kept spans ending with
   * `today`, until `deadline` (a performance.now() time; at least one slice
   * of rows per call, so every call makes progress). True once nothing is
   * left to read as of a look at the stamps made in this call.
   */
  update(today: number, deadline: number): boolean {
    const started = performance.now();
    let looked = this.justLooked;
    this.justLooked = false;
    if (today > this.today) {
      this.today = today;
      this.sales.dropBefore(today - this.salesDays + 1);
      this.adds.dropBefore(today - this.addsDays + 1);
      this.queue = [];
      looked = false;
      this.generation++;
    }
    // The stamps are looked at again whenever the list runs out: what changed
    // while it was being read, over several tasks and snapshots, is read too.
    for (let first = true; first || performance.now() < deadline; first = false) {
      if (this.queue.length === 0) {
        if (looked) break;
        this.queue = this.staleDays();
        looked = true;
        if (this.queue.length === 0) break;
      }
      const { units, day } = this.queue[0]!;
      if (!units.read(day, deadline)) break;
      this.queue.shift();
      this.generation++;
    }
    this.busyMs += performance.now() - started;
    return this.queue.length === 0 && looked;
  }

  /**
   * Whether the sums over days [fromDay, today] of `units` count every day
   * (each read at least once; a day read again after a change counts as read
   * before until then).
   */
  covers(units: DailyUnits, fromDay: number): boolean {
    if (this.today === Number.NEGATIVE_INFINITY) return false;
    const kept = units === this.sales ? this.salesDays : this.addsDays;
    return units.readSince(Math.max(fromDay, this.today - kept + 1), this.today);
  }

  /** Whether every kept day has been read at least once. */
  allKeptDaysRead(): boolean {
    return this.covers(this.sales, Number.NEGATIVE_INFINITY) && this.covers(this.adds, Number.NEGATIVE_INFINITY);
  }

  /** Rows held for the days that changed since they were read: what reading them again costs, about. */
  rowsToReadAgain(): number {
    // The look is kept for the update that follows: the stamps are read once per request.
    this.queue = this.staleDays();
    this.justLooked = true;
    let rows = 0;
    for (const { units, day } of this.queue) rows += units.rowsOf(day);
    return rows;
  }

  private staleDays(): Pending[] {
    const sales = this.sales.staleDays(this.today - this.salesDays + 1, this.today).map((day) => ({ units: this.sales, day }));
    const adds = this.adds.staleDays(this.today - this.addsDays + 1, this.today).map((day) => ({ units: this.adds, day }));
    // Newest first, so that a partial read covers the recent days every window starts with.
    return [...sales, ...adds].sort((a, b) => b.day - a.day || (a.units === this.sales ? -1 : 1));
  }
}

const histories = new PerStore<MerchantId, SalesHistory>();
/** How long one call may read, per store: none for no limit (see readBudgetsForRequests). */
const budgetsByStore = new WeakMap<Store, ReadBudgets>();

export interface ReadBudgets {
  /** While some kept day has never been read (after a start, or a longer window asked for). */
  firstReadMs: number;
  /** Changed days holding more rows than this are read again `rereadMs` at a time; fewer, at once. */
  smallRereadRows: number;
  rereadMs: number;
}

export const REQUEST_READ_BUDGETS: ReadBudgets = {
  firstReadMs: FIRST_READ_BUDGET_MS,
  smallRereadRows: SMALL_REREAD_ROWS,
  rereadMs: REREAD_BUDGET_MS,
};

/**
 * Makes rankings on this store read for a few ms at most per call (a pool
 * worker's store, where a call is a shopper's request). Other stores
 * (evaluations, tools) read everything they need at once (null, the default).
 */
export function readBudgetsForRequests(store: Store, perCall: ReadBudgets | null): void {
  if (perCall === null) budgetsByStore.delete(store);
  else budgetsByStore.set(store, perCall);
}

/** This thread's sales history of a merchant (empty until updated). */
export function salesHistoryOf(store: Store, merchant: MerchantId): SalesHistory {
  const ofStore = histories.of(store);
  let history = ofStore.get(merchant);
  if (!history) ofStore.set(merchant, (history = new SalesHistory(store, merchant)));
  return history;
}

/**
 * This thread's sales history of a merchant, read on for `today` within the
 * store's budgets: the first read's while some kept day was never read, else
 * the re-read's for a large set of changed days. `covered`: whether the
 * caller's windows are read.
 * `upToDate`: nothing was left to read.
 */
export function updatedSalesHistory(
  store: Store,
  merchant: MerchantId,
  today: number,
  covered: (history: SalesHistory) => boolean,
): { history: SalesHistory; upToDate: boolean; covered: boolean } {
  const history = salesHistoryOf(store, merchant);
  const budgets = budgetsByStore.get(store) ?? null;
  let budget = Number.POSITIVE_INFINITY;
  // Days never read are read a few ms at a time, whatever the caller's window: at 1M products they are seconds of reading.
  if (budgets !== null && !history.allKeptDaysRead()) budget = budgets.firstReadMs;
  else if (budgets !== null && history.rowsToReadAgain() > budgets.smallRereadRows) budget = budgets.rereadMs;
  const upToDate = history.update(today, performance.now() + budget);
  return { history, upToDate, covered: covered(history) };
}

/**
 * One warm-up step: reads counts for about `sliceMs`. Done once every kept
 * day has been read; the first step to see it reports the time all reads
 * took, requests' included.
 */
export function warmSalesHistory(store: Store, merchant: MerchantId, today: number, sliceMs: number): WarmStep {
  const history = salesHistoryOf(store, merchant);
  if (!history.update(today, performance.now() + sliceMs)) return { done: false, buildSeconds: null };
  if (warmedUp.has(history)) return { done: true, buildSeconds: null };
  warmedUp.add(history);
  return { done: true, buildSeconds: history.busyMs / 1000 };
}

/** Histories whose warm-up has reported its build time (requests may have done some of the reading). */
const warmedUp = new WeakSet<SalesHistory>();
