// The quick-view protocol's metrics over a judgments file
// (search_term TAB product_uid TAB relevance, relevance 1 … 3).
import { readFileSync } from "node:fs";
import { InvalidInput } from "../core/ingest/fields.js";

export interface SearchMetrics {
  queries: number;
  /** NDCG@10, unjudged results counting 0 (a lower bound). */
  ndcg10: number;
  /** NDCG@10 after dropping unjudged results from the whole ranked list. */
  condensed: number;
  /** Success@5 of the query's first 3, 5 and 8 characters, and of the full query. */
  s5k3: number;
  s5k5: number;
  s5k8: number;
  s5full: number;
}

/** Relevance from which a product counts as what the shopper wanted (typeahead success). */
export const EXACT_RELEVANCE = 2.67;
const TYPEAHEAD_LENGTHS = [3, 5, 8] as const;

export class SearchJudgments {
  /** Distinct queries in file order. */
  readonly queries: string[] = [];
  /** Gain (relevance − 1) of each judged product, per query. */
  private readonly gains = new Map<string, Map<number, number>>();

  static read(path: string): SearchJudgments {
    const judgments = new SearchJudgments();
    const lines = readFileSync(path, "utf8").split("\n");
    for (const [n, line] of lines.entries()) {
      if (line.trim() === "") continue;
      const [query = "", id = "", relevance = ""] = line.split("\t");
      if (n === 0 && Number.isNaN(Number(relevance))) continue; // header
      const value = Number(relevance);
      if (
        query === "" ||
        relevance.trim() === "" ||
        !Number.isFinite(value) ||
        !/^\d+$/.test(id.trim()) ||
        !Number.isSafeInteger(Number(id))
      )
        throw new InvalidInput(`${path}:${n + 1}`, "expected query TAB product id TAB relevance");
      judgments.add(query, Number(id), value);
    }
    return judgments;
  }

  add(query: string, productId: number, relevance: number): void {
    let judged = this.gains.get(query);
    if (!judged) {
      judged = new Map();
      this.gains.set(query, judged);
      this.queries.push(query);
    }
    judged.set(productId, relevance - 1);
  }

  get withExactMatch(): number {
    return this.queries.filter((query) => this.exactMatches(query).size > 0).length;
  }

  private exactMatches(query: string): Set<number> {
    const found = new Set<number>();
    for (const [id, gain] of this.gains.get(query)!) if (gain + 1 >= EXACT_RELEVANCE) found.add(id);
    return found;
  }

  /** NDCG@10 of a ranking; `condensed` first drops the products nobody judged. */
  ndcg(query: string, ranked: readonly number[], condensed: boolean): number {
    const judged = this.gains.get(query)!;
    const list = condensed ? ranked.filter((id) => judged.has(id)) : ranked;
    let dcg = 0;
    list.slice(0, 10).forEach((id, i) => {
      dcg += (judged.get(id) ?? 0) / Math.log2(i + 2);
    });
    const ideal = [...judged.values()]
      .sort((a, b) => b - a)
      .slice(0, 10)
      .reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
    return ideal > 0 ? dcg / ideal : 0;
  }

  /**
   * Every metric, overall and per group (e.g. halves of the queries).
   * `rankServed` is what a search box shows for a text (the top 10); `rankDeep`
   * the same ranking far deeper, for condensed NDCG.
   */
  evaluate(
    rankServed: (text: string) => readonly number[],
    rankDeep: (query: string) => readonly number[],
    groupOf: (query: string) => string,
  ): { all: SearchMetrics; groups: Record<string, SearchMetrics> } {
    const sums = new Map<string, { queries: number; exact: number; ndcg10: number; condensed: number; s5: number[] }>();
    const prefixCache = new Map<string, readonly number[]>();
    for (const query of this.queries) {
      const ranked = rankServed(query);
      const exact = this.exactMatches(query);
      const success = (list: readonly number[]) => (list.slice(0, 5).some((id) => exact.has(id)) ? 1 : 0);
      const s5 = TYPEAHEAD_LENGTHS.map((length) => {
        const prefix = query.slice(0, length);
        let list = prefixCache.get(prefix);
        if (!list) {
          list = rankServed(prefix);
          prefixCache.set(prefix, list);
        }
        return success(list);
      });
      s5.push(success(ranked));
      const deep = rankDeep(query);
      for (const group of ["all", groupOf(query)]) {
        const sum = sums.get(group) ?? { queries: 0, exact: 0, ndcg10: 0, condensed: 0, s5: [0, 0, 0, 0] };
        sum.queries++;
        sum.ndcg10 += this.ndcg(query, ranked, false);
        sum.condensed += this.ndcg(query, deep, true);
        if (exact.size > 0) {
          sum.exact++;
          s5.forEach((hit, i) => (sum.s5[i]! += hit));
        }
        sums.set(group, sum);
      }
    }
    const groups: Record<string, SearchMetrics> = {};
    for (const [group, sum] of sums) {
      const exact = Math.max(1, sum.exact);
      groups[group] = {
        queries: sum.queries,
        ndcg10: sum.ndcg10 / sum.queries,
        condensed: sum.condensed / sum.queries,
        s5k3: sum.s5[0]! / exact,
        s5k5: sum.s5[1]! / exact,
        s5k8: sum.s5[2]! / exact,
        s5full: sum.s5[3]! / exact,
      };
    }
    const { all, ...rest } = groups;
    return { all: all!, groups: rest };
  }
}
