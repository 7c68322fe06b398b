// The scale curve's report: each endpoint beside its own raw uWS ceiling, the
// anonymous memory after start, and what an extra pool worker holds, judged.
import { describe, expect, it } from "vitest";
import { scenarioResult } from "../../bench/load/scenario.js";
import { formatCurveReport } from "../../bench/report/curve-report.js";
import { emptyPoint } from "../../bench/scale/scale-curve.js";
import type { CurvePoint } from "../../bench/shared/results.js";

function servedPoint(changes: Partial<CurvePoint>): CurvePoint {
  const latencyMs = { count: 40_000, p50: 0.5, p90: 1, p99: 2, p999: 3, max: 4, mean: 0.6 };
  const run = scenarioResult(
    "static cache miss (bust_cache, 64 id sets)",
    "aisle",
    10,
    { p99: "staticMissP99" },
    {
      reqPerSec: 10_000,
      okPerSec: 10_000,
      latencyMs,
      errors: 0,
      timeouts: 0,
      non2xx: 0,
    },
  );
  return {
    ...emptyPoint(1_000_000),
    rssAfterStartMB: 900,
    rssAfterStartParts: { anon: 300, file: 600 },
    endpoints: [{ ...run, generator: "wrk 4.1, 1 thread", sameRequestCeiling: 40_000 }],
    workerMemory: { workers: [2, 4], anonMB: [700, 870], load: { connections: 10, durationS: 2, warmupS: 0, timeoutS: 2 } },
    ...changes,
  };
}

/** The report's line for a figure, by its leading words. */
function line(report: string, figure: string): string {
  const found = report.split("\n").find((text) => text.trimStart().startsWith(figure));
  if (found === undefined) throw new Error(`no line for "${figure}" in:\n${report}`);
  return found;
}

describe("the scale curve's report", () => {
  it("shows each endpoint's throughput beside the same run's ceiling for the same requests and bytes, and the client", () => {
    const report = formatCurveReport([servedPoint({})], 1);
    expect(line(report, "static cache miss: req/s")).toContain("10,000 / 40,000 (0.25×)");
    expect(line(report, "endpoints over HTTP")).toContain("wrk 4.1, 1 thread");
  });

  it("shows a run without a ceiling, or with a ceiling of 0, by its throughput alone", () => {
    const point = servedPoint({});
    const { sameRequestCeiling: _dropped, ...alone } = point.endpoints[0]!;
    for (const run of [alone, { ...alone, sameRequestCeiling: 0 }]) {
      const report = formatCurveReport([{ ...point, endpoints: [run] }], 1);
      expect(line(report, "static cache miss: req/s")).toMatch(/\s10,000$/);
    }
  });

  it("gives a ratio below 0.1 four decimals, and marks a run that had faults", () => {
    const point = servedPoint({});
    const run = { ...point.endpoints[0]!, sameRequestCeiling: 200_000, non2xx: 3 };
    const report = formatCurveReport([{ ...point, endpoints: [run] }], 1);
    expect(line(report, "static cache miss: req/s")).toContain("10,000 / 200,000 (0.0500×) (faults)");
  });

  it("judges anonymous memory after start, with the file-backed pages beside it", () => {
    const afterStart = "of which anonymous / file-backed (LMDB pages, binary), after start";
    const within = line(formatCurveReport([servedPoint({})], 1), afterStart);
    expect(within).toContain("300 MB / 600 MB");
    expect(within).toMatch(/pass$/);
    const over = servedPoint({ rssAfterStartParts: { anon: 2_000, file: 600 } });
    expect(line(formatCurveReport([over], 1), afterStart)).toMatch(/over$/);
  });

  it("divides the pools' difference in anonymous memory by their difference in workers", () => {
    const report = formatCurveReport([servedPoint({})], 1);
    const perWorker = line(report, "anonymous RSS per extra pool worker");
    expect(perWorker).toContain("85 MB (AISLE_WORKERS=2: 700 MB, 4: 870 MB)");
    expect(perWorker).toMatch(/pass$/);
    expect(line(report, "Per extra pool worker:")).toContain("2 s of every endpoint at 10 connections");
    const heavy = servedPoint({ workerMemory: { ...servedPoint({}).workerMemory!, anonMB: [700, 1_100] } });
    expect(line(formatCurveReport([heavy], 1), "anonymous RSS per extra pool worker")).toMatch(/over$/);
  });

  it("judges each endpoint's first answer after start against five seconds", () => {
    const quick = servedPoint({ firstRequestMs: new Map([["static cache miss (bust_cache, 64 id sets)", 40]]) });
    expect(line(formatCurveReport([quick], 1), "static cache miss: first request")).toMatch(/pass$/);
    const slow = servedPoint({ firstRequestMs: new Map([["static cache miss (bust_cache, 64 id sets)", 6_000]]) });
    expect(line(formatCurveReport([slow], 1), "static cache miss: first request")).toMatch(/over$/);
  });

  it("says n/a for a size whose server never ran, and then explains no pool load", () => {
    const report = formatCurveReport([emptyPoint(10_000)], 1);
    expect(line(report, "anonymous RSS per extra pool worker")).toContain("n/a");
    expect(report).not.toContain("Per extra pool worker:");
  });
});
