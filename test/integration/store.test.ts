import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { open } from "lmdb";
import { describe, expect, it } from "vitest";
import { normaliseProduct } from "../../src/core/ingest/product.js";
import { appendEncoded } from "../../src/core/recs/history-codec.js";
import { normaliseMarket } from "../../src/core/ingest/records.js";
import { Store } from "../../src/stores/store.js";
import { StoreFormatError } from "../../src/stores/store-format.js";
import { product } from "../helpers/fixtures.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const NOW = "2026-05-01T00:00:00+00:00";
const tempDir = tempDirs("aisle-store-");

const located = (id: number, overrides: Record<string, unknown> = {}) => ({
  path: `products[${id}]`,
  value: normaliseProduct(product(id, overrides), `products[${id}]`, NOW),
});

describe("Store (real LMDB)", () => {
  it("keeps merchants apart even when one id is a prefix of another", async () => {
    const store = Store.open(tempDir());
    await store.catalogue.upsertProducts("shop", [located(1), located(2)]);
    await store.catalogue.upsertProducts("shop2", [located(3)]);
    await store.catalogue.upsertMarkets("shop2", [
      { path: "m", value: normaliseMarket({ id: 1, name: "x", countries: ["CA"], currency: "CAD" }, "m") },
    ]);
    expect(store.catalogue.productIds("shop")).toEqual([1, 2]);
    expect(store.catalogue.productIds("shop2")).toEqual([3]);
    expect(store.catalogue.marketsOf("shop")).toEqual([]);
    expect(store.catalogue.countOf("shop", "products")).toBe(2);
    expect(store.catalogue.product("shop", 3)).toBeUndefined();
    await store.close();
  });

  it("bumps the catalogue version on every catalogue write only", async () => {
    const store = Store.open(tempDir());
    expect(store.version("s", "catalogue")).toBe(0);
    await store.catalogue.upsertProducts("s", [located(1)]);
    await store.catalogue.upsertProducts("s", [located(1, { title: "Again" })]);
    expect(store.version("s", "catalogue")).toBe(2);
    await store.orders.upsertOrders("s", [
      { path: "o", value: { id: 1, created_at: NOW, customer_id: 5, line_items: [], cancelled_at: null } },
    ]);
    expect(store.version("s", "catalogue")).toBe(2);
    expect(store.version("s", "orders")).toBe(1);
    await store.close();
  });

  it("keeps the handle, variant and SKU indexes in step with upserts and deletes", async () => {
    const store = Store.open(tempDir());
    await store.catalogue.upsertProducts("s", [located(1, { metafields: [{ id: 5, namespace: "a", key: "b", value: "c" }] })]);
    expect(store.catalogue.metafields("s", "product", 1)).toHaveLength(1);
    await store.catalogue.upsertProducts("s", [located(1, { handle: "new-handle" })]);
    expect(store.catalogue.productIdByHandle("s", "product-1")).toBeUndefined();
    expect(store.catalogue.metafields("s", "product", 1)).toEqual([]);
    expect(await store.catalogue.deleteProduct("s", 1)).toBe(true);
    expect(store.catalogue.productIdByHandle("s", "new-handle")).toBeUndefined();
    expect(store.catalogue.productIdByVariant("s", 11)).toBeUndefined();
    expect(store.catalogue.variantIdBySku("s", "SKU-11")).toBeUndefined();
    expect(await store.catalogue.deleteProduct("s", 1)).toBe(false);
    await store.close();
  });

  it("refuses a data dir written in another store format", async () => {
    const dir = tempDir();
    const store = Store.open(dir);
    await store.close();
    const raw = open({ path: join(dir, "aisle.lmdb"), maxDbs: 32 });
    const meta = raw.openDB({ name: "meta", encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") });
    await meta.put("format_version", 999);
    await raw.close();
    expect(() => Store.open(dir)).toThrow(StoreFormatError);
  });

  it("migrates a format-2 data dir: msgpack histories become binary ones, nothing lost", async () => {
    const dir = tempDir();
    const raw = open({ path: join(dir, "aisle.lmdb"), maxDbs: 32 });
    const shared = { encoding: "msgpack" as const, sharedStructuresKey: Symbol.for("structures") };
    await raw.openDB({ name: "meta", ...shared }).put("format_version", 2);
    const session = { products: [11, 12, 11], verbs: ["viewed", "added", "viewed"], ats: [1_000, 2_000, 3_000] };
    const customer = { products: [7], verbs: ["removed"], ats: [4_000] };
    const histories = raw.openDB({ name: "histories", ...shared });
    await histories.put(["shop", "session", "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e"], session);
    await histories.put(["shop", "customer", 42], customer);
    await raw.close();

    const store = Store.open(dir);
    expect(store.applied.sessionHistory("shop", "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e")).toEqual(session);
    expect(store.applied.customerHistory("shop", 42)).toEqual(customer);
    await store.close();
    // Migrated once: the next open finds the current format.
    const again = Store.open(dir);
    expect(again.applied.customerHistory("shop", 42)).toEqual(customer);
    await again.close();
  });

  it("migrates a format-3 data dir: the event log moves to its own environment, its events counted as applied", async () => {
    const dir = tempDir();
    const raw = open({ path: join(dir, "aisle.lmdb"), maxDbs: 32 });
    const shared = { encoding: "msgpack" as const, sharedStructuresKey: Symbol.for("structures") };
    const meta = raw.openDB({ name: "meta", ...shared });
    const uuid = "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e";
    const logged = [1, 2].map((n) => ({ at: 1_000 + n, uuid, customer_id: null, verb: "viewed", product_id: 10 + n, theme_id: null }));
    await meta.put("format_version", 3);
    await meta.put("event_sequence:shop", 2);
    const events = raw.openDB({ name: "events", ...shared });
    await Promise.all(logged.map((event, i) => events.put(["shop", i + 1], event)));
    await raw.openDB({ name: "session_merchants", ...shared }).put(uuid, "shop");
    await raw.close();

    const store = Store.open(dir);
    expect([...store.events.eventsSince("shop", 0)]).toEqual(logged.map((event, i) => ({ sequence: i + 1, event })));
    expect(store.events.eventSequence("shop")).toBe(2);
    expect(store.applied.derivedSequence("shop")).toBe(2);
    expect(store.events.merchantsOfSession(uuid)).toEqual(["shop"]);
    // Appending goes on from the moved counter.
    await store.applied.appendEvents("shop", [{ ...logged[0]!, at: 2_000 } as never]);
    expect(store.events.eventSequence("shop")).toBe(3);
    await store.close();
  });

  it("reads a format-4 log's events logged one by one, then the records logged since, from any sequence", async () => {
    const dir = tempDir();
    await Store.open(dir).close();
    const shared = { encoding: "msgpack" as const, sharedStructuresKey: Symbol.for("structures") };
    const uuid = "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e";
    const view = (n: number) => ({ at: 1_000 + n, uuid, customer_id: null, verb: "viewed" as const, product_id: n, theme_id: null });
    const main = open({ path: join(dir, "aisle.lmdb"), maxDbs: 64 });
    await main.openDB({ name: "meta", ...shared }).put("format_version", 4);
    await main.close();
    const log = open({ path: join(dir, "events.lmdb"), maxDbs: 8 });
    const oneByOne = log.openDB({ name: "events", ...shared });
    await Promise.all([1, 2].map((n) => oneByOne.put(["shop", n], view(n))));
    await log.openDB({ name: "log_meta", ...shared }).put("event_sequence:shop", 2);
    await log.close();

    const store = Store.open(dir);
    // A bulk append of 2,500 events (records of 1,000), then two commits of the service's.
    await store.applied.appendEvents(
      "shop",
      Array.from({ length: 2_500 }, (_, i) => view(3 + i)),
    );
    await store.events.logEvents([["shop", [view(2_503), view(2_504), view(2_505)]]]).durable;
    await store.events.logEvents([
      ["other", [view(1)]],
      ["shop", [view(2_506)]],
    ]).durable;
    const sequences = (after: number) =>
      [...store.events.eventsSince("shop", after)].map(({ sequence, event }) => (expect(event.product_id).toBe(sequence), sequence));
    const from = (first: number) => Array.from({ length: 2_506 - first + 1 }, (_, i) => first + i);
    for (const after of [0, 1, 2, 3, 1_002, 1_003, 2_501, 2_503, 2_504, 2_505]) expect(sequences(after)).toEqual(from(after + 1));
    expect(sequences(2_506)).toEqual([]);
    expect([...store.events.eventsSince("other", 0)].map(({ sequence }) => sequence)).toEqual([1]);
    // Merchants whose ids are prefixes of each other read only their own records.
    await store.events.logEvents([
      ["sho", [view(1), view(2)]],
      ["shop2", [view(1)]],
    ]).durable;
    expect([...store.events.eventsSince("sho", 0)].map(({ sequence }) => sequence)).toEqual([1, 2]);
    expect([...store.events.eventsSince("shop2", 1)]).toEqual([]);
    expect(sequences(2_505)).toEqual([2_506]);
    // appendEvents applied everything logged before it too, in order.
    expect(store.applied.derivedSequence("shop")).toBe(2_502);
    expect(store.applied.sessionHistory("shop", uuid)?.products.slice(-2)).toEqual([2_501, 2_502]);
    await store.close();
  });

  it("reads a format-5 data dir's histories, each stored whole, and appends to them", async () => {
    const dir = tempDir();
    await Store.open(dir).close();
    const uuid = "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e";
    const view = (n: number) => ({ at: 1_000 + n, uuid, customer_id: null, verb: "viewed" as const, product_id: n, theme_id: null });
    const stored = Array.from({ length: 195 }, (_, i) => view(i + 1));
    const main = open({ path: join(dir, "aisle.lmdb"), maxDbs: 64 });
    await main.openDB({ name: "meta", encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") }).put("format_version", 5);
    await main.openDB({ name: "event_histories", encoding: "binary" }).put(["shop", "session", uuid], appendEncoded(undefined, stored));
    await main.close();

    const store = Store.open(dir);
    expect(store.applied.sessionHistory("shop", uuid)?.products).toEqual(stored.map((event) => event.product_id));
    await store.applied.appendEvents("shop", [196, 197, 198].map(view));
    expect(store.applied.sessionHistory("shop", uuid)?.products).toEqual(Array.from({ length: 198 }, (_, i) => i + 1));
    await store.applied.appendEvents(
      "shop",
      Array.from({ length: 40 }, (_, i) => view(199 + i)),
    );
    expect(store.applied.sessionHistory("shop", uuid)?.products).toEqual(Array.from({ length: 200 }, (_, i) => 39 + i));
    await store.close();
  });

  it("skips the numbers of a commit that failed: the record after the gap holds the next events", async () => {
    const dir = tempDir();
    const store = Store.open(dir);
    const view = (n: number) => ({
      at: 1_000 + n,
      uuid: "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e",
      customer_id: null,
      verb: "viewed" as const,
      product_id: n,
      theme_id: null,
    });
    await store.events.logEvents([["shop", [1, 2, 3].map(view)]]).durable;
    await store.close();
    // Numbers 4-6 went to a commit that failed; the next commit logged 7 and 8 (records are keyed by their last sequence).
    const shared = { encoding: "msgpack" as const, sharedStructuresKey: Symbol.for("structures") };
    const log = open({ path: join(dir, "events.lmdb"), maxDbs: 8 });
    await log.openDB({ name: "event_records", ...shared }).put(["shop", 8], [view(7), view(8)]);
    await log.openDB({ name: "log_meta", ...shared }).put("event_sequence:shop", 8);
    await log.close();
    const reopened = Store.open(dir);
    const sequences = (after: number) =>
      [...reopened.events.eventsSince("shop", after)].map(({ sequence, event }) => (expect(event.product_id).toBe(sequence), sequence));
    expect(sequences(0)).toEqual([1, 2, 3, 7, 8]);
    for (const after of [3, 4, 6]) expect(sequences(after)).toEqual([7, 8]);
    expect(sequences(7)).toEqual([8]);
    expect(sequences(8)).toEqual([]);
    await reopened.close();
  });

  it("refuses an event log that belongs to another data dir, or a missing one", async () => {
    const [first, second] = [tempDir(), tempDir()];
    await Promise.all([first, second].map(async (dir) => (await Promise.resolve(Store.open(dir))).close()));
    // events.lmdb of another data dir next to this aisle.lmdb.
    for (const name of ["events.lmdb", "events.lmdb-lock"]) renameSync(join(second, name), join(first, name));
    expect(() => Store.open(first)).toThrow(StoreFormatError);
    // No events.lmdb at all: its counters would start again below the applied watermarks.
    for (const name of ["events.lmdb", "events.lmdb-lock"]) rmSync(join(first, name));
    expect(() => Store.open(first)).toThrow(/missing or belongs to another/);
  });
});
