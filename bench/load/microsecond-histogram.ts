// Durations counted in 1 µs buckets, for the bench's own clients: autocannon's
// histogram keeps whole milliseconds, too coarse for sub-millisecond figures;
// and the exact summary of durations few enough to keep, however long.
import type { LatencySummaryMs } from "../shared/results.js";

/**
 * autocannon's histogram stores whole milliseconds, so a 0.4 ms p99 reads as 0
 * and a 1.6 ms one as 1: useless against a 1 ms budget. Each response's exact
 * duration is counted here in 1 µs buckets (up to 1 s; slower ones go in the last).
 */
export class MicrosecondHistogram {
  private readonly buckets = new Uint32Array(1_000_000);
  private count = 0;
  private sumMs = 0;
  private maxMs = 0;

  record(ms: number): void {
    const us = Math.min(this.buckets.length - 1, Math.max(0, Math.round(ms * 1000)));
    this.buckets[us]!++;
    this.count++;
    this.sumMs += ms;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  summary(): LatencySummaryMs {
    const wanted = [0.5, 0.9, 0.99, 0.999];
    const found: number[] = [];
    let seen = 0;
    for (let us = 0; us < this.buckets.length && found.length < wanted.length; us++) {
      seen += this.buckets[us]!;
      while (found.length < wanted.length && seen >= Math.ceil(wanted[found.length]! * this.count) && this.count > 0) found.push(us / 1000);
    }
    const [p50 = NaN, p90 = NaN, p99 = NaN, p999 = NaN] = found;
    return { count: this.count, mean: this.count ? this.sumMs / this.count : NaN, p50, p90, p99, p999, max: this.maxMs };
  }
}

/** The exact summary of durations in ms (nearest rank, as the histogram's). */
export function summaryOf(samplesMs: readonly number[]): LatencySummaryMs {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const rank = (share: number) => sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? NaN;
  const sum = sorted.reduce((total, ms) => total + ms, 0);
  return {
    count: sorted.length,
    mean: sorted.length ? sum / sorted.length : NaN,
    p50: rank(0.5),
    p90: rank(0.9),
    p99: rank(0.99),
    p999: rank(0.999),
    max: sorted.at(-1) ?? NaN,
  };
}
