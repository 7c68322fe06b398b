import fc from "fast-check";
import { open } from "lmdb";
import { describe, expect, it } from "vitest";
import { appendToHistory, emptyHistory, HISTORY_LIMIT } from "../../src/core/recs/history.js";
import type { BehaviourEvent } from "../../src/core/types.js";
import { EventHistories, TAIL_ENTRIES } from "../../src/stores/event-histories.js";
import type { Key } from "../../src/stores/merchant-keys.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-histories-");
const VERBS = ["viewed", "added", "removed"] as const;

describe("event histories, a head and a tail (real LMDB)", () => {
  it("read back as the last HISTORY_LIMIT events appended, whatever the slices they came in", async () => {
    const root = open({ path: tempDir(), maxDbs: 8 });
    const histories = new EventHistories(root);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 2 * TAIL_ENTRIES + 3 }), { minLength: 1, maxLength: 30 }), async (slices) => {
        const key: Key = ["shop", "session", `run-${run++}`];
        const expected = emptyHistory();
        let n = 0;
        for (const size of slices) {
          const events = Array.from({ length: size }, (): BehaviourEvent => {
            n++;
            return { at: 1_000 + n, uuid: null, customer_id: 1, verb: VERBS[n % 3]!, product_id: n, theme_id: null };
          });
          root.transactionSync(() => histories.append(key, events));
          events.forEach((event) => appendToHistory(expected, event));
          expect(histories.read(key)).toEqual(expected);
        }
        expect(histories.read(key)?.products.length).toBe(Math.min(n, HISTORY_LIMIT));
      }),
      { numRuns: 60 },
    );
    expect(histories.read(["shop", "session", "never"])).toBeUndefined();
    await root.close();
  });

  it("rewrites the head only when the tail is full", async () => {
    const root = open({ path: tempDir(), maxDbs: 8 });
    const histories = new EventHistories(root);
    const heads = root.openDB<Uint8Array, Key>({ name: "event_histories", encoding: "binary" });
    const key: Key = ["shop", "customer", 7];
    const event = (n: number): BehaviourEvent => ({ at: n, uuid: null, customer_id: 7, verb: "viewed", product_id: n, theme_id: null });
    for (let n = 1; n <= TAIL_ENTRIES; n++) root.transactionSync(() => histories.append(key, [event(n)]));
    expect(heads.getBinary(key)).toBeUndefined();
    root.transactionSync(() => histories.append(key, [event(TAIL_ENTRIES + 1)]));
    expect(heads.getBinary(key)?.length).toBeGreaterThan(0);
    expect(histories.read(key)?.products).toEqual(Array.from({ length: TAIL_ENTRIES + 1 }, (_, i) => i + 1));
    await root.close();
  });
});
