// The applier thread's part in the session index: it builds the index of a data
// dir that lacks it from the event log, and prunes it in the background.
import { open } from "lmdb";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BehaviourEvent } from "../../src/core/types.js";
import { EventWriter } from "../../src/ingest/event-writer.js";
import { relatedToViews } from "../../src/recs/related-to-views.js";
import type { Retention } from "../../src/stores/retention.js";
import { Store } from "../../src/stores/store.js";
import { eventually } from "../helpers/service.js";
import { dumpDataDir, KEYED_TABLES } from "../helpers/session-index.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";
import { applierThread } from "../helpers/applier-thread.js";

const tempDir = tempDirs("aisle-session-index-build-");

/** A retention nothing here reaches. */
const KEEP_ALL: Retention = { days: 3_650, sessionDays: 3_650, maxSessions: 1_000_000 };
const HOUR_MS = 3_600_000;

/** `count` views of sessions `s<first>` on, each viewing three of 40 products, starting at `at`. */
function sessions(first: number, count: number, at: number): BehaviourEvent[] {
  return Array.from({ length: count }, (_, i) =>
    [0, 1, 2].map((v) => ({
      at: at + i * 1_000 + v,
      uuid: `s${first + i}`,
      customer_id: null,
      verb: "viewed" as const,
      product_id: 1 + ((7 * (first + i) + 11 * v) % 40),
      theme_id: null,
    })),
  ).flat();
}

/** The index as layout 1 left it: marked built at layout 1, with no watermark of its own. */
async function asLayoutOne(dataDir: string, merchant: string): Promise<void> {
  const root = open({ path: join(dataDir, "aisle.lmdb"), maxDbs: 64 });
  const meta = root.openDB<unknown, string>({ name: "meta", encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") });
  const watermarks = root.openDB<number, string>({
    name: "session_index_through",
    encoding: "msgpack",
    sharedStructuresKey: Symbol.for("structures"),
  });
  await root.transaction(() => {
    meta.put(`derived_built:session_index:${merchant}`, 1);
    watermarks.remove(merchant);
  });
  await root.close();
}

/** The data dir as an older build left it: events, histories, no session index and no mark of one. */
async function withoutIndex(dataDir: string, merchant: string): Promise<void> {
  const root = open({ path: join(dataDir, "aisle.lmdb"), maxDbs: 64 });
  const meta = root.openDB<unknown, string>({ name: "meta", encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") });
  root.transactionSync(() => {
    meta.remove(`derived_built:session_index:${merchant}`);
    root.openDB({ name: "session_index_heads", encoding: "binary" }).remove(merchant);
    for (const name of KEYED_TABLES) {
      const db = root.openDB<unknown, (string | number)[]>({ name, encoding: "binary" });
      for (const key of [...db.getKeys({ start: [merchant], end: [merchant, "\uffff"] })]) db.remove(key);
    }
  });
  await root.close();
}

const PREFIXES = [[1], [2, 9], [3, 17, 25]];
const answers = (store: Store) => Promise.all(PREFIXES.map(async (prefix) => [...(await relatedToViews(store, "shop", prefix, "s7"))]));

describe("the applier thread and the session index", () => {
  it("builds the index of a data dir that lacks it from the event log: the same bytes and answers as an index kept live", async () => {
    const dir = tempDir();
    let store = await storeWithMerchant(dir);
    const log = sessions(0, 3_000, Date.now() - HOUR_MS);
    for (let start = 0; start < log.length; start += 2_500) await store.applied.appendEvents("shop", log.slice(start, start + 2_500));
    const live = await answers(store);
    expect(live.every((answer) => answer.length > 0)).toBe(true);
    await store.close();
    const kept = await dumpDataDir(dir, "shop");
    await withoutIndex(dir, "shop");

    store = Store.open(dir);
    expect(store.pendingBuilds().map(({ build, merchant }) => [build.name, merchant])).toEqual([["session_index", "shop"]]);
    expect((await answers(store)).every((answer) => answer.length === 0)).toBe(true);
    const writer = new EventWriter(store.events, applierThread(dir, { retention: KEEP_ALL }));
    await writer.started();
    // Built in slices of the log (9,000 events: nine), then the service counts as ready.
    await eventually(() => expect(writer.waitingFor).toEqual([]), 30_000);
    await writer.close();
    store.refreshSnapshot();
    expect(store.pendingBuilds()).toEqual([]);
    expect(await answers(store)).toEqual(live);
    await store.close();
    expect(await dumpDataDir(dir, "shop")).toEqual(kept);
  });

  it("takes an index of layout 1 (written with the histories, no watermark of its own) as it is: no rebuild, watermark at the applied log", async () => {
    const dir = tempDir();
    let store = await storeWithMerchant(dir);
    await store.applied.appendEvents("shop", sessions(0, 500, Date.now() - HOUR_MS));
    const live = await answers(store);
    await store.close();
    const kept = await dumpDataDir(dir, "shop");
    await asLayoutOne(dir, "shop");

    store = Store.open(dir);
    expect(store.pendingBuilds().map(({ build }) => build.name)).toEqual(["session_index"]);
    expect(store.buildStepSync(store.pendingBuilds()[0]!.build, "shop")).toBe(true);
    expect(store.applied.sessionIndexBehind("shop")).toBe(false);
    expect(await answers(store)).toEqual(live);
    await store.close();
    expect(await dumpDataDir(dir, "shop")).toEqual(kept);
  });

  it("prunes sessions past their retention in the background, a slice per transaction", async () => {
    const dir = tempDir();
    const store = await storeWithMerchant(dir);
    // 200 sessions that began 100 days ago, then 1,000 of the last hour.
    await store.applied.appendEvents("shop", [
      ...sessions(0, 200, Date.now() - 100 * 24 * HOUR_MS),
      ...sessions(200, 1_000, Date.now() - HOUR_MS),
    ]);
    const writer = new EventWriter(store.events, applierThread(dir, { retention: { days: 3_650, sessionDays: 90, maxSessions: 600 } }));
    await writer.started();
    await eventually(() => {
      store.refreshSnapshot();
      expect(store.sessionIndex.head("shop")?.live).toBe(600);
    }, 30_000);
    expect(store.sessionIndex.numberOf("shop", "s599")).toBeUndefined();
    expect(store.sessionIndex.numberOf("shop", "s600")).toBe(600);
    await writer.close();
    await store.close();
  });
});
