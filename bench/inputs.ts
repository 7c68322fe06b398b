// Real inputs for the ranking benches, read from a seeded store: which products
// a recommendation is asked for, and order lines to write as new orders. Picks
// are deterministic (seeded), so two runs measure the same requests.
import type { Store } from "../src/stores/store.js";

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
  for (const id of store.productIds(merchantId)) {
    const list = store.copurchaseNeighbours(merchantId, id);
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
export function sampleOrderLines(store: Store, merchantId: string, count: number, seed: number): { lines: LineSample[]; customerIds: number[]; maxOrderId: number } {
  const random = prng(seed);
  const lines: LineSample[] = [];
  const customers = new Set<number>();
  let seen = 0;
  let maxOrderId = 0;
  // Reservoir sampling over every line: one pass, memory bounded by `count`.
  for (const order of store.allOrders(merchantId)) {
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
