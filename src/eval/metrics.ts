import { groupedBootstrapInterval } from "../core/bootstrap.js";

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
