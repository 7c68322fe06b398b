// Per-day, per-product counts of one kind (units sold, add-to-cart events),
// with a stamp per day that moves whenever any count of that day does: the
// ranking writer keeps the days it has read in memory and reads again only the
// days whose stamp moved (src/stores/daily-units.ts), instead of millions of
// rows. A stamp per merchant moves with every change of any day, so that
// writer sees at a glance whether anything changed.
import type { Database, RootDatabase } from "lmdb";
import type { MerchantId } from "../core/types.js";

type Key = (string | number)[];

/** [day, product id, change]: what a write adds to the counts. */
export type CountChange = readonly [day: number, productId: number, change: number];

export class DailyCounts {
  /** [merchant, day, product] → count; zero counts are not stored. */
  private readonly counts: Database<number, Key>;
  /**
   * [merchant, day] → a stamp that moves with every write that changes that
   * day's counts; [merchant] → one that moves with every write that changes any.
   */
  private readonly stamps: Database<number, Key>;

  constructor(root: RootDatabase, countsName: string, stampsName: string) {
    const options = { encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") } as const;
    this.counts = root.openDB<number, Key>({ name: countsName, ...options });
    this.stamps = root.openDB<number, Key>({ name: stampsName, ...options });
  }

  /** Adds the changes in the caller's transaction; each day they touch gets a new stamp, and so does the merchant. */
  add(merchant: MerchantId, changes: Iterable<CountChange>): void {
    // Summed first: a batch of events repeats the same few products, and each write reads the stored count.
    const byDay = new Map<number, Map<number, number>>();
    for (const [day, productId, change] of changes) {
      let products = byDay.get(day);
      if (!products) byDay.set(day, (products = new Map()));
      products.set(productId, (products.get(productId) ?? 0) + change);
    }
    let anyChanged = false;
    for (const [day, products] of byDay) {
      let changed = false;
      for (const [productId, change] of products) {
        if (change === 0) continue;
        const key: Key = [merchant, day, productId];
        const count = (this.counts.get(key) ?? 0) + change;
        if (count === 0) this.counts.remove(key);
        else this.counts.put(key, count);
        changed = true;
      }
      if (changed) this.stamps.put([merchant, day], this.stampOf(merchant, day) + 1);
      anyChanged ||= changed;
    }
    if (anyChanged) this.stamps.put([merchant], this.versionOf(merchant) + 1);
  }

  /** The merchant's stamp: it moves with every change of any day's counts (0 before the first). */
  versionOf(merchant: MerchantId): number {
    return this.stamps.get([merchant]) ?? 0;
  }

  /** The stamp of a day (0 before any change was stamped, also for data older than stamps). */
  stampOf(merchant: MerchantId, day: number): number {
    return this.stamps.get([merchant, day]) ?? 0;
  }

  /**
   * Counts of one day in product id order, starting after `afterProductId`
   * (null: from the first), so a reader can stop and go on later.
   */
  *ofDay(merchant: MerchantId, day: number, afterProductId: number | null): Generator<readonly [productId: number, count: number]> {
    // Product ids are integers: the next one up is the first key after `afterProductId`.
    const start: Key = afterProductId === null ? [merchant, day] : [merchant, day, afterProductId + 1];
    for (const { key, value } of this.counts.getRange({ start, end: [merchant, day + 1] })) yield [key[2] as number, value];
  }

  /** Counts per product summed over days [fromDay, toDay), read from the store (tests and tools; the ranking writer keeps DailyUnits). */
  sumByProduct(merchant: MerchantId, fromDay: number, toDay: number): Map<number, number> {
    const totals = new Map<number, number>();
    for (const { key, value } of this.counts.getRange({ start: [merchant, fromDay], end: [merchant, toDay] })) {
      const productId = key[2] as number;
      totals.set(productId, (totals.get(productId) ?? 0) + value);
    }
    return totals;
  }
}
