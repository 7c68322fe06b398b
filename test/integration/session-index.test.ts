// viewed-related's session index in LMDB: what the applier writes batch by
// batch equals a rebuild from the log byte for byte, answers as session kNN
// over every session of the log, and prunes to its retention.
import fc from "fast-check";
import { open, type RootDatabase } from "lmdb";
import { describe, expect, it } from "vitest";
import { decodeSession, encodeHead } from "../../src/core/recs/session-index-codec.js";
import { DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN, SessionKnn } from "../../src/core/recs/session-knn.js";
import type { BehaviourEvent } from "../../src/core/types.js";
import { MAX_SESSION_VIEWS, SESSIONS_KEPT_PER_ITEM, SessionIndex } from "../../src/stores/session-index.js";
import { referenceQuery } from "../helpers/session-knn-reference.js";
import { buildIndex, dumpSessionIndex, logOf } from "../helpers/session-index.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-session-index-");

/** Product ids past 2³² (as real ones are); HOT is viewed by more sessions than an item keeps. */
const BIG = 7_100_000_000_000;
const HOT = BIG + 99;
const DAY_MS = 86_400_000;

/**
 * A log as live traffic sends it, from a seed: sessions of 1-6 views
 * interleaved, one of them longer than the index keeps, a hot product that
 * most sessions view, with add-to-carts and views without a session among
 * them (the index takes neither).
 */
function trafficLog(seed: number, sessions: number, products: number): BehaviourEvent[] {
  let state = seed | 0;
  const random = (below: number) => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) | 0;
    return (state >>> 8) % below;
  };
  const lengths = Array.from({ length: sessions }, (_, s) => (s === 1 ? MAX_SESSION_VIEWS + 10 : 1 + random(6)));
  const turns = lengths.flatMap((length, s) => Array.from({ length }, () => s));
  for (let i = turns.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [turns[i], turns[j]] = [turns[j]!, turns[i]!];
  }
  return turns.map((s, i) => ({
    at: Date.UTC(2026, 0, 1) + i * 60_000,
    uuid: random(25) === 0 ? null : `session-${s}`,
    customer_id: null,
    verb: random(15) === 0 ? "added" : "viewed",
    product_id: random(3) === 0 ? HOT : BIG + random(products),
    theme_id: null,
  }));
}

/** The log's views as the reference query takes them. */
const viewsOf = (log: readonly BehaviourEvent[]) =>
  log.filter((event) => event.verb === "viewed" && event.uuid !== null).map((event) => ({ session: event.uuid!, item: event.product_id }));

function environment(): RootDatabase {
  return open({ path: tempDir(), maxDbs: 16 });
}

/** Applies the log to the merchant's index in batches cut at `cuts` (event positions), a transaction each. */
function applyInBatches(root: RootDatabase, index: SessionIndex, merchant: string, log: readonly BehaviourEvent[], cuts: number[]): void {
  const bounds = [...new Set([0, ...cuts.map((cut) => cut % (log.length + 1)), log.length])].sort((a, b) => a - b);
  for (let b = 1; b < bounds.length; b++) root.transactionSync(() => index.apply(merchant, log.slice(bounds[b - 1], bounds[b])));
}

