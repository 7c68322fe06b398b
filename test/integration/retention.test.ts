// Retention of behaviour data: the event log, histories and the session →
// merchant pairs lose what is past AISLE_EVENT_RETENTION_DAYS, and never an
// event the applier has not applied; the applier thread prunes in the
// background.
import { open } from "lmdb";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dayNumber } from "../../src/core/recs/days.js";
import type { BehaviourEvent } from "../../src/core/types.js";
import { EventWriter } from "../../src/ingest/event-writer.js";
import { TAIL_ENTRIES } from "../../src/stores/event-histories.js";
import { retentionCutoff, type Retention } from "../../src/stores/retention.js";
import { Store } from "../../src/stores/store.js";
import { applierThread } from "../helpers/applier-thread.js";
import { eventually } from "../helpers/service.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-retention-");
const DAY_MS = 86_400_000;
const NOW = Date.now();
const RETENTION: Retention = { days: 90, sessionDays: 90, maxSessions: 1_000_000 };
const BEFORE = retentionCutoff(RETENTION.days, NOW);

const view = (uuid: string | null, product: number, at: number, customer: number | null = null): BehaviourEvent => ({
  at,
  uuid,
  customer_id: customer,
  verb: "viewed",
  product_id: product,
  theme_id: null,
});

/** Runs a walk to its end, `limit` entries a transaction, so that walks cross slices. */
function pruneHistories(store: Store, limit: number): void {
  let walk = store.applied.pruneHistoriesSync("shop", BEFORE, null, limit);
  while (walk !== null) walk = store.applied.pruneHistoriesSync("shop", BEFORE, walk, limit);
}

function prunePairs(store: Store, now: number, limit: number): void {
  const before = retentionCutoff(RETENTION.days, now);
  let after = store.events.pruneSessionPairsSync(before, now, null, limit);
  while (after !== null) after = store.events.pruneSessionPairsSync(before, now, after, limit);
}

