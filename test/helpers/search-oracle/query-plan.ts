// The oracle's query planner (see lexical-index.ts): what each word of a query
// may match, as term ids of the in-memory index.
import { editBudget } from "../../../src/core/search/edits.js";
import { bm25Idf, DEFAULT_RANKING, type RankingConfig } from "../../../src/core/search/query-plan.js";
import { family, hasDigit, stem, words } from "../../../src/core/search/text.js";
import type { LexicalIndex } from "./lexical-index.js";

export interface Alternative {
  term: number;
  weight: number;
}

export interface Slot {
  alternatives: Alternative[];
  /** Shared by the alternatives: a slot is one query word, however many terms may stand for it. */
  idf: number;
}

export interface QueryPlan {
  /** One per query word, in order; a slot with no alternatives matches nothing. */
  slots: Slot[];
  /** The whole query as a SKU or barcode candidate. */
  code: string;
  /** Identifies the plan for caching: the same key ranks the same way on the same index. */
  key: string;
}

/**
 * Plans a query. `typing`: the last word may be unfinished (no trailing
 * space), so it also matches as a prefix.
 */
export function planQuery(index: LexicalIndex, query: string, config: RankingConfig = DEFAULT_RANKING): QueryPlan {
  const raw = words(query).slice(0, config.maxWords);
  const typing = raw.length > 0 && !/\s$/.test(query);
  const stems = raw.map(stem);
  const n = Math.max(1, index.size);
  const alternatives: Map<number, number>[] = raw.map(() => new Map());
  const offer = (slot: number, term: number | undefined, weight: number) => {
    if (term === undefined || index.df(term) === 0) return;
    const map = alternatives[slot]!;
    if ((map.get(term) ?? 0) < weight) map.set(term, weight);
  };

  raw.forEach((word, i) => {
    const exact = index.termId(stems[i]!);
    offer(i, exact, 1);
    const df = exact === undefined ? 0 : index.df(exact);
    // Numbers, sizes and codes are typed exactly: "18" must not become "16".
    if (df <= config.rareDf && !hasDigit(word)) {
      const budget = editBudget(word.length);
      if (budget > 0) {
        for (const { term, edits } of index.nearTerms(stems[i]!, budget)) offer(i, term, config.typoWeight ** edits);
      }
      offerSplits(index, word, (term) => offer(i, term, config.compoundWeight));
    }
    const next = raw[i + 1];
    if (next !== undefined) {
      const joined = index.termId(stem(word + next));
      offer(i, joined, config.compoundWeight);
      offer(i + 1, joined, config.compoundWeight);
    }
  });

  if (typing) {
    const last = raw.length - 1;
    const word = raw[last]!;
    const found = index.completions(word, config.completions);
    const massOf = new Map<string, number>();
    for (const term of found) {
      const root = family(index.term(term));
      massOf.set(root, (massOf.get(root) ?? 0) + index.df(term));
    }
    const top = Math.max(1, ...massOf.values());
    for (const term of found) {
      offer(last, term, (massOf.get(family(index.term(term)))! / top) ** config.completionExponent);
    }
  }

  const slots = alternatives.map((map): Slot => {
    let mass = 0;
    for (const term of map.keys()) mass += index.df(term);
    return {
      alternatives: [...map].map(([term, weight]) => ({ term, weight })),
      idf: bm25Idf(n, Math.min(n, mass)),
    };
  });
  const key = `${typing ? "~" : "="}${stems.join(" ")}`;
  return { slots, code: query.trim(), key };
}

/** "dishwasher" → "dish" + "washer" when both halves are words of the catalogue. */
function offerSplits(index: LexicalIndex, word: string, offer: (term: number) => void): void {
  for (let cut = 3; cut <= word.length - 3; cut++) {
    const left = index.termId(word.slice(0, cut));
    const right = index.termId(stem(word.slice(cut)));
    if (left !== undefined && right !== undefined && index.df(left) > 0 && index.df(right) > 0) {
      offer(left);
      offer(right);
    }
  }
}
