// The ranking writer's in-memory copy of one merchant's daily counts (units
// sold, or add-to-cart events) per product. Reading the 90 days of sales and
// 40 of adds of a 100k-product shop from the store takes about 0.26 s of CPU
// (580k rows; at 1M products ten times the rows); summing them in memory takes
// milliseconds. A day is read again only when its stamp in the store moved
// (src/stores/daily-counts.ts): normally just today.
import { IntegerIds } from "../core/recs/id-tables.js";
import type { MerchantId } from "../core/types.js";
import type { DailyCounts } from "./daily-counts.js";

/** Rows read between looks at the clock. */
const DEADLINE_CHECK_EVERY = 256;

/** Dense numbers for product ids, so that sums are arrays rather than maps. */
export class ProductSlots {
  readonly ids: number[] = [];
  /** Not a Map: product ids pass 2³¹, and a Map keys them as heap numbers (a quarter of a first read's time). */
  private readonly slots = new IntegerIds();

  slotOf(productId: number): number {
    let slot = this.slots.get(productId);
    if (slot < 0) {
      slot = this.ids.length;
      this.slots.set(productId, slot);
      this.ids.push(productId);
    }
    return slot;
  }

  get size(): number {
    return this.ids.length;
  }
}

interface Day {
  /** The day's stamp when its reading began. */
  stamp: number;
  slots: Int32Array;
  /** Not 32-bit: a day's units of a product, summed over its orders, could pass 2³¹ and wrap negative. */
  counts: Float64Array;
}

/** A day being read, possibly over several calls. */
interface Reading {
  day: number;
  stamp: number;
  after: number | null;
  slots: number[];
  counts: number[];
}

export class DailyUnits {
  private readonly days = new Map<number, Day>();
  private reading: Reading | null = null;

  constructor(
    private readonly source: DailyCounts,
    private readonly merchant: MerchantId,
    private readonly products: ProductSlots,
  ) {}

  /** Days of [fromDay, toDay] not read yet, or changed since they were read. */
  staleDays(fromDay: number, toDay: number): number[] {
    const stale: number[] = [];
    for (let day = fromDay; day <= toDay; day++) {
      if (this.days.get(day)?.stamp !== this.source.stampOf(this.merchant, day)) stale.push(day);
    }
    return stale;
  }

  /**
   * Reads a day (again) until `deadline` (a performance.now() time); true once
   * it is read, when it replaces what was held for the day.
   */
  read(day: number, deadline: number): boolean {
    if (this.reading?.day !== day) {
      // The stamp is read before the rows: a change made meanwhile moves it past this one, and the day is read again.
      this.reading = { day, stamp: this.source.stampOf(this.merchant, day), after: null, slots: [], counts: [] };
    }
    const reading = this.reading;
    let sinceCheck = 0;
    for (const [productId, count] of this.source.ofDay(this.merchant, day, reading.after)) {
      reading.slots.push(this.products.slotOf(productId));
      reading.counts.push(count);
      reading.after = productId;
      if (++sinceCheck === DEADLINE_CHECK_EVERY) {
        sinceCheck = 0;
        if (performance.now() >= deadline) return false;
      }
    }
    this.days.set(day, { stamp: reading.stamp, slots: Int32Array.from(reading.slots), counts: Float64Array.from(reading.counts) });
    this.reading = null;
    return true;
  }

  /** Forgets the days outside [fromDay, toDay]. */
  keepOnly(fromDay: number, toDay: number): void {
    for (const day of this.days.keys()) if (day < fromDay || day > toDay) this.days.delete(day);
    if (this.reading !== null && (this.reading.day < fromDay || this.reading.day > toDay)) this.reading = null;
  }

  /** Adds `weight` × each product's counts over days [fromDay, toDay] into `totals` (indexed by slot). */
  addInto(totals: Float64Array, fromDay: number, toDay: number, weight = 1): void {
    for (const [day, { slots, counts }] of this.days) {
      if (day < fromDay || day > toDay) continue;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        totals[slot] = totals[slot]! + weight * counts[i]!;
      }
    }
  }
}
