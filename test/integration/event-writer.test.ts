import { describe, expect, it } from "vitest";
import { normaliseProduct } from "../../src/core/ingest/product.js";
import { HISTORY_LIMIT } from "../../src/core/recs/history.js";
import type { BehaviourEvent } from "../../src/core/types.js";
import { EventWriter } from "../../src/ingest/event-writer.js";
import { BACKGROUND_NICE } from "../../src/pool/thread-priority.js";
import { Store } from "../../src/stores/store.js";
import { historyOf } from "../../src/lists/history.js";
import { product } from "../helpers/fixtures.js";
import { storedMerchant, storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";
import { applierThread } from "../helpers/applier-thread.js";
import { threadsAtNice } from "../helpers/threads.js";
import { eventually } from "../helpers/service.js";

const tempDir = tempDirs("aisle-event-writer-");

const SESSION = "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e";
/** An hour ago: events of the test's own time, which the applier's retention pass leaves alone (1970 ones it would prune). */
const BASE = Date.now() - 3_600_000;

/** A view (or another verb) of the session `at` ms after BASE. */
const view = (product_id: number, at: number, verb: BehaviourEvent["verb"] = "viewed"): BehaviourEvent => ({
  at: BASE + at,
  uuid: SESSION,
  customer_id: 7,
  verb,
  product_id,
  theme_id: null,
});

/** Weights summed in another order are equal up to the last bits. */
const rounded = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (_, x: unknown) => (typeof x === "number" ? Number(x.toPrecision(9)) : x));

async function shopWithProducts(dir: string): Promise<Store> {
  const store = await storeWithMerchant(dir);
  await store.catalogue.upsertProducts(
    "shop",
    [1, 2, 3].map((id) => ({ path: `p${id}`, value: normaliseProduct(product(id), `p${id}`, "2026-05-01T00:00:00+00:00") })),
  );
  return store;
}

