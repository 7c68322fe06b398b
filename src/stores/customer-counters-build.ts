// Customers' order counters (orders_count, total_spent, the last order) are
// written with every order change (OrderStore's upsertOrders). A data dir written
// before they were kept holds customers with zero counters whatever their
// orders: this build counts each customer's orders once (DerivedBuilds), a
// slice of customers per transaction.
import type { MerchantId } from "../core/types.js";
import type { DerivedBuild } from "./derived-builds.js";

/** What the build reads and writes: the merchant's customer ids in order, and the recount that orders use. */
export interface CustomerRecords {
  customerIdsAfter(merchant: MerchantId, after: number | null, limit: number): number[];
  /** Counts the customers' orders into their records; true if any record changed (cached answers then go stale). */
  recountCustomers(merchant: MerchantId, customerIds: readonly number[]): boolean;
}

/** Customers recounted per slice: each reads the customer's orders, a few reads for most. */
const SLICE_CUSTOMERS = 500;

export class CustomerCountersBuild implements DerivedBuild {
  readonly name = "customer_counters";
  readonly layout = 1;

  constructor(private readonly customers: CustomerRecords) {}

  /** The counters are fields of the customer records, rewritten in place: nothing to remove. */
  clear(): void {}

  /** The cursor is the last customer id recounted. */
  buildSlice(merchant: MerchantId, cursor: number | null): number | null {
    const ids = this.customers.customerIdsAfter(merchant, cursor, SLICE_CUSTOMERS + 1);
    const slice = ids.slice(0, SLICE_CUSTOMERS);
    this.customers.recountCustomers(merchant, slice);
    return ids.length > SLICE_CUSTOMERS ? slice.at(-1)! : null;
  }
}