describe("the session index in LMDB", () => {
  it("written in any batches equals a rebuild from the log byte for byte, and answers as kNN over every session of the log", async () => {
    const root = environment();
    const knn = new SessionKnn();
    let run = 0;
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 1, max: 1_300 }),
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (seed, sessions, products, cuts) => {
          const log = trafficLog(seed, sessions, products);
          const [live, rebuilt] = [`live-${run}`, `rebuilt-${run++}`];
          const index = new SessionIndex(root);
          applyInBatches(root, index, live, log, cuts);
          buildIndex(root, rebuilt, logOf(log));
          expect(dumpSessionIndex(root, live)).toEqual(dumpSessionIndex(root, rebuilt));

          const views = viewsOf(log);
          const source = index.source(live);
          if (source === null) return void expect(views).toEqual([]);
          for (const prefix of [[HOT], [BIG + 1, HOT], [BIG + 2, BIG + 3, BIG + 404, BIG + 2]]) {
            for (const config of [DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN]) {
              const self = "session-0";
              const answer = knn.query(source, prefix, config, index.numberOf(live, self));
              expect([...answer]).toEqual([...referenceQuery(views, prefix, config, self, MAX_SESSION_VIEWS)]);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
    await root.close();
  });

  it("keeps each product's most recent sessions and its exact viewer count", async () => {
    const root = environment();
    const index = new SessionIndex(root);
    // More viewers of HOT than an item keeps, in batches of 100.
    const log = Array.from({ length: SESSIONS_KEPT_PER_ITEM + 250 }, (_, s) => ({
      at: Date.UTC(2026, 0, 1) + s,
      uuid: `s${s}`,
      customer_id: null,
      verb: "viewed" as const,
      product_id: HOT,
      theme_id: null,
    }));
    applyInBatches(
      root,
      index,
      "shop",
      log,
      Array.from({ length: 12 }, (_, b) => b * 100),
    );
    expect(index.source("shop")!.sessionCountWith(HOT)).toBe(SESSIONS_KEPT_PER_ITEM + 250);
    const recent = [...index.source("shop")!.recentSessionsWith(HOT)!];
    expect(recent.length).toBeGreaterThanOrEqual(SESSIONS_KEPT_PER_ITEM);
    expect(recent).toEqual(Array.from({ length: recent.length }, (_, i) => SESSIONS_KEPT_PER_ITEM + 250 - recent.length + i));
    await root.close();
  });

  it("refuses to number a session past 2³¹, the most an item's list can hold, instead of storing it wrongly", async () => {
    const root = environment();
    const index = new SessionIndex(root);
    const view = (uuid: string): BehaviourEvent => ({ at: 1, uuid, customer_id: null, verb: "viewed", product_id: 1, theme_id: null });
    root.transactionSync(() => index.apply("shop", [view("first")]));
    const heads = root.openDB<Uint8Array, string>({ name: "session_index_heads", encoding: "binary" });
    root.transactionSync(() => {
      heads.put("shop", encodeHead({ next: 2 ** 31, live: 1, views: 1 }));
    });
    // A known session still takes views.
    root.transactionSync(() => index.apply("shop", [view("first")]));
    expect(() => root.transactionSync(() => index.apply("shop", [view("second")]))).toThrow(RangeError);
    await root.close();
  });
});

describe("pruning the session index", () => {
  /** 40 sessions, session s starting on day s of 2026 and viewing products s % 7 and 100 + s % 3. */
  const agedLog = (): BehaviourEvent[] =>
    Array.from({ length: 40 }, (_, s) =>
      [s % 7, 100 + (s % 3)].map((product, v) => ({
        at: Date.UTC(2026, 0, 1) + s * DAY_MS + v * 60_000,
        uuid: `s${s}`,
        customer_id: null,
        verb: "viewed" as const,
        product_id: product,
        theme_id: null,
      })),
    ).flat();

  /** Each session's views and each product's viewers and recent sessions, by uuid (arrival numbers differ between indexes). */
  function contents(root: RootDatabase, index: SessionIndex, merchant: string) {
    const sessions = root.openDB<Uint8Array, (string | number)[]>({ name: "session_index_sessions", encoding: "binary" });
    const uuids = new Map<number, string>();
    const views: Record<string, number[]> = {};
    for (const { key, value } of sessions.getRange({ start: [merchant], end: [merchant, "\uffff"] })) {
      const session = decodeSession(value);
      uuids.set(key[1] as number, session.uuid);
      views[session.uuid] = [...session.views];
    }
    const source = index.source(merchant);
    const products: Record<number, { viewers: number; recent: string[] }> = {};
    for (const product of [0, 1, 2, 3, 4, 5, 6, 100, 101, 102]) {
      const recent = source?.recentSessionsWith(product);
      if (recent) products[product] = { viewers: source!.sessionCountWith(product), recent: [...recent].map((n) => uuids.get(n)!) };
    }
    return { live: index.head(merchant)?.live ?? 0, views, products };
  }

  it("prunes the oldest sessions past the cap and those begun before the retention, as if they had never been", async () => {
    const root = environment();
    const index = new SessionIndex(root);
    const log = agedLog();
    root.transactionSync(() => index.apply("shop", log));
    // On day 45 with 30 days kept, sessions 0-14 began too long ago; a cap of 20 takes 15-19 too.
    const now = Date.UTC(2026, 0, 1) + 45 * DAY_MS;
    let pruned = 0;
    for (let step; (step = root.transactionSync(() => index.prune("shop", { days: 3_650, sessionDays: 30, maxSessions: 20 }, now, 7))) > 0;)
      pruned += step;
    expect(pruned).toBe(20);
    expect(index.numberOf("shop", "s19")).toBeUndefined();

    const survivors = new SessionIndex(root);
    root.transactionSync(() =>
      survivors.apply(
        "survivors",
        log.filter((event) => Number(event.uuid!.slice(1)) >= 20),
      ),
    );
    const expected = contents(root, survivors, "survivors");
    expect(contents(root, index, "shop")).toEqual(expected);
    expect(expected.live).toBe(20);
    // Nothing more is due.
    expect(root.transactionSync(() => index.prune("shop", { days: 3_650, sessionDays: 30, maxSessions: 20 }, now, 7))).toBe(0);
    await root.close();
  });

  it("removes a product once none of its viewers is left, and a pruned uuid that views again starts a new session", async () => {
    const root = environment();
    const index = new SessionIndex(root);
    root.transactionSync(() => index.apply("shop", agedLog()));
    const now = Date.UTC(2026, 0, 1) + 45 * DAY_MS;
    root.transactionSync(() => index.prune("shop", { days: 3_650, sessionDays: 365, maxSessions: 1 }, now, 100));
    expect(index.head("shop")?.live).toBe(1);
    // s39 viewed products 4 and 100 only.
    const source = index.source("shop")!;
    expect([0, 1, 2, 3, 5, 6, 101, 102].map((product) => source.recentSessionsWith(product))).toEqual(Array(8).fill(null));
    expect(source.sessionCountWith(4)).toBe(1);
    root.transactionSync(() => index.apply("shop", [{ ...agedLog()[0]!, at: now }]));
    expect(index.numberOf("shop", "s0")).toBe(40);
    expect(index.head("shop")).toEqual({ next: 41, live: 2, views: 81 });
    await root.close();
  });
});
