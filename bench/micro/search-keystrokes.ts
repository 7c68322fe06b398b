// The quick-view worker task once per keystroke, in typing order (its per-index
// ranking cache then helps exactly as much as it does for a shopper typing):
// on the store without search settings, then with a realistic record of them,
// 50 keyword groups and 100 synonym rules over the words of the shop's own
// titles (the words shoppers type, so keystrokes match groups and expand
// synonyms), and a few exclusions.
import { performance } from "node:perf_hooks";
import { quickViewRequest } from "../../src/core/search/request.js";
import { writeSearchSettings } from "../../src/ingest/search-settings.js";
import { quickView } from "../../src/search/quick-view.js";
import type { Store } from "../../src/stores/store.js";
import { listedIds } from "../shared/inputs.js";
import type { MicroResult } from "../shared/results.js";
import { fromSamples } from "./measure.js";

const KEYWORD_GROUPS = 50;
const SYNONYM_RULES = 100;

/** Distinct words of letters only, of the listed products' titles, most frequent first. */
function titleWords(store: Store, merchantId: string, ids: readonly number[]): string[] {
  const counts = new Map<string, number>();
  for (const id of ids) {
    for (const word of store.catalogue.product(merchantId, id)?.title.toLowerCase().split(/\s+/) ?? []) {
      if (/^\p{L}{4,}$/u.test(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([word]) => word);
}

/**
 * The settings, as a merchant would send them: groups of exact and prefix
 * queries pinning, boosting and hiding products, some with a redirect;
 * two-way synonyms between the shop's words, and one-way ones from words the
 * shop does not use (here its words spelled backwards) to two of its own.
 */
function realisticSearchSettings(store: Store, merchantId: string): unknown {
  const ids = listedIds(store, merchantId);
  const words = titleWords(store, merchantId, ids);
  const word = (i: number) => words[i % words.length]!;
  const keywordGroups = Array.from({ length: KEYWORD_GROUPS }, (_, i) => ({
    id: `group-${i}`,
    queries: [word(i), `${word(i)} ${word(i + KEYWORD_GROUPS)}`],
    match: i % 2 === 0 ? "prefix" : "exact",
    promoted: ids.slice(3 * i, 3 * i + 3),
    promote_mode: i % 3 === 0 ? "boost" : "pin",
    hidden: [ids[200 + i]!],
    ...(i % 5 === 0 ? { redirect: `/collections/${word(i)}` } : {}),
  }));
  const synonyms = Array.from({ length: SYNONYM_RULES }, (_, i) =>
    i % 2 === 0
      ? { type: "two_way", synonyms: [word(3 * i), word(3 * i + 1), word(3 * i + 2)] }
      : { type: "one_way", root: [...word(i)].reverse().join(""), synonyms: [word(i), word(i + 1)] },
  );
  return {
    keyword_groups: keywordGroups,
    excluded_terms: ["replica", "counterfeit"],
    excluded_products: ids.slice(300, 310),
    excluded_tags: ["wholesale"],
    synonyms,
  };
}

async function replay(store: Store, merchantId: string, typed: readonly string[]): Promise<number[]> {
  const keystrokeUs: number[] = [];
  for (const query of typed) {
    const started = performance.now();
    const result = await quickView(store, { kind: "quick_view", merchantId, request: quickViewRequest(query) });
    keystrokeUs.push((performance.now() - started) * 1000);
    if (!result.ok) throw new Error(`quick-view task failed: ${result.message}`);
  }
  return keystrokeUs;
}

/** Two rows: the keystrokes without search settings (the demo's own are reset first), then with the realistic record (a new version: no ranking is reused). */
export async function searchKeystrokeRows(store: Store, merchantId: string, typed: readonly string[]): Promise<MicroResult[]> {
  await store.searchSettings.reset(merchantId);
  const plain = await replay(store, merchantId, typed);
  await writeSearchSettings(store, merchantId, realisticSearchSettings(store, merchantId));
  const merchandised = await replay(store, merchantId, typed);
  return [
    fromSamples(`quick-view worker task per keystroke, synthetic replay of demo titles (${typed.length} keystrokes, one pass)`, plain, {
      name: "searchKeystrokeP99",
      stat: "p99",
    }),
    fromSamples(
      `  same with search settings of ${KEYWORD_GROUPS} keyword groups and ${SYNONYM_RULES} synonym rules over the titles' words`,
      merchandised,
    ),
  ];
}
