// EASE as the published reference runs it, computed by aisle on the data it
// is given: the dense weight matrix over every train item, a query scored by
// summing its items' full rows. `aisle eval fbt` prints it beside aisle's own
// model. λ is chosen on the month of train before the split (train before it,
// scored on it), never on the cases being reported.
import { denseBaskets, easeBytes, easeWeights } from "../core/recs/ease.js";
import { walkGrid } from "../core/recs/grid-walk.js";
import { fbtCases, splitAt, type FbtCase, type Invoice } from "./online-retail.js";

/** The penalties the baseline's λ is chosen from, ascending (the reference's 50 among them). */
export const BASELINE_LAMBDAS = [12.5, 25, 50, 100, 200, 400, 800];

export interface EaseBaseline {
  lambda: number;
  /** HR@k and NDCG@k of each penalty tried on the validation month. */
  tried: { lambda: number; hr: number; ndcg: number }[];
  validationCases: number;
  items: number;
  bytes: number;
  fitSeconds: number;
  /** The top k items for a query, its own items left out, best first (ties: the earlier train item). */
  recommend(query: readonly string[]): string[];
}

export function fitEaseBaseline(train: Invoice[], boundary: number, k: number, log: (line: string) => void): EaseBaseline {
  const { train: earlier, test: lastMonth } = splitAt(train, monthBefore(boundary));
  const cases = fbtCases(earlier, lastMonth);
  const tried: EaseBaseline["tried"] = [];
  const best = walkGrid(
    BASELINE_LAMBDAS,
    (lambda) => {
      const model = DenseEase.fit(earlier, lambda);
      const figures = { lambda, ...model.figures(cases, k) };
      tried.push(figures);
      log(
        `  EASE baseline, λ = ${lambda}: validation HR@${k} ${figures.hr.toFixed(4)}, NDCG@${k} ${figures.ndcg.toFixed(4)} (${cases.length} cases)`,
      );
      return figures;
    },
    (figures) => figures.hr + figures.ndcg,
  );
  const started = performance.now();
  const model = DenseEase.fit(train, best.lambda);
  return {
    lambda: best.lambda,
    tried,
    validationCases: cases.length,
    items: model.codes.length,
    bytes: easeBytes(model.codes.length),
    fitSeconds: (performance.now() - started) / 1000,
    recommend: (query) => model.recommend(query, k),
  };
}

/** The instant one calendar month before `at` (UTC). */
function monthBefore(at: number): number {
  const date = new Date(at);
  date.setUTCMonth(date.getUTCMonth() - 1);
  return date.getTime();
}

class DenseEase {
  private constructor(
    readonly codes: string[],
    private readonly indexOf: Map<string, number>,
    private readonly weights: Float64Array,
  ) {}

  static fit(invoices: readonly Invoice[], lambda: number): DenseEase {
    const { items: codes, indexOf, baskets } = denseBaskets(invoices.map((invoice) => invoice.items));
    return new DenseEase(codes, indexOf, easeWeights(codes.length, baskets, lambda));
  }

  recommend(query: readonly string[], k: number): string[] {
    const size = this.codes.length;
    const rows = query.flatMap((code) => this.indexOf.get(code) ?? []);
    const scores = new Float64Array(size);
    for (const row of rows) {
      const weights = this.weights.subarray(row * size, (row + 1) * size);
      for (let j = 0; j < size; j++) scores[j]! += weights[j]!;
    }
    for (const row of rows) scores[row] = Number.NEGATIVE_INFINITY;
    // Top k by insertion: k is small beside the items.
    const top: number[] = [];
    for (let j = 0; j < size; j++) {
      if (scores[j] === Number.NEGATIVE_INFINITY || (top.length === k && scores[j]! <= scores[top[k - 1]!]!)) continue;
      let at = Math.min(top.length, k - 1);
      top[at] = j;
      while (at > 0 && scores[top[at - 1]!]! < scores[j]!) {
        top[at] = top[at - 1]!;
        top[--at] = j;
      }
    }
    return top.map((j) => this.codes[j]!);
  }

  figures(cases: readonly FbtCase[], k: number): { hr: number; ndcg: number } {
    let hits = 0;
    let gain = 0;
    for (const { query, target } of cases) {
      const rank = this.recommend(query, k).indexOf(target);
      if (rank < 0) continue;
      hits++;
      gain += 1 / Math.log2(rank + 2);
    }
    return { hr: hits / Math.max(1, cases.length), ndcg: gain / Math.max(1, cases.length) };
  }
}
