// viewed-related's session kNN over the index the store keeps with the
// histories, read in place: the answers of kNN over every session of the log,
// always at the snapshot read.
import { describe, expect, it } from "vitest";
import { DEFAULT_SESSION_KNN } from "../../src/core/recs/session-knn.js";
import type { BehaviourEvent } from "../../src/core/types.js";
import { scoreNextViews } from "../../src/recs/session-model.js";
import { MAX_SESSION_VIEWS, SESSIONS_KEPT_PER_ITEM } from "../../src/stores/session-index.js";
import { referenceQuery } from "../helpers/session-knn-reference.js";
import { storedMerchant, storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-session-model-");

/** 3,000 views by 300 sessions over 40 products, in a fixed pseudo-random order, from `first` on. */
function views(first: number, seed = 7): BehaviourEvent[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31);
  return Array.from({ length: 3_000 }, (_, i) => ({
    at: first + i,
    uuid: `session-${next() % 300}`,
    customer_id: null,
    verb: "viewed",
    product_id: 1 + (next() % 40),
    theme_id: null,
  }));
}

const asViews = (log: BehaviourEvent[]) => log.map((event) => ({ session: event.uuid!, item: event.product_id }));
const PREFIXES = [[1], [2, 3], [5, 8, 13, 21], [41, 2]];

describe("viewed-related's session kNN over the stored index", () => {
  it("answers as kNN over every session of the log, the session itself left out of its neighbours", async () => {
    const store = await storeWithMerchant(tempDir());
    const log = views(1_000);
    // Written as the applier would, in batches.
    for (let start = 0; start < log.length; start += 700) await store.applied.appendEvents("shop", log.slice(start, start + 700));
    for (const prefix of PREFIXES) {
      for (const uuid of [null, "session-5"]) {
        const expected = referenceQuery(asViews(log), prefix, DEFAULT_SESSION_KNN, uuid, MAX_SESSION_VIEWS);
        expect([...scoreNextViews(store, "shop", prefix, uuid)]).toEqual([...expected]);
      }
    }
    await store.close();
  });

  it("follows the applied log on its own watermark, in slices, and answers from what changed after reading before", async () => {
    const store = await storeWithMerchant(tempDir());
    const before = views(1_000);
    await store.applied.appendEvents("shop", before);
    // Read once: whatever this thread keeps of the index must not outlive a change.
    for (const prefix of PREFIXES) scoreNextViews(store, "shop", prefix, null);
    const later = views(9_000, 11);
    await store.events.logEvents([["shop", later]]).durable;
    store.refreshSnapshot();
    // Logged, not applied: not in the index yet.
    expect([...scoreNextViews(store, "shop", [1], null)]).toEqual([...referenceQuery(asViews(before), [1], DEFAULT_SESSION_KNN)]);
    expect(store.applied.deriveEventsSync("shop", 1_000).applied).toBe(1_000);
    store.refreshSnapshot();
    // Applied to the histories: the index follows on its own turn.
    expect([...scoreNextViews(store, "shop", [1], null)]).toEqual([...referenceQuery(asViews(before), [1], DEFAULT_SESSION_KNN)]);
    expect(store.applied.sessionIndexBehind("shop")).toBe(true);
    expect(store.applied.followSessionIndexSync("shop", 600)).toBe(false);
    expect(store.applied.followSessionIndexSync("shop", 600)).toBe(true);
    expect(store.applied.sessionIndexBehind("shop")).toBe(false);
    store.refreshSnapshot();
    const applied = asViews([...before, ...later.slice(0, 1_000)]);
    for (const prefix of PREFIXES) {
      expect([...scoreNextViews(store, "shop", prefix, null)]).toEqual([...referenceQuery(applied, prefix, DEFAULT_SESSION_KNN)]);
    }
    await store.close();
  });

  it("answers each of three merchants from its own sessions while a thread keeps the reads of two", async () => {
    const store = await storeWithMerchant(tempDir(), "shop-a");
    const logs = new Map([
      ["shop-a", views(1_000, 3)],
      ["shop-b", views(1_000, 5)],
      ["shop-c", views(1_000, 13)],
    ]);
    for (const [merchant, log] of logs) {
      if (merchant !== "shop-a") await store.catalogue.createMerchant(storedMerchant(merchant));
      await store.applied.appendEvents(merchant, log);
    }
    // Sessions are numbered per merchant from 0, so a merchant answered from another's kept views would show it.
    for (let round = 0; round < 3; round++) {
      for (const [merchant, log] of logs) {
        for (const prefix of PREFIXES) {
          expect([...scoreNextViews(store, merchant, prefix, null)]).toEqual([
            ...referenceQuery(asViews(log), prefix, DEFAULT_SESSION_KNN),
          ]);
        }
      }
    }
    await store.close();
  });

  it("answers nothing for a merchant without sessions, and refuses a sample larger than the index keeps", async () => {
    const store = await storeWithMerchant(tempDir());
    expect(scoreNextViews(store, "shop", [1, 2], null).size).toBe(0);
    const tooMany = { ...DEFAULT_SESSION_KNN, sampleSize: SESSIONS_KEPT_PER_ITEM + 1 };
    expect(() => scoreNextViews(store, "shop", [1], null, tooMany)).toThrow(RangeError);
    await store.close();
  });
});
