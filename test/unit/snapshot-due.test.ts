import { describe, expect, it } from "vitest";
import { nextLookInMs, snapshotDue } from "../../src/cluster/snapshot-due.js";

const HOUR = 3_600_000;
const now = 1_000 * HOUR;

describe("snapshotDue", () => {
  it("is due on an empty bucket once the node has applied something", () => {
    expect(snapshotDue([], 0, now, 24 * HOUR)).toBe(false);
    expect(snapshotDue([], 1, now, 24 * HOUR)).toBe(true);
  });

  it("is due once the newest snapshot is a period old, not before", () => {
    const snapshots = [
      { seq: 100, takenAt: now - 30 * HOUR },
      { seq: 90, takenAt: now - 24 * HOUR + 1 },
    ];
    expect(snapshotDue(snapshots, 150, now, 24 * HOUR)).toBe(false);
    expect(snapshotDue(snapshots, 150, now + 1, 24 * HOUR)).toBe(true);
  });

  it("is not due for a node that holds nothing past the highest snapshot's sequence, however old it is", () => {
    const snapshots = [{ seq: 100, takenAt: now - 100 * HOUR }];
    expect(snapshotDue(snapshots, 100, now, 24 * HOUR)).toBe(false);
    expect(snapshotDue(snapshots, 99, now, 24 * HOUR)).toBe(false);
    expect(snapshotDue(snapshots, 101, now, 24 * HOUR)).toBe(true);
  });
});

describe("nextLookInMs", () => {
  it("spreads the looks from half the average to one and a half times it", () => {
    expect(nextLookInMs(600_000, () => 0)).toBe(300_000);
    expect(nextLookInMs(600_000, () => 0.5)).toBe(600_000);
    expect(nextLookInMs(600_000, () => 0.999_999)).toBeCloseTo(900_000, -1);
  });
});
