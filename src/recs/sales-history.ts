// A worker's daily sales and add-to-cart counts of each merchant, held in
// memory for the shop-wide rankings (src/recs/sales-rankings.ts), read from
// the store newest day first and kept current day by day.
//
// At a start the warm-up reads them in steps between shoppers' tasks, as it
// does the search and session indexes: a 1M-product shop's 90 days of sales
// take about 7 s to read. Until the first read is complete a shopper's request
// reads for REQUEST_READ_BUDGET_MS at most and its rankings count the days
// read so far (the most recent ones); such answers say so.
import type { MerchantId } from "../core/types.js";
import type { WarmStep } from "../pool/protocol.js";
import type { Store } from "../stores/store.js";
import { DailyUnits, ProductSlots } from "./daily-units.js";

/** Days of sales every worker keeps from the start: the default window of top sellers and of search popularity. */
export const SALES_DAYS_KEPT = 90;
/** Days of add-to-cart counts kept: trending's recent and baseline windows (see DEFAULT_TRENDING). */
export const ADDS_DAYS_KEPT = 40;
/** How long a shopper's request may read counts before the first read is complete. */
export const REQUEST_READ_BUDGET_MS = 2;

export const SALES_WARMING = "sales history warming up: rankings count the most recent days read so far";

export class SalesHistory {
  readonly products = new ProductSlots();
  readonly sales: DailyUnits;
  readonly adds: DailyUnits;
  /** Moves whenever a day read in full changes what the sums give. */
  generation = 0;
  private salesDays = SALES_DAYS_KEPT;
  private addsDays = ADDS_DAYS_KEPT;
  /** The day the spans end with, as of the last update. */
  private today = Number.NEGATIVE_INFINITY;
  /** Days still to read, most recent first; empty when the held days matched their stamps at the last look. */
  private queue: { units: DailyUnits; day: number }[] = [];
  /** Whether every kept day has been read at least once. */
  private complete = false;
  busyMs = 0;

  constructor(store: Store, merchant: MerchantId) {
    this.sales = new DailyUnits(store.dailySales, merchant, this.products);
    this.adds = new DailyUnits(store.dailyAdds, merchant, this.products);
  }

  /** Keeps at least `days` days of sales from now on (a window longer than the default was asked for). */
  keepSalesDays(days: number): void {
    if (days <= this.salesDays) return;
    this.salesDays = days;
    this.queue = [];
    // The added days are read as at a start: a request reads for its budget and its answer says what it lacks.
    this.complete = false;
  }

  /**
   * Reads what changed, or was never read, in the kept days ending with
   * `today`, until `deadline`; once the first read is complete, everything
   * that changed (normally today alone). True when up to date.
   */
  update(today: number, deadline: number): boolean {
    const started = performance.now();
    if (today !== this.today) {
      this.today = today;
      this.sales.dropBefore(today - this.salesDays + 1);
      this.adds.dropBefore(today - this.addsDays + 1);
      this.queue = [];
      this.generation++;
    }
    if (this.queue.length === 0) this.queue = this.staleDays();
    if (this.complete) deadline = Number.POSITIVE_INFINITY;
    // At least one slice per call, however short the budget: every call makes progress.
    for (let first = true; this.queue.length > 0 && (first || performance.now() < deadline); first = false) {
      const { units, day } = this.queue[0]!;
      if (!units.read(day, deadline)) break;
      this.queue.shift();
      this.generation++;
    }
    this.busyMs += performance.now() - started;
    const upToDate = this.queue.length === 0;
    if (upToDate) this.complete = true;
    return upToDate;
  }

  /** Whether every kept day has been read at least once. */
  get allDaysRead(): boolean {
    return this.complete;
  }

  private staleDays(): { units: DailyUnits; day: number }[] {
    const sales = this.sales.staleDays(this.today - this.salesDays + 1, this.today).map((day) => ({ units: this.sales, day }));
    const adds = this.adds.staleDays(this.today - this.addsDays + 1, this.today).map((day) => ({ units: this.adds, day }));
    // Newest first, so that a partial read covers the recent days every window starts with.
    return [...sales, ...adds].sort((a, b) => b.day - a.day || (a.units === this.sales ? -1 : 1));
  }
}

/** Per store (a thread has one; tests and evaluations open several), per merchant. */
const histories = new WeakMap<Store, Map<MerchantId, SalesHistory>>();
/** How long one call may read before the first read is complete (see setRequestReadBudget). */
let readBudgetMs = Number.POSITIVE_INFINITY;

/**
 * Makes this thread's rankings read for `ms` at most per call until the first
 * read is complete: pool workers, where a call is a shopper's request. Other
 * threads (evaluations, tools) read everything they need at once.
 */
export function setRequestReadBudget(ms: number): void {
  readBudgetMs = ms;
}

/** This thread's sales history of a merchant brought up to date for `today`, within the thread's read budget; whether it is complete. */
export function updatedSalesHistory(store: Store, merchant: MerchantId, today: number): { history: SalesHistory; complete: boolean } {
  const history = salesHistoryOf(store, merchant);
  return { history, complete: history.update(today, performance.now() + readBudgetMs) };
}

/** This thread's sales history of a merchant (empty until updated). */
export function salesHistoryOf(store: Store, merchant: MerchantId): SalesHistory {
  let ofStore = histories.get(store);
  if (!ofStore) histories.set(store, (ofStore = new Map()));
  let history = ofStore.get(merchant);
  if (!history) ofStore.set(merchant, (history = new SalesHistory(store, merchant)));
  return history;
}

/**
 * One warm-up step: reads counts for about `sliceMs`. Done once every kept
 * day has been read; the step that gets there reports the time all reads took.
 */
export function warmSalesHistory(store: Store, merchant: MerchantId, today: number, sliceMs: number): WarmStep {
  const history = salesHistoryOf(store, merchant);
  const wasComplete = history.allDaysRead;
  if (!history.update(today, performance.now() + sliceMs)) return { done: false, buildSeconds: null };
  return { done: true, buildSeconds: wasComplete ? null : history.busyMs / 1000 };
}
