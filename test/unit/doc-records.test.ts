import { describe, expect, it } from "vitest";
import { DocRecords, recordOf, SEEN, TOTAL } from "../../src/core/search/doc-records.js";

describe("doc records", () => {
  it("give each query and slot a stamp above every one before", () => {
    const records = new DocRecords();
    const first = records.queryStamp();
    const slot = records.slotStamp();
    const next = records.queryStamp();
    expect(first).toBe(1);
    expect(slot).toBeGreaterThan(first);
    expect(next).toBeGreaterThan(slot);
  });

  it("clear every record when the stamps start again, so none reads as touched by a new query", () => {
    // A limit of 8 stamps stands for the 32-bit one: a stamp past it would wrap when stored.
    const records = new DocRecords(8);
    records.fit(4);
    let stamp = 0;
    while (stamp < 8) {
      stamp = records.queryStamp();
      records.ints[recordOf(stamp % 4) + SEEN] = stamp;
      records.floats[recordOf(stamp % 4) + TOTAL] = 1.5;
    }
    const restarted = records.queryStamp();
    expect(restarted).toBe(1);
    for (let doc = 0; doc < 4; doc++) {
      expect(records.ints[recordOf(doc) + SEEN]).toBe(0);
      expect(records.floats[recordOf(doc) + TOTAL]).toBe(0);
    }
  });

  it("keep two views of the same bytes: a float written is read back as written", () => {
    const records = new DocRecords();
    records.fit(3);
    records.floats[recordOf(2) + TOTAL] = Math.fround(0.1);
    expect(records.floats[recordOf(2) + TOTAL]).toBe(Math.fround(0.1));
    expect(records.ints[recordOf(2) + TOTAL]).not.toBe(0);
  });
});