describe("retention in the store", () => {
  it("prunes the log's records whose events are all past the retention, oldest first", async () => {
    const store = await storeWithMerchant(tempDir());
    // Three bulk appends: three records.
    await store.applied.appendEvents("shop", [view("old-1", 1, NOW - 120 * DAY_MS), view("old-2", 2, NOW - 100 * DAY_MS)]);
    // One event of this record is within the retention: the record stays, and so does every one after it.
    await store.applied.appendEvents("shop", [view("mixed", 3, NOW - 95 * DAY_MS), view("mixed", 4, NOW - 10 * DAY_MS)]);
    await store.applied.appendEvents("shop", [view("old-3", 5, NOW - 200 * DAY_MS)]);
    expect(store.events.pruneEventLogSync("shop", BEFORE, 100)).toBe(1);
    expect([...store.events.eventsSince("shop", 0)].map(({ sequence, event }) => [sequence, event.product_id])).toEqual([
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
    expect(store.events.pruneEventLogSync("shop", BEFORE, 100)).toBe(0);
    await store.close();
  });

  it("never prunes an event the applier has not applied, to the histories and to the session index", async () => {
    const store = await storeWithMerchant(tempDir());
    await store.events.logEvents([["shop", [view("late", 1, NOW - 120 * DAY_MS)]]]).durable;
    expect(store.events.pruneEventLogSync("shop", BEFORE, 100)).toBe(0);
    expect(store.applied.deriveEventsSync("shop", 100).applied).toBe(1);
    // Applied to the histories, not yet taken into the session index: kept for it.
    expect(store.events.pruneEventLogSync("shop", BEFORE, 100)).toBe(0);
    expect(store.applied.followSessionIndexSync("shop", 100)).toBe(true);
    expect(store.events.pruneEventLogSync("shop", BEFORE, 100)).toBe(1);
    expect([...store.events.eventsSince("shop", 0)]).toEqual([]);
    // The history it made goes with a walk.
    expect(store.applied.sessionHistory("shop", "late")).toBeDefined();
    pruneHistories(store, 10);
    expect(store.applied.sessionHistory("shop", "late")).toBeUndefined();
    await store.close();
  });

  it("prunes the histories whose latest event is past the retention, heads, tails and customers alike", async () => {
    const store = await storeWithMerchant(tempDir());
    const old = NOW - 100 * DAY_MS;
    const recent = NOW - DAY_MS;
    // Past a tail's size, a history has a head: an old one, and one whose tail is recent.
    const long = (uuid: string, lastAt: number) =>
      Array.from({ length: TAIL_ENTRIES + 5 }, (_, i) => view(uuid, 1 + i, i === TAIL_ENTRIES + 4 ? lastAt : old + i));
    await store.applied.appendEvents("shop", [
      ...long("old-long", old + 100),
      ...long("revived-long", recent),
      view("old-short", 1, old),
      view("recent-short", 1, recent),
      view(null, 1, old, 7),
      view(null, 2, recent, 8),
    ]);
    pruneHistories(store, 1);
    expect(store.applied.sessionHistory("shop", "old-long")).toBeUndefined();
    expect(store.applied.sessionHistory("shop", "old-short")).toBeUndefined();
    expect(store.applied.customerHistory("shop", 7)).toBeUndefined();
    expect(store.applied.sessionHistory("shop", "revived-long")?.products).toHaveLength(TAIL_ENTRIES + 5);
    expect(store.applied.sessionHistory("shop", "recent-short")?.products).toEqual([1]);
    expect(store.applied.customerHistory("shop", 8)?.products).toEqual([2]);
    await store.close();
  });

  it("keeps a pair per shop for a session two shops log in turn, each at the day that shop last logged it", async () => {
    const dir = tempDir();
    const store = await storeWithMerchant(dir);
    const logView = (merchant: string, at: number) => store.events.logEvents([[merchant, [view("shared", 1, at)]]]).durable;
    await logView("shop", NOW - 2 * DAY_MS);
    // The same day, another shop: a pair of its own.
    await logView("other", NOW - 2 * DAY_MS);
    await logView("shop", NOW - DAY_MS);
    await logView("shop", NOW);
    await logView("other", NOW - 2 * DAY_MS);
    expect(store.events.merchantsOfSession("shared").sort()).toEqual(["other", "shop"]);
    await store.close();

    const log = open({ path: join(dir, "events.lmdb"), maxDbs: 8, readOnly: true });
    const pairs = log.openDB({ name: "session_merchant_pairs", encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") });
    expect([...pairs.getRange({})].map(({ key, value }) => [key, value])).toEqual([
      [["shared", "other"], dayNumber(NOW - 2 * DAY_MS)],
      [["shared", "shop"], dayNumber(NOW)],
    ]);
    await log.close();
  });

  it("prunes a session's pair once its merchant last logged it past the retention, and gives it back when the session returns", async () => {
    const dir = tempDir();
    let store = await storeWithMerchant(dir);
    await store.applied.appendEvents("shop", [view("gone", 1, NOW - 100 * DAY_MS), view("kept", 1, NOW - 80 * DAY_MS)]);
    await store.applied.appendEvents("shop", [view("kept", 2, NOW - DAY_MS)]);
    prunePairs(store, NOW, 1);
    expect(store.events.merchantsOfSession("gone")).toEqual([]);
    expect(store.events.merchantsOfSession("kept")).toEqual(["shop"]);
    // The session comes back: logged again, it has its pair again.
    await store.events.logEvents([["shop", [view("gone", 3, NOW)]]]).durable;
    expect(store.events.merchantsOfSession("gone")).toEqual(["shop"]);
    await store.close();

    // A pair written before retention existed starts its retention at the first pass.
    const log = open({ path: join(dir, "events.lmdb"), maxDbs: 8 });
    await log
      .openDB({ name: "session_merchant_pairs", encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") })
      .put(["legacy", "shop"], true);
    await log.close();
    store = Store.open(dir);
    prunePairs(store, NOW, 100);
    expect(store.events.merchantsOfSession("legacy")).toEqual(["shop"]);
    prunePairs(store, NOW + 91 * DAY_MS, 100);
    expect(store.events.merchantsOfSession("legacy")).toEqual([]);
    expect(store.events.merchantsOfSession("gone")).toEqual([]);
    await store.close();
  });
});

describe("the applier thread and the retention", () => {
  it("prunes the log, histories and pairs in the background, and keeps what is within the retention", async () => {
    const dir = tempDir();
    const store = await storeWithMerchant(dir);
    await store.applied.appendEvents("shop", [view("old", 1, NOW - 100 * DAY_MS, 7)]);
    await store.applied.appendEvents("shop", [view("new", 2, NOW - DAY_MS)]);
    const writer = new EventWriter(store.events, applierThread(dir, { retention: RETENTION }));
    await writer.started();
    await eventually(() => {
      store.refreshSnapshot();
      expect([...store.events.eventsSince("shop", 0)].map(({ event }) => event.uuid)).toEqual(["new"]);
      expect(store.applied.sessionHistory("shop", "old")).toBeUndefined();
      expect(store.applied.customerHistory("shop", 7)).toBeUndefined();
      expect(store.events.merchantsOfSession("old")).toEqual([]);
      // The next full walk is kept in the data dir, an hour on: a restart before then does not walk again.
      expect(store.applied.fullWalkDueAt()).toBeGreaterThan(Date.now() + 50 * 60_000);
    }, 20_000);
    expect(store.applied.sessionHistory("shop", "new")?.products).toEqual([2]);
    expect(store.events.merchantsOfSession("new")).toEqual(["shop"]);
    await writer.close();
    await store.close();
  });
});