describe("logged events applied behind the log", () => {
  it("applies each logged event once, in order, in slices, the same as a bulk append", async () => {
    const events = Array.from({ length: 25 }, (_, i) => view((i % 3) + 1, 1_000 + i, i % 5 === 4 ? "added" : "viewed"));
    const sliced = await shopWithProducts(tempDir());
    const logged = sliced.events.logEvents([["shop", events]]);
    expect(logged.firsts.get("shop")).toBe(1);
    await logged.durable;
    sliced.refreshSnapshot();
    expect(sliced.applied.sessionHistory("shop", SESSION)).toBeUndefined();
    expect(sliced.applied.derivedSequence("shop")).toBe(0);
    const applied: number[] = [];
    const lists = new Set<number>();
    for (;;) {
      const slice = sliced.applied.deriveEventsSync("shop", 10);
      if (slice.applied === 0) break;
      applied.push(slice.applied);
      slice.cartProducts.forEach((id) => lists.add(id));
    }
    expect(applied).toEqual([10, 10, 5]);
    expect(lists.size).toBeGreaterThan(0);
    sliced.orders.refreshNeighboursSync("shop", [...lists]);
    expect(sliced.applied.deriveEventsSync("shop", 10).applied).toBe(0);

    const bulk = await shopWithProducts(tempDir());
    await bulk.applied.appendEvents("shop", events);
    expect(sliced.applied.sessionHistory("shop", SESSION)).toEqual(bulk.applied.sessionHistory("shop", SESSION));
    expect(sliced.applied.customerHistory("shop", 7)).toEqual(bulk.applied.customerHistory("shop", 7));
    expect(sliced.applied.dailyAdds.sumByProduct("shop", 0, 10)).toEqual(bulk.applied.dailyAdds.sumByProduct("shop", 0, 10));
    for (const id of [1, 2, 3])
      expect(sliced.orders.copurchaseNeighbours("shop", id)).toEqual(bulk.orders.copurchaseNeighbours("shop", id));
    expect(sliced.applied.sessionHistory("shop", SESSION)?.products).toEqual(events.map((e) => e.product_id));
    await Promise.all([sliced.close(), bulk.close()]);
  });

  it("keeps each session's history its own when slices touch many, past the kept length, and folds their carts in at a refresh", async () => {
    const sessions = [
      "0b7c2a4e-1d3f-4a5b-9c6d-7e8f9a0b1c2d",
      "1c8d3b5f-2e4a-4b6c-8d7e-8f9a0b1c2d3e",
      "2d9e4c6a-3f5b-4c7d-9e8f-9a0b1c2d3e4f",
    ];
    const events = Array.from({ length: 3 * 230 }, (_, i): BehaviourEvent => {
      const verb = i % 7 === 6 ? "added" : "viewed";
      return {
        at: BASE + 1_000 + i,
        uuid: sessions[i % 3]!,
        customer_id: i % 2 === 0 ? 7 : null,
        verb,
        product_id: (Math.floor(i / 3) % 3) + 1,
        theme_id: null,
      };
    });
    const sliced = await shopWithProducts(tempDir());
    await sliced.events.logEvents([["shop", events]]).durable;
    sliced.refreshSnapshot();
    const lists = new Set<number>();
    for (let slice = sliced.applied.deriveEventsSync("shop", 37); slice.applied > 0; slice = sliced.applied.deriveEventsSync("shop", 37)) {
      slice.cartProducts.forEach((id) => lists.add(id));
    }
    const bulk = await shopWithProducts(tempDir());
    await bulk.applied.appendEvents("shop", events);
    for (const uuid of sessions) {
      const own = events.filter((event) => event.uuid === uuid).slice(-HISTORY_LIMIT);
      expect(sliced.applied.sessionHistory("shop", uuid)?.ats).toEqual(own.map((event) => event.at));
      expect(sliced.applied.sessionHistory("shop", uuid)).toEqual(bulk.applied.sessionHistory("shop", uuid));
    }
    expect(sliced.applied.customerHistory("shop", 7)).toEqual(bulk.applied.customerHistory("shop", 7));
    // The carts wait, logged, for the refresh that folds them into the counts.
    expect(sliced.orders.copurchaseCounts("shop", 1).item).toBeUndefined();
    sliced.orders.refreshNeighboursSync("shop", [...lists]);
    // Summed in another order: equal up to the last bits.
    for (const id of [1, 2, 3]) {
      expect(rounded(sliced.orders.copurchaseCounts("shop", id))).toEqual(rounded(bulk.orders.copurchaseCounts("shop", id)));
      expect(rounded(sliced.orders.copurchaseNeighbours("shop", id))).toEqual(rounded(bulk.orders.copurchaseNeighbours("shop", id)));
    }
    expect(sliced.orders.copurchaseNeighbours("shop", 1)?.ids.length).toBeGreaterThan(0);
    await Promise.all([sliced.close(), bulk.close()]);
  });

  it("counts carts that wait for a refresh with the orders that arrive meanwhile, and across a restart", async () => {
    const sessions = ["0b7c2a4e-1d3f-4a5b-9c6d-7e8f9a0b1c2d", "1c8d3b5f-2e4a-4b6c-8d7e-8f9a0b1c2d3e"];
    const events = Array.from({ length: 40 }, (_, i): BehaviourEvent => {
      return {
        at: BASE + 1_000 + i,
        uuid: sessions[i % 2]!,
        customer_id: null,
        verb: i % 3 === 0 ? "viewed" : "added",
        product_id: (i % 3) + 1,
        theme_id: null,
      };
    });
    const order = {
      id: 1,
      created_at: "2026-05-02T00:00:00+00:00",
      customer_id: null,
      cancelled_at: null,
      line_items: [1, 3].map((id) => ({ product_id: id, variant_id: null, quantity: 1, price: "1.00" })),
    };
    const dir = tempDir();
    const sliced = await shopWithProducts(dir);
    await sliced.events.logEvents([["shop", events]]).durable;
    sliced.refreshSnapshot();
    for (let i = 0; i < 3; i++) sliced.applied.deriveEventsSync("shop", 5);
    // Carts of 15 events wait; the order's transaction counts them too.
    expect(sliced.orders.copurchaseCounts("shop", 2).item).toBeUndefined();
    await sliced.orders.upsertOrders("shop", [{ path: "o", value: order }]);
    expect(sliced.orders.copurchaseCounts("shop", 2).item?.count).toBeGreaterThan(0);
    while (sliced.applied.deriveEventsSync("shop", 5).applied > 0);
    // The rest wait across a restart.
    await sliced.close();
    const reopened = Store.open(dir);
    reopened.orders.refreshNeighboursSync("shop", reopened.orders.staleListProducts("shop"));
    expect(reopened.orders.staleListProducts("shop")).toEqual([]);

    const bulk = await shopWithProducts(tempDir());
    await bulk.applied.appendEvents("shop", events);
    await bulk.orders.upsertOrders("shop", [{ path: "o", value: order }]);
    // Every list recomputed from the final counts in both.
    for (const store of [reopened, bulk]) store.orders.refreshNeighboursSync("shop", [1, 2, 3]);
    for (const id of [1, 2, 3]) {
      expect(rounded(reopened.orders.copurchaseCounts("shop", id))).toEqual(rounded(bulk.orders.copurchaseCounts("shop", id)));
      expect(rounded(reopened.orders.copurchaseNeighbours("shop", id))).toEqual(rounded(bulk.orders.copurchaseNeighbours("shop", id)));
    }
    expect(reopened.orders.copurchaseCounts("shop", 2).item?.count).toBeGreaterThan(0);
    await Promise.all([reopened.close(), bulk.close()]);
  });

  it("a bulk append applies events the service logged before it, keeping their order", async () => {
    const store = await shopWithProducts(tempDir());
    await store.events.logEvents([["shop", [view(1, 1_000), view(2, 1_001)]]]).durable;
    await store.applied.appendEvents("shop", [view(3, 1_002)]);
    expect(store.applied.derivedSequence("shop")).toBe(3);
    expect(store.applied.sessionHistory("shop", SESSION)?.products).toEqual([1, 2, 3]);
    await store.close();
  });

  it("a viewed task adds the events it carries above the stored watermark, and only those", async () => {
    const store = await shopWithProducts(tempDir());
    await store.events.logEvents([["shop", [view(1, 1_000), view(2, 1_001)]]]).durable;
    store.refreshSnapshot();
    const pending = {
      session: [
        { sequence: 1, product_id: 1, verb: "viewed" as const, at: BASE + 1_000 },
        { sequence: 2, product_id: 2, verb: "viewed" as const, at: BASE + 1_001 },
      ],
      customer: [],
    };
    const subject = { uuid: SESSION, customerId: null, verb: "viewed" as const };
    expect(historyOf(store, "shop", subject, pending).products).toEqual([1, 2]);
    // Applied meanwhile: the task's copy of the pending events must not count them twice.
    store.applied.deriveEventsSync("shop", 1);
    expect(historyOf(store, "shop", subject, pending).products).toEqual([1, 2]);
    store.applied.deriveEventsSync("shop", 10);
    expect(historyOf(store, "shop", subject, pending).products).toEqual([1, 2]);
    await store.close();
  });

  it("the applier thread applies, at start, what an earlier run logged but did not apply", async () => {
    const dir = tempDir();
    const store = await shopWithProducts(dir);
    await store.events.logEvents([["shop", [view(2, 1_000), view(3, 1_001), view(1, 1_002)]]]).durable;
    const writer = new EventWriter(store.events, applierThread(dir), () => store.refreshSnapshot());
    expect(await writer.started()).toBe(3);
    store.refreshSnapshot();
    expect(store.applied.sessionHistory("shop", SESSION)?.products).toEqual([2, 3, 1]);

    // Then it logs, acknowledges with the events pending, and applies them behind.
    await writer.append("shop", view(3, 1_003));
    expect(
      writer.pendingFor("shop", { uuid: SESSION, customerId: null, verb: "viewed" }).session.map((v) => [v.sequence, v.product_id]),
    ).toEqual([[4, 3]]);
    await writer.close();
    store.refreshSnapshot();
    expect(store.applied.sessionHistory("shop", SESSION)?.products).toEqual([2, 3, 1, 3]);
    await store.close();
  });

  it("starts the applier again if it dies, and applies what was logged meanwhile", async () => {
    const dir = tempDir();
    const store = await shopWithProducts(dir);
    const restarts: string[] = [];
    const writer = new EventWriter(
      store.events,
      applierThread(dir),
      () => store.refreshSnapshot(),
      (thread) => restarts.push(thread),
    );
    await writer.started();
    await writer.append("shop", view(1, 1_000));
    // Killed while idle: its first look at the rankings (at start) has stored them, and the
    // event is applied and followed by the session index (their transactions come right after
    // the start's). A thread killed inside a write transaction would leave LMDB's write lock
    // held for good.
    await eventually(() => {
      store.refreshSnapshot();
      expect(store.rankings.state("shop")).toBeDefined();
      expect(store.applied.sessionHistory("shop", SESSION)?.products).toEqual([1]);
      expect(store.applied.sessionIndexBehind("shop")).toBe(false);
    });
    // What a crash of the thread looks like from outside: it exits.
    const { applier } = writer as unknown as Record<"applier", { worker: { terminate(): Promise<number> } }>;
    await applier.worker.terminate();
    // Logged while no applier runs: its successor applies it at its start.
    await writer.append("shop", view(2, 1_001));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(restarts).toEqual(["workers/event-applier-entry.js"]);
    await writer.append("shop", view(3, 1_002));
    await writer.close();
    store.refreshSnapshot();
    expect(store.applied.sessionHistory("shop", SESSION)?.products).toEqual([1, 2, 3]);
    expect(store.events.eventSequence("shop")).toBe(3);
    await store.close();
  });

  it("applies a quiet merchant's events within about half a second while another keeps sending", async () => {
    const dir = tempDir();
    const store = await shopWithProducts(dir);
    await store.catalogue.createMerchant(storedMerchant("busy"));
    const writer = new EventWriter(store.events, applierThread(dir), () => store.refreshSnapshot());
    await writer.started();
    await writer.append("shop", view(1, 1_000));
    const appliedWhileBusy: boolean[] = [];
    for (let i = 0; i < 60; i++) {
      await writer.append("busy", { ...view(1, 2_000 + i), uuid: null, customer_id: 1 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      store.refreshSnapshot();
      appliedWhileBusy.push(store.applied.derivedSequence("shop") === 1);
    }
    // The busy merchant never went quiet for 50 ms, yet the other's event was applied on the way.
    expect(appliedWhileBusy.at(-1)).toBe(true);
    expect(appliedWhileBusy.indexOf(true)).toBeLessThan(45);
    await writer.close();
    await store.close();
  });

  it("keeps applying under a steady stream of add-to-carts, though their bought-together lists wait for a refresh round", async () => {
    const dir = tempDir();
    const store = await shopWithProducts(dir);
    const writer = new EventWriter(store.events, applierThread(dir), () => store.refreshSnapshot());
    await writer.started();
    // Never quiet for 50 ms, so lists the carts leave stale wait for a round (at most every 10 s),
    // while the events themselves must be applied within about MAX_WAIT_MS.
    const lag: number[] = [];
    let listsWaited = false;
    for (let i = 0; i < 150; i++) {
      // A new cart every two adds: each pair changes two products' lists.
      const uuid = `${SESSION.slice(0, -4)}${String(Math.floor(i / 2)).padStart(4, "0")}`;
      await writer.append("shop", { ...view((i % 3) + 1, 1_000 + i, "added"), uuid });
      await new Promise((resolve) => setTimeout(resolve, 20));
      store.refreshSnapshot();
      lag.push(store.events.eventSequence("shop") - store.applied.derivedSequence("shop"));
      listsWaited ||= store.orders.staleListProducts("shop").length > 0;
    }
    // Over the last 100 adds (2 s or more), the applier was never more than about a second behind.
    expect(Math.max(...lag.slice(-100))).toBeLessThan(50);
    // The case this is about arose: applied carts left lists stale, waiting for a round. (Seen along the way, not
    // required at the end: a slow flush can leave a 50 ms gap in the stream, which counts as quiet and starts a round.)
    expect(listsWaited).toBe(true);
    await writer.close();
    await store.close();
  });

  it.runIf(process.platform === "linux")("runs the applier at the process's priority: niced, it fell behind a sustained load", async () => {
    const dir = tempDir();
    const store = await shopWithProducts(dir);
    const before = threadsAtNice(BACKGROUND_NICE);
    const writer = new EventWriter(store.events, applierThread(dir));
    await writer.started();
    expect(threadsAtNice(BACKGROUND_NICE)).toEqual(before);
    await writer.close();
    await store.close();
  });
});
