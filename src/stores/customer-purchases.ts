// Each customer's purchases summed over their orders (src/core/recs/purchases.ts),
// written in the transaction of every order write that touches the customer,
// so that the purchased endpoint reads one record instead of decoding every
// order (and answers on the HTTP thread when the list is cheap). A data dir
// written before the summaries were kept builds them (DerivedBuild), a slice
// of customers per transaction.
import type { Database } from "lmdb";
import { purchaseSummary, type PurchasedOrder, type PurchaseSummary } from "../core/recs/purchases.js";
import type { MerchantId } from "../core/types.js";
import type { DerivedBuild } from "./derived-builds.js";
import { merchantRange, type Key } from "./merchant-keys.js";

/** What the summaries are derived from. */
export interface PurchaseSource {
  ordersOfCustomer(merchant: MerchantId, customerId: number): PurchasedOrder[];
  /** Up to `limit` ids of customers with orders, after `after` (null: from the first), in order. */
  customersWithOrdersAfter(merchant: MerchantId, after: number | null, limit: number): number[];
}

/** Customers summarised per rebuild slice, inside its transaction: each reads the customer's orders, a few for most. */
const SLICE_CUSTOMERS = 100;

export class CustomerPurchases implements DerivedBuild {
  readonly name = "customer_purchases";
  readonly layout = 1;

  constructor(
    /** [merchant, customer id] → the customer's PurchaseSummary; absent without a purchase. */
    private readonly summaries: Database<PurchaseSummary, Key>,
    private readonly source: PurchaseSource,
  ) {}

  summary(merchant: MerchantId, customerId: number): PurchaseSummary | undefined {
    return this.summaries.get([merchant, customerId]);
  }

  /** The size of the customer's stored record, undecoded (0 without one). */
  storedBytes(merchant: MerchantId, customerId: number): number {
    return this.summaries.getBinaryFast([merchant, customerId])?.length ?? 0;
  }

  /** Sums the customers' orders again, in the caller's transaction; `ordersOf`: their orders, when the caller has read them already. */
  summarise(
    merchant: MerchantId,
    customerIds: Iterable<number>,
    ordersOf: (customerId: number) => PurchasedOrder[] = (id) => this.source.ordersOfCustomer(merchant, id),
  ): void {
    for (const id of customerIds) {
      const summary = purchaseSummary(ordersOf(id));
      if (summary.ids.length === 0) this.summaries.remove([merchant, id]);
      else this.summaries.put([merchant, id], summary);
    }
  }

  clear(merchant: MerchantId): void {
    for (const key of this.summaries.getKeys(merchantRange(merchant))) this.summaries.remove(key);
  }

  /** The cursor is the last customer summarised. */
  buildSlice(merchant: MerchantId, cursor: number | null): number | null {
    const ids = this.source.customersWithOrdersAfter(merchant, cursor, SLICE_CUSTOMERS);
    this.summarise(merchant, ids);
    return ids.length < SLICE_CUSTOMERS ? null : ids.at(-1)!;
  }
}
