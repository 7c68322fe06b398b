import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BehaviourEvent } from "../../src/core/types.js";
import { MerchantSessions, sessionsForRequest, warmSessions } from "../../src/recs/session-model.js";
import { storeWithMerchant } from "../helpers/store.js";

const dir = mkdtempSync(join(tmpdir(), "aisle-session-model-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a worker's session index read from the event log", () => {
  it("read in steps that stop at a deadline, ranks as one read in full", async () => {
    const store = await storeWithMerchant(dir);
    // 3,000 views by 300 sessions over 40 products, in a fixed pseudo-random order.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const events: BehaviourEvent[] = Array.from({ length: 3_000 }, (_, i) => ({
      at: 1_000 + i,
      uuid: `session-${next() % 300}`,
      customer_id: null,
      verb: "viewed",
      product_id: 1 + (next() % 40),
      theme_id: null,
    }));
    await store.appendEvents("shop", events);

    const whole = new MerchantSessions(store, "shop");
    expect(whole.catchUp()).toBe(true);
    const stepped = new MerchantSessions(store, "shop");
    let steps = 1;
    // A deadline already passed: each step reads one batch of events between looks at the clock.
    while (!stepped.catchUp(Number.NEGATIVE_INFINITY)) steps++;
    expect(steps).toBeGreaterThan(5);
    expect(stepped.index.sessionCount).toBe(whole.index.sessionCount);
    for (const viewed of [[1], [2, 3], [5, 8, 13, 21]]) {
      expect([...stepped.scoreNext(viewed, null)]).toEqual([...whole.scoreNext(viewed, null)]);
    }
    // Caught up: nothing more to read.
    expect(stepped.catchUp(Number.NEGATIVE_INFINITY)).toBe(true);
    await store.close();
  });

  it("for a shopper's request reads the log only within its budget; the warm-up steps read on to the end", async () => {
    const store = await storeWithMerchant(dir, "budget");
    const events: BehaviourEvent[] = Array.from({ length: 5_000 }, (_, i) => ({
      at: 1_000 + i,
      uuid: `budget-session-${i}`,
      customer_id: null,
      verb: "viewed",
      product_id: 1 + (i % 40),
      theme_id: null,
    }));
    await store.appendEvents("budget", events);
    // No time to spare: the request reads one batch of events between looks at the clock, not the whole log.
    const first = sessionsForRequest(store, "budget", 0).index.sessionCount;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(1_000);
    expect(sessionsForRequest(store, "budget", 0).index.sessionCount).toBeGreaterThan(first);
    while (!warmSessions(store, "budget", 0).done);
    expect(sessionsForRequest(store, "budget", 0).index.sessionCount).toBe(5_000);
    // Once the first read is complete, a request reads everything logged since, budget or not.
    await store.appendEvents(
      "budget",
      events.map((event, i) => ({ ...event, uuid: `budget-later-${i}`, at: 9_000 + i })),
    );
    expect(sessionsForRequest(store, "budget", 0).index.sessionCount).toBe(10_000);
    await store.close();
  });
});
