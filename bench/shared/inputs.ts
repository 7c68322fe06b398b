// Real inputs for the ranking benches, read from a seeded store: which products
// a recommendation is asked for, and order lines to write as new orders. Picks
// are deterministic (seeded), so two runs measure the same requests.
import { isProductAvailable } from "../../src/core/availability.js";
import type { Store } from "../../src/stores/store.js";

/** mulberry32: tiny, seeded, good enough to spread picks. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RecommendationInputs {
  /** Products the bought-together model has a neighbour list for (they were sold with something). */
  withNeighbours: number[];
  /** Products it has none for: a recommendation for them falls back to trending. */
  withoutNeighbours: number[];
}

export function recommendationInputs(store: Store, merchantId: string): RecommendationInputs {
  const withNeighbours: number[] = [];
  const withoutNeighbours: number[] = [];
  for (const id of store.catalogue.productIds(merchantId)) {
    const list = store.orders.copurchaseNeighbours(merchantId, id);
    (list && list.ids.length > 0 ? withNeighbours : withoutNeighbours).push(id);
  }
  return { withNeighbours, withoutNeighbours };
}

/**
 * `count` sets of distinct ids drawn uniformly from `ids`; set k has `sizeOf(k)`
 * ids (fewer only when `ids` itself is shorter).
 */
export function inputSets(ids: readonly number[], count: number, sizeOf: (k: number) => number, seed: number): number[][] {
  if (ids.length === 0) return [];
  const random = prng(seed);
  return Array.from({ length: count }, (_, k) => {
    const size = Math.min(sizeOf(k), ids.length);
    const set = new Set<number>();
    while (set.size < size) set.add(ids[Math.floor(random() * ids.length)]!);
    return [...set];
  });
}

/** An order line as the admin API and webhooks take it. */
export interface LineSample {
  product_id: number;
  variant_id: number | null;
  price: string;
}

/**
 * Order lines drawn uniformly from the lines of the merchant's orders, so
 * products appear as often as they really sell: popular products have the
 * longest co-occurrence rows, and a new order mostly touches them.
 */
export function sampleOrderLines(
  store: Store,
  merchantId: string,
  count: number,
  seed: number,
): { lines: LineSample[]; customerIds: number[]; maxOrderId: number } {
  const random = prng(seed);
  const lines: LineSample[] = [];
  const customers = new Set<number>();
  let seen = 0;
  let maxOrderId = 0;
  // Reservoir sampling over every line: one pass, memory bounded by `count`.
  for (const order of store.orders.allOrders(merchantId)) {
    if (order.id > maxOrderId) maxOrderId = order.id;
    if (order.customer_id !== null && customers.size < 10_000) customers.add(order.customer_id);
    for (const line of order.line_items) {
      const sample = { product_id: line.product_id, variant_id: line.variant_id, price: line.price };
      if (seen < count) lines.push(sample);
      else {
        const slot = Math.floor(random() * (seen + 1));
        if (slot < count) lines[slot] = sample;
      }
      seen++;
    }
  }
  return { lines, customerIds: [...customers], maxOrderId };
}

/**
 * The merchant's own view sessions: uuid → product ids viewed, oldest first,
 * cut to at most `maxViews`; only sessions with at least two views.
 */
export function viewSessions(store: Store, merchantId: string, maxViews: number): Map<string, number[]> {
  const sessions = new Map<string, number[]>();
  for (const { event } of store.events.eventsSince(merchantId, 0)) {
    if (event.verb !== "viewed" || event.uuid === null) continue;
    const views = sessions.get(event.uuid) ?? [];
    if (views.length < maxViews) views.push(event.product_id);
    sessions.set(event.uuid, views);
  }
  for (const [uuid, views] of sessions) if (views.length < 2) sessions.delete(uuid);
  return sessions;
}

/** View sequences of the first `count` sessions: what viewed-related is asked for. */
export function sessionPrefixes(store: Store, merchantId: string, count: number, maxViews: number): number[][] {
  return [...viewSessions(store, merchantId, maxViews).values()].slice(0, count);
}

/** Up to `count` customers who have placed an order, in order of their first one. */
export function customersWithOrders(store: Store, merchantId: string, count: number): number[] {
  const customers = new Set<number>();
  for (const order of store.orders.allOrders(merchantId)) {
    if (order.customer_id !== null) customers.add(order.customer_id);
    if (customers.size >= count) break;
  }
  return [...customers];
}

/** Every prefix of every query, in typing order: one request per keystroke. */
export function keystrokes(queries: readonly string[]): string[] {
  return queries.flatMap((query) => Array.from({ length: query.length }, (_, i) => query.slice(0, i + 1)));
}

/**
 * Search queries for a catalogue without real search logs: the first two words
 * of `count` product titles picked by a seeded draw (what a shopper types
 * before finding a product they know by name).
 */
export function titleQueries(store: Store, merchantId: string, count: number): string[] {
  const ids = store.catalogue.productIds(merchantId);
  const random = prng(53);
  return Array.from({ length: count }, () => {
    const title = store.catalogue.product(merchantId, ids[Math.floor(random() * ids.length)]!)?.title ?? "";
    return title.toLowerCase().split(/\s+/).slice(0, 2).join(" ");
  }).filter((query) => query.length > 0);
}

/** A synthetic keystroke replay: titleQueries typed character by character. */
export function titleKeystrokes(store: Store, merchantId: string, count: number): string[] {
  return keystrokes(titleQueries(store, merchantId, count));
}

/** Ids the static endpoint will actually return (active, in stock), so every id set renders whole lists. */
export function listedIds(store: Store, merchantId: string): number[] {
  return store.catalogue.productIds(merchantId).filter((id) => {
    const product = store.catalogue.product(merchantId, id);
    return product !== undefined && product.status === "active" && isProductAvailable(product);
  });
}
