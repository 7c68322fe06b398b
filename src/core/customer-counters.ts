// A customer's order counters (the spec's metadata.platform_customer fields)
// follow the orders this service holds: a customer record alone says 0.
import { formatCents, MAX_CENTS, toCents } from "./money.js";
import type { Customer, Order } from "./types.js";

export type CustomerCounters = Pick<Customer, "orders_count" | "total_spent" | "last_order_id" | "last_order_name">;

/** Counted over orders that were not cancelled; the last is the latest placed (the higher id on a tie). */
export function customerCounters(orders: readonly Order[]): CustomerCounters {
  let count = 0;
  let spentCents = 0;
  let last: Order | null = null;
  for (const order of orders) {
    if (order.cancelled_at !== null) continue;
    count++;
    // Held at the largest amount a decimal field takes: every sum below it is an exact integer, and it stays one.
    for (const line of order.line_items) spentCents = Math.min(MAX_CENTS, spentCents + (toCents(line.price) ?? 0) * line.quantity);
    if (last === null || order.created_at > last.created_at || (order.created_at === last.created_at && order.id > last.id)) last = order;
  }
  return {
    orders_count: count,
    total_spent: formatCents(spentCents),
    last_order_id: last?.id ?? null,
    // Orders stored before their names were kept are named as the platform numbers them by default.
    last_order_name: last === null ? null : (last.name ?? `#${last.id}`),
  };
}
