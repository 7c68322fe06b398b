import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/core/types.js";
import { Store } from "../../src/stores/store.js";

// The incremental model (updated order by order, with edits and cancellations)
// must hold the same counts as the model rebuilt from scratch over the final
// orders, and exact neighbour lists for the products the last update touched.
// (Lists of untouched products use the popularity of their neighbours as of
// their own last update; `aisle rebuild` refreshes them all.)
const orderArb = fc.record({
  id: fc.integer({ min: 1, max: 40 }),
  items: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 }),
  day: fc.integer({ min: 0, max: 60 }),
  cancelled: fc.boolean(),
});

function toOrder(spec: { id: number; items: number[]; day: number; cancelled: boolean }): Order {
  const at = new Date(Date.UTC(2026, 0, 1) + spec.day * 86_400_000).toISOString().replace(/\.\d+Z$/, "+00:00");
  return {
    id: spec.id,
    created_at: at,
    customer_id: null,
    line_items: spec.items.map((id) => ({ product_id: id, variant_id: null, quantity: 1, price: "1.00" })),
    cancelled_at: spec.cancelled ? at : null,
  };
}

const round = (x: number) => Number(x.toPrecision(9));

function counts(store: Store, merchant: string): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (let id = 1; id <= 12; id++) {
    const { item, row } = store.orders.copurchaseCounts(merchant, id);
    const pairs = row ? row.ids.map((n, i) => [n, round(row.weights[i]!), row.counts[i]]).sort((a, b) => a[0]! - b[0]!) : [];
    if (item || pairs.length > 0) out[id] = { weight: item ? round(item.weight) : 0, count: item?.count ?? 0, pairs };
  }
  return out;
}

function lists(store: Store, merchant: string, ids: Iterable<number>): Record<number, [number, number][]> {
  const out: Record<number, [number, number][]> = {};
  for (const id of ids) {
    const list = store.orders.copurchaseNeighbours(merchant, id);
    // Equal scores summed in another order can differ in the last bits and swap places.
    if (list) out[id] = list.ids.map((n, i): [number, number] => [n, round(list.weights[i]!)]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  }
  return out;
}

describe("bought-together model", () => {
  it("updated incrementally equals rebuilt from all orders", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(orderArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), async (batches) => {
        const dir = mkdtempSync(join(tmpdir(), "aisle-model-"));
        const store = Store.open(dir, { copurchase: { neighbours: 5, alpha: 0.5, halfLifeDays: 30, basketSizeExponent: 0.75, shrink: 0 } });
        try {
          for (const batch of batches) {
            // One id twice in a batch: the later version is the one that counts.
            await store.orders.upsertOrders(
              "m",
              batch.map((spec) => ({ path: "o", value: toOrder(spec) })),
            );
          }
          // Products whose counts the last batch changed: items of baskets it added or took back.
          const current = new Map<number, { items: number[]; cancelled: boolean }>();
          for (const batch of batches.slice(0, -1)) for (const spec of batch) current.set(spec.id, spec);
          const touched = new Set<number>();
          for (const spec of batches.at(-1)!) {
            const previous = current.get(spec.id);
            if (previous && !previous.cancelled) previous.items.forEach((item) => touched.add(item));
            if (!spec.cancelled) spec.items.forEach((item) => touched.add(item));
            current.set(spec.id, spec);
          }
          const before = { counts: counts(store, "m"), lists: lists(store, "m", touched) };
          await store.orders.rebuildCopurchase("m");
          expect(counts(store, "m")).toEqual(before.counts);
          expect(lists(store, "m", touched)).toEqual(before.lists);
        } finally {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 25 },
    );
    // 25 fresh LMDB environments with several commits each: about 2 s on a quiet
    // machine, far longer when other jobs keep the disk busy.
  }, 120_000);
});
