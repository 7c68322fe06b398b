import { Rng } from "../core/random.js";

/** Hit rate, NDCG and catalogue coverage of top-k lists, one relevant item per case (or several for NDCG over a set). */
export class RankingMetrics {
  private cases = 0;
  private hits = 0;
  private ndcgSum = 0;
  private readonly recommended = new Set<string | number>();

  constructor(private readonly k: number) {}

  /** `relevant` holds every item that counts as a hit for this case. */
  add(ranked: readonly (string | number)[], relevant: ReadonlySet<string | number>): void {
    const top = ranked.slice(0, this.k);
    top.forEach((item) => this.recommended.add(item));
    this.cases++;
    let dcg = 0;
    top.forEach((item, index) => {
      if (relevant.has(item)) dcg += 1 / Math.log2(index + 2);
    });
    if (dcg > 0) this.hits++;
    let ideal = 0;
    for (let i = 0; i < Math.min(relevant.size, this.k); i++) ideal += 1 / Math.log2(i + 2);
    this.ndcgSum += ideal > 0 ? dcg / ideal : 0;
  }

  result(catalogueSize: number): { cases: number; hr: number; ndcg: number; coverage: number } {
    return {
      cases: this.cases,
      hr: this.hits / Math.max(1, this.cases),
      ndcg: this.ndcgSum / Math.max(1, this.cases),
      coverage: this.recommended.size / Math.max(1, catalogueSize),
    };
  }
}

/**
 * A 95% percentile bootstrap interval of a mean over cases that come in
 * groups (a session's prefixes: its cases rise and fall together, so whole
 * groups are resampled). `values[i]` is case i's value, `groups[i]` its group
 * (0 … groups − 1). Seeded: every caller with the same seed and groups draws
 * the same resamples, so intervals of systems on the same cases are paired.
 */
export function groupedBootstrapInterval(
  values: ArrayLike<number>,
  groups: ArrayLike<number>,
  seed: number,
  resamples = 1_000,
): [number, number] {
  let groupCount = 0;
  for (let i = 0; i < groups.length; i++) groupCount = Math.max(groupCount, groups[i]! + 1);
  const sums = new Float64Array(groupCount);
  const counts = new Float64Array(groupCount);
  for (let i = 0; i < values.length; i++) {
    const group = groups[i]!;
    sums[group] = sums[group]! + values[i]!;
    counts[group] = counts[group]! + 1;
  }
  const rng = new Rng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    let count = 0;
    for (let g = 0; g < groupCount; g++) {
      const drawn = rng.int(0, groupCount - 1);
      sum += sums[drawn]!;
      count += counts[drawn]!;
    }
    means[r] = sum / Math.max(1, count);
  }
  means.sort();
  return [means[Math.floor(0.025 * (resamples - 1))]!, means[Math.ceil(0.975 * (resamples - 1))]!];
}

/** A 95% percentile bootstrap interval of a mean over independent cases (each case resampled alone). */
export function bootstrapInterval(values: ArrayLike<number>, seed: number, resamples = 1_000): [number, number] {
  return groupedBootstrapInterval(
    values,
    Int32Array.from({ length: values.length }, (_, i) => i),
    seed,
    resamples,
  );
}

/** The value below which `share` (0 … 1) of the values lie; `sorted` ascending. */
export function percentile(sorted: ArrayLike<number>, share: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}
