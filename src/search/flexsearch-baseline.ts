// FlexSearch ranking products on its own, with aisle's normaliser: the
// comparison behind the decision to let aisle's scorer own product ranking
// (README, "Search"). Only `aisle eval search --flexsearch-baseline` uses it.
import { Index } from "flexsearch";
import { performance } from "node:perf_hooks";
import { terms } from "../core/search/text.js";

export function flexsearchOnlyRanking(products: { id: number; title: string }[]): {
  search(query: string, k: number): number[];
  buildMs: number;
} {
  const started = performance.now();
  const index = new Index({ tokenize: "forward", resolution: 9, encode: (text: string) => terms(text) });
  for (const { id, title } of products) index.add(id, title);
  const buildMs = performance.now() - started;
  return {
    buildMs,
    // suggest: products matching only some of the words still rank, as in aisle's ranker.
    search: (query, k) => (index.search(query, { limit: k, suggest: true }) as (number | string)[]).map(Number),
  };
}
