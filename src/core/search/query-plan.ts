// What each word of a query may match: the word itself, near spellings when it
// is rare or unknown, compounds with its neighbour, and, for the word being
// typed, its likeliest completions. One "slot" per query word; a product earns
// a slot's score through the best of its alternatives.
import { editBudget } from "./edits.js";
import type { TermStats } from "./index-view.js";
import { offerSynonyms, type SynonymTable } from "./merchandising/synonyms.js";
import { family, hasDigit, stem, words } from "./text.js";

export interface RankingConfig {
  /** BM25 saturation and length normalisation. */
  k1: number;
  b: number;
  /** Typo alternatives only for words at most this frequent: common words are spelled right. */
  rareDf: number;
  /** Weight of an alternative d edits away: typoWeight^d. */
  typoWeight: number;
  /** Weight of "dishwasher" for "dish washer" and back. */
  compoundWeight: number;
  /** Completions considered for the word being typed. */
  completions: number;
  /** A completion weighs (mass of its family / mass of the top family)^completionExponent. */
  completionExponent: number;
  /**
   * The share of the catalogue a word being typed may reach through its
   * completions: past it the less frequent ones are left out (the most
   * frequent is always kept). One typed letter would otherwise reach most of
   * a big shop, every product of which the query would score, for a page
   * that shows the commonest words' products either way.
   */
  completionMassShare: number;
  /** A query word matching more postings than this takes its candidates from the leader lists (leaders.ts), where the index has them. */
  leaderSlotMass: number;
  /** Score = B·(m/R) + coverageWeight·(m/R)² + adjacencyWeight·adj/(R−1) + priorWeight·prior + popularityWeight·popularity. */
  coverageWeight: number;
  adjacencyWeight: number;
  priorWeight: number;
  popularityWeight: number;
  /** Longer queries are cut: nobody types more into a search box, and cost grows per word. */
  maxWords: number;
  /**
   * What a product the merchant boosts for the query scores more: above what the
   * prior and popularity together can move a product (4), so it leads the
   * products that match about as well; well below a typical text score (10–20),
   * so it does not pass products that match more of the query's words.
   */
  boostWeight: number;
}

export const DEFAULT_RANKING: RankingConfig = {
  k1: 1.2,
  b: 0.75,
  rareDf: 3,
  typoWeight: 0.8,
  compoundWeight: 0.9,
  completions: 12,
  completionExponent: 0.7,
  completionMassShare: 0.25,
  leaderSlotMass: 16_384,
  coverageWeight: 2,
  adjacencyWeight: 2,
  priorWeight: 3,
  popularityWeight: 1,
  maxWords: 10,
  boostWeight: 5,
};

export interface Alternative {
  term: string;
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
 * space), so it also matches as a prefix. `synonyms`: the merchant's, offered
 * last, so they expand the typos and completions found before them too.
 */
export function planQuery(
  index: TermStats,
  query: string,
  config: RankingConfig = DEFAULT_RANKING,
  synonyms: SynonymTable | null = null,
): QueryPlan {
  const raw = words(query).slice(0, config.maxWords);
  const typing = raw.length > 0 && !/\s$/.test(query);
  const stems = raw.map(stem);
  const n = Math.max(1, index.size);
  const alternatives: Map<string, number>[] = raw.map(() => new Map());
  const offer = (slot: number, term: string, weight: number) => {
    if (index.df(term) === 0) return;
    const map = alternatives[slot]!;
    if ((map.get(term) ?? 0) < weight) map.set(term, weight);
  };

  raw.forEach((word, i) => {
    const exact = stems[i]!;
    offer(i, exact, 1);
    const df = index.df(exact);
    // Numbers, sizes and codes are typed exactly: "18" must not become "16".
    if (df <= config.rareDf && !hasDigit(word)) {
      const budget = editBudget(word.length);
      if (budget > 0) {
        for (const { term, edits } of index.nearTerms(exact, budget)) offer(i, term, config.typoWeight ** edits);
      }
      offerSplits(index, word, (term) => offer(i, term, config.compoundWeight));
    }
    const next = raw[i + 1];
    if (next !== undefined) {
      const joined = stem(word + next);
      offer(i, joined, config.compoundWeight);
      offer(i + 1, joined, config.compoundWeight);
    }
  });

  if (typing) {
    const last = raw.length - 1;
    const word = raw[last]!;
    const found = withinMass(index, index.completions(word, config.completions), index.df(stems[last]!), config.completionMassShare * n);
    const massOf = new Map<string, number>();
    for (const term of found) {
      const root = family(term);
      massOf.set(root, (massOf.get(root) ?? 0) + index.df(term));
    }
    const top = Math.max(1, ...massOf.values());
    for (const term of found) {
      offer(last, term, (massOf.get(family(term))! / top) ** config.completionExponent);
    }
  }
  if (synonyms) offerSynonyms(index, synonyms, { raw, stems, typing }, alternatives, config, offer);

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

/** The completions, most frequent first, while they and `held` (what the typed word matches itself) stay within `mass` postings; at least the first. */
function withinMass(index: TermStats, completions: string[], held: number, mass: number): string[] {
  let total = held;
  const kept: string[] = [];
  for (const term of completions) {
    total += index.df(term);
    if (kept.length > 0 && total > mass) break;
    kept.push(term);
  }
  return kept;
}

/** "dishwasher" → "dish" + "washer" when both halves are words of the catalogue. */
function offerSplits(index: TermStats, word: string, offer: (term: string) => void): void {
  for (let cut = 3; cut <= word.length - 3; cut++) {
    const left = word.slice(0, cut);
    const right = stem(word.slice(cut));
    if (index.df(left) > 0 && index.df(right) > 0) {
      offer(left);
      offer(right);
    }
  }
}

export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}
