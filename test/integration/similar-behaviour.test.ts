import { describe, expect, it } from "vitest";
import { DEFAULT_COPURCHASE } from "../../src/core/recs/copurchase.js";
import { Rng } from "../../src/core/random.js";
import { formatTimestamp } from "../../src/core/timestamps.js";
import type { BehaviourEvent } from "../../src/core/types.js";
import { ingest } from "../../src/ingest/ingest.js";
import { behaviourGroups } from "../../src/similar/behaviour.js";
import { NEVER_CANCELLED } from "../../src/similar/cancellation.js";
import { Store } from "../../src/stores/store.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-similar-behaviour-");

/**
 * The groups as the first version built them, with a Map of sessions and an
 * array per group: what the typed-array builder must reproduce exactly (the
 * training that draws from them is deterministic given its seed).
 */
function referenceGroups(
  orders: { products: number[]; at: number; cancelled: boolean }[],
  events: BehaviourEvent[],
  indexOf: Map<number, number>,
) {
  const members: number[][] = [];
  const times: number[] = [];
  const windows: number[] = [];
  const add = (productIds: number[], at: number, window: number) => {
    const known: number[] = [];
    const seen = new Set<number>();
    for (const id of productIds) {
      const index = indexOf.get(id);
      if (index === undefined || (window === 0 && seen.has(index))) continue;
      if (window > 0 && known[known.length - 1] === index) continue;
      seen.add(index);
      known.push(index);
    }
    if (new Set(known).size < 2) return;
    members.push(known.slice(0, 50));
    times.push(at);
    windows.push(window);
  };
  for (const order of orders) if (!order.cancelled) add(order.products, order.at, 0);
  const orderGroups = members.length;
  const sessions = new Map<string, { views: number[]; at: number }>();
  for (const event of events) {
    if (event.verb !== "viewed" || event.uuid === null) continue;
    const session = sessions.get(event.uuid) ?? { views: [], at: event.at };
    session.views.push(event.product_id);
    session.at = event.at;
    sessions.set(event.uuid, session);
  }
  for (const { views, at } of sessions.values()) add(views, at, 3);
  const latest = times.reduce((max, at) => Math.max(max, at), 0);
  const halfLifeMs = (DEFAULT_COPURCHASE.halfLifeDays ?? Infinity) * 86_400_000;
  const weights = members.map((group, index) => Math.pow(0.5, (latest - times[index]!) / halfLifeMs) * Math.sqrt(group.length - 1));
  return { members, weights, windows, orderGroups, withBehaviour: new Set(members.flat()).size };
}

describe("the behaviour the similar-products encoder is fine-tuned on", () => {
  it("groups orders and view sessions exactly as the Map-based first version did: unknown products, repeats, reloads, cancelled orders, long sessions", async () => {
    const rng = new Rng(7);
    const pick = (n: number) => Math.floor(rng.next() * n);
    const store = Store.open(tempDir());
    try {
      await store.catalogue.createMerchant(storedMerchant("shop"));
      // Catalogue positions for products 1–30; 31–35 are in orders and views but not in the catalogue (deleted).
      const indexOf = new Map(Array.from({ length: 30 }, (_, i) => [i + 1, i]));
      const now = Date.parse("2026-06-01T00:00:00Z");
      const orders = Array.from({ length: 300 }, (_, i) => ({
        // 1–5 lines, from a small range so the same product often appears twice.
        products: Array.from({ length: 1 + pick(5) }, () => 1 + pick(35)),
        at: now - pick(400) * 86_400_000,
        cancelled: pick(10) === 0,
        id: i + 1,
      }));
      await ingest(
        store,
        "shop",
        "orders",
        orders.map((order) => ({
          id: order.id,
          created_at: formatTimestamp(new Date(order.at)),
          customer: null,
          line_items: order.products.map((id, line) => ({ product_id: id, variant_id: id * 10 + 1 + line, quantity: 1, price: "5.00" })),
          cancelled_at: order.cancelled ? formatTimestamp(new Date(order.at + 3_600_000)) : null,
        })),
      );
      // Interleaved sessions of 1–150 events: views (with reloads: the same product twice in a row), some adds, some without a session.
      const uuids = Array.from({ length: 120 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
      const lengths = uuids.map(() => 1 + pick(pick(4) === 0 ? 150 : 8));
      const events: BehaviourEvent[] = [];
      let at = now - 30 * 86_400_000;
      const last = new Map<string, number>();
      while (lengths.some((left) => left > 0)) {
        const session = pick(uuids.length);
        if (lengths[session]! === 0) continue;
        lengths[session]!--;
        const uuid = uuids[session]!;
        const product = pick(4) === 0 && last.has(uuid) ? last.get(uuid)! : 1 + pick(35);
        last.set(uuid, product);
        const verb = pick(12) === 0 ? "added" : "viewed";
        events.push({
          at: (at += 1_000 + pick(60_000)),
          uuid: pick(40) === 0 ? null : uuid,
          customer_id: pick(40) === 0 ? 9 : null,
          verb,
          product_id: product,
          theme_id: null,
        });
      }
      await store.applied.appendEvents(
        "shop",
        events.filter((event) => event.uuid !== null || event.customer_id !== null),
      );

      const { groups, summary } = behaviourGroups(store, "shop", indexOf, NEVER_CANCELLED);
      const reference = referenceGroups(
        orders,
        events.filter((event) => event.uuid !== null || event.customer_id !== null),
        indexOf,
      );
      const members = Array.from(groups.weights, (_, group) =>
        Array.from(groups.items.subarray(groups.starts[group]!, groups.starts[group + 1]!)),
      );
      expect(members).toEqual(reference.members);
      expect(Array.from(groups.weights)).toEqual(reference.weights);
      expect(Array.from(groups.windows)).toEqual(reference.windows);
      expect(summary).toEqual({
        orders: reference.orderGroups,
        viewSessions: reference.members.length - reference.orderGroups,
        productsWithBehaviour: reference.withBehaviour,
      });
      // The cases the data must hold for the comparison to mean something.
      expect(reference.members.some((group) => group.length === 50)).toBe(true);
      expect(reference.orderGroups).toBeGreaterThan(50);
      expect(reference.members.length - reference.orderGroups).toBeGreaterThan(50);
    } finally {
      await store.close();
    }
  });
});
