import { describe, expect, it } from "vitest";
import { plateauOf } from "../../bench/report/memory-report.js";
import type { MemorySample } from "../../bench/shared/results.js";

/** Samples every 50k requests up to 1M, anonymous RSS from `anonAt`. */
function series(anonAt: (requests: number) => number): MemorySample[] {
  return Array.from({ length: 21 }, (_, i) => {
    const requests = i * 50_000;
    return {
      requests,
      atS: i,
      anonMB: anonAt(requests),
      fileMB: 100,
      httpHeapMB: 50,
      httpExternalMB: 10,
      workersHeapUsedMB: 40,
      workersHeapMB: 60,
      workersExternalMB: 5,
      cacheMB: 0,
      unappliedEvents: 0,
    };
  });
}

/**
 * A heap that grows by `perSampleMB` a sample and is collected back to `floorMB`
 * every third sample from the second on, the last time at 850k: the same floor
 * throughout, the sample at 700k at the bottom of a swing and the one at 1M at its top.
 */
const sawtooth = (floorMB: number, perSampleMB: number) => (requests: number) => {
  const sample = requests / 50_000;
  const collectedAt = sample < 2 ? 0 : Math.min(17, 2 + 3 * Math.floor((sample - 2) / 3));
  return floorMB + (sample - collectedAt) * perSampleMB;
};

describe("plateauOf", () => {
  it("compares the lowest sample over the last window with the lowest over the window before", () => {
    const plateau = plateauOf(
      series((requests) => 200 + requests / 10_000),
      1_000_000,
      300_000,
      0.05,
    );
    expect(plateau?.before).toMatchObject({ after: 400_000, upTo: 700_000, requests: 450_000, anonMB: 245 });
    expect(plateau?.last).toMatchObject({ after: 700_000, upTo: 1_000_000, requests: 750_000, anonMB: 275 });
    expect(plateau?.growth).toBeCloseTo((275 - 245) / 245);
    expect(plateau?.plateaus).toBe(false);
  });

  it("takes a heap's swing between collections for what it is, not growth, wherever the last sample falls", () => {
    const swinging = series(sawtooth(370, 30));
    // The last sample sits at the top of a swing and the one 300k before at its bottom: +24% between the two.
    expect(swinging.at(-1)!.anonMB / swinging.find((s) => s.requests === 700_000)!.anonMB).toBeGreaterThan(1.2);
    const plateau = plateauOf(swinging, 1_000_000, 300_000, 0.05);
    expect(plateau?.growth).toBe(0);
    expect(plateau?.plateaus).toBe(true);
  });

  it("sees growth under a swing when the floor rises", () => {
    const plateau = plateauOf(
      series((requests) => sawtooth(370, 30)(requests) + requests / 5_000),
      1_000_000,
      300_000,
      0.05,
    );
    expect(plateau?.plateaus).toBe(false);
  });

  it("calls growth under the limit a plateau, however much came before the windows", () => {
    const plateau = plateauOf(
      series((requests) => (requests <= 400_000 ? 100 + requests / 1_000 : 800 + (requests - 400_000) / 20_000)),
      1_000_000,
      300_000,
      0.05,
    );
    expect(plateau?.growth).toBeCloseTo((817.5 - 802.5) / 802.5);
    expect(plateau?.plateaus).toBe(true);
  });

  it("judges growth of exactly the limit as no plateau", () => {
    const plateau = plateauOf(
      series((requests) => (requests <= 700_000 ? 400 : 420)),
      1_000_000,
      300_000,
      0.05,
    );
    expect(plateau?.growth).toBeCloseTo(0.05);
    expect(plateau?.plateaus).toBe(false);
  });

  it("has no verdict for a run cut short before its last sample", () => {
    const cut = series(() => 300).filter((s) => s.requests <= 800_000);
    expect(plateauOf(cut, 1_000_000, 300_000, 0.05)).toBeNull();
  });
});
