// What a customer bought, summed over their orders: the purchased endpoint's
// answer before render, and custom sources' "purchased" built-in.

/** A customer's purchases: product ids, most recently bought first (ties: lower id), and the units of each. */
export interface PurchaseSummary {
  ids: number[];
  quantities: number[];
}

/** What a summary reads of an order. */
export interface PurchasedOrder {
  created_at: string;
  cancelled_at: string | null;
  line_items: readonly { product_id: number; quantity: number }[];
}

/** Units per product over the orders (cancelled ones left out), most recently bought first. */
export function purchaseSummary(orders: Iterable<PurchasedOrder>): PurchaseSummary {
  const totals = new Map<number, { quantity: number; last: number }>();
  for (const order of orders) {
    if (order.cancelled_at !== null) continue;
    const at = Date.parse(order.created_at);
    for (const line of order.line_items) {
      const entry = totals.get(line.product_id) ?? { quantity: 0, last: 0 };
      entry.quantity += line.quantity;
      entry.last = Math.max(entry.last, at);
      totals.set(line.product_id, entry);
    }
  }
  const ordered = [...totals].sort((a, b) => b[1].last - a[1].last || a[0] - b[0]);
  return { ids: ordered.map(([id]) => id), quantities: ordered.map(([, { quantity }]) => quantity) };
}
