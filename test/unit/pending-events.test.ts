import { describe, expect, it } from "vitest";
import type { BehaviourEvent } from "../../src/core/types.js";
import { PendingEvents } from "../../src/ingest/pending-events.js";

const event = (uuid: string | null, customer_id: number | null, product_id: number): BehaviourEvent => ({
  at: product_id * 10,
  uuid,
  customer_id,
  verb: "viewed",
  product_id,
  theme_id: null,
});
const S1 = "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e";
const S2 = "7a1c2e3f-1111-4c7b-8e21-5a6f0d9c1b2e";

describe("PendingEvents", () => {
  it("hands each subject its own unapplied events, oldest first, per merchant", () => {
    const pending = new PendingEvents();
    pending.add("a", 1, event(S1, null, 11));
    pending.add("a", 2, event(S2, 5, 12));
    pending.add("a", 3, event(S1, 5, 13));
    pending.add("b", 1, event(S1, 5, 99));
    const a = pending.pendingFor("a", { uuid: S1, customerId: 5, verb: "viewed" });
    expect(a.session.map((v) => [v.sequence, v.product_id])).toEqual([
      [1, 11],
      [3, 13],
    ]);
    expect(a.customer.map((v) => [v.sequence, v.product_id])).toEqual([
      [2, 12],
      [3, 13],
    ]);
    expect(pending.pendingFor("b", { uuid: S1, customerId: null, verb: "viewed" }).session.map((v) => v.product_id)).toEqual([99]);
    expect(pending.size).toBe(4);
  });

  it("forgets what a watermark move says is applied, and only that merchant's", () => {
    const pending = new PendingEvents();
    pending.add("a", 1, event(S1, 5, 11));
    pending.add("a", 2, event(S1, null, 12));
    pending.add("b", 1, event(S1, null, 99));
    pending.appliedThrough("a", 1);
    expect(pending.pendingFor("a", { uuid: S1, customerId: 5, verb: "viewed" })).toEqual({
      session: [{ sequence: 2, product_id: 12, verb: "viewed", at: 120 }],
      customer: [],
    });
    pending.appliedThrough("a", 2);
    expect(pending.pendingFor("a", { uuid: S1, customerId: 5, verb: "viewed" })).toEqual({ session: [], customer: [] });
    expect(pending.pendingFor("b", { uuid: S1, customerId: null, verb: "viewed" }).session).toHaveLength(1);
    expect(pending.size).toBe(1);
  });

  it("keeps out events the applier has already reported applied (its report can overtake a batch's flush)", () => {
    const pending = new PendingEvents();
    pending.appliedThrough("a", 2);
    pending.add("a", 1, event(S1, null, 11));
    pending.add("a", 2, event(S1, null, 12));
    pending.add("a", 3, event(S1, null, 13));
    expect(pending.pendingFor("a", { uuid: S1, customerId: null, verb: "viewed" }).session.map((v) => v.sequence)).toEqual([3]);
    expect(pending.size).toBe(1);
  });
});
