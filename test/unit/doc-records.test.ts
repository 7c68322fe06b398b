import { describe, expect, it } from "vitest";
import { DocRecords, recordOf, SEEN, SLOT_STAMP, TOTAL } from "../../src/core/search/doc-records.js";

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
    // Four queries of one slot each take the stamps 1 to 8, each touching a doc.
    for (let doc = 0; doc < 4; doc++) {
      const stamp = records.queryStamp();
      records.ints[recordOf(doc) + SEEN] = stamp;
      records.floats[recordOf(doc) + TOTAL] = 1.5;
      records.slotInts[recordOf(doc) + SLOT_STAMP] = records.slotStamp();
    }
    expect(records.slotInts[recordOf(3) + SLOT_STAMP]).toBe(8);
    expect(records.queryStamp()).toBe(1);
    for (let doc = 0; doc < 4; doc++) {
      expect(records.ints[recordOf(doc) + SEEN]).toBe(0);
      expect(records.floats[recordOf(doc) + TOTAL]).toBe(0);
      expect(records.slotInts[recordOf(doc) + SLOT_STAMP]).toBe(0);
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
