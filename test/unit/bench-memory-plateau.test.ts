import { describe, expect, it } from "vitest";
import { plateauOf } from "../../bench/report/memory-report.js";
import type { MemorySample } from "../../bench/shared/results.js";

/** Samples every 100k requests up to 1M, anonymous RSS from `anonAt`. */
function series(anonAt: (requests: number) => number): MemorySample[] {
  return Array.from({ length: 11 }, (_, i) => {
    const requests = i * 100_000;
    return { requests, atS: i, anonMB: anonAt(requests), fileMB: 100, httpHeapMB: 50, httpExternalMB: 10, cacheMB: 0, unappliedEvents: 0 };
  });
}

describe("plateauOf", () => {
  it("compares the sample at total − window with the last one", () => {
    const plateau = plateauOf(
      series((requests) => 200 + requests / 10_000),
      1_000_000,
      300_000,
      0.05,
    );
    expect(plateau?.from.requests).toBe(700_000);
    expect(plateau?.to.requests).toBe(1_000_000);
    expect(plateau?.growth).toBeCloseTo((300 - 270) / 270);
    expect(plateau?.plateaus).toBe(false);
  });

  it("calls growth under the limit a plateau, however much came before the window", () => {
    const plateau = plateauOf(
      series((requests) => (requests < 700_000 ? 100 + requests / 1_000 : 800 + (requests - 700_000) / 10_000)),
      1_000_000,
      300_000,
      0.05,
    );
    expect(plateau?.growth).toBeCloseTo(30 / 800);
    expect(plateau?.plateaus).toBe(true);
  });

  it("judges growth of exactly the limit as no plateau", () => {
    const plateau = plateauOf(
      series((requests) => (requests < 1_000_000 ? 400 : 420)),
      1_000_000,
      300_000,
      0.05,
    );
    expect(plateau?.plateaus).toBe(false);
  });

  it("has no verdict for a run cut short before its last sample", () => {
    const cut = series(() => 300).filter((s) => s.requests <= 800_000);
    expect(plateauOf(cut, 1_000_000, 300_000, 0.05)).toBeNull();
  });
});
