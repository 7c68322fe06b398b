// A merchant's synonyms as the query planner uses them: more alternatives for
// a query word's slot. Expanding at the term level, inside the word's slot,
// keeps scoring sane: a slot scores through its best alternative and its
// alternatives share one idf, so a product holding both the word and its
// synonym counts the word once, and a word with many synonyms does not
// outweigh the other words of the query.
import type { TermStats } from "../index-view.js";
import { boundedEditDistance, editBudget } from "../edits.js";
import { hasDigit, terms } from "../text.js";
import type { Synonym } from "./settings.js";

/** A phrase as index terms, in order: "T-Shirts" is ["t", "shirt"]. */
type Phrase = readonly string[];

export interface SynonymTable {
  /** What each one-word key also stands for. */
  readonly byTerm: ReadonlyMap<string, readonly Phrase[]>;
  /** The one-word keys by first letter: for typos (which keep the first letter, as the index's do) and completions. */
  readonly keysByLetter: ReadonlyMap<string, readonly string[]>;
  /** Keys of several words, matched as that run of query words. */
  readonly phrases: readonly { terms: Phrase; targets: readonly Phrase[] }[];
}

/**
 * A synonym scores a little below the word as typed. To the merchant both
 * name the same thing, but among products that match equally well, the one
 * named the way the shopper typed is the likelier pick; the same discount as
 * a compound ("dish washer" for "dishwasher"), which is also the same thing
 * written another way.
 */
export const SYNONYM_WEIGHT = 0.9;

/** A shorter typed prefix stands for too many words to guess which key was meant. */
const MIN_COMPLETED_PREFIX = 3;

/** What the planner's typo rules say: which words may be misspelt, and what an edit costs. */
export interface TypoRules {
  rareDf: number;
  typoWeight: number;
}

/** The query words as the planner holds them. */
export interface PlannedWords {
  raw: readonly string[];
  stems: readonly string[];
  /** The last word may be unfinished. */
  typing: boolean;
}

/** The table of a merchant's synonym rules; null when there are none. */
export function compileSynonyms(rules: readonly Synonym[]): SynonymTable | null {
  const targets = new Map<string, Map<string, Phrase>>();
  const link = (from: Phrase, to: Phrase) => {
    const key = from.join(" ");
    const target = to.join(" ");
    if (key === target) return;
    let known = targets.get(key);
    if (!known) targets.set(key, (known = new Map()));
    known.set(target, to);
  };
  for (const rule of rules) {
    const phrases = rule.synonyms.map(terms);
    if (rule.type === "one_way") {
      const root = terms(rule.root);
      for (const phrase of phrases) link(root, phrase);
    } else {
      for (const from of phrases) for (const to of phrases) link(from, to);
    }
  }
  if (targets.size === 0) return null;
  const byTerm = new Map<string, Phrase[]>();
  const phrases: { terms: Phrase; targets: Phrase[] }[] = [];
  for (const [key, known] of targets) {
    const keyTerms = key.split(" ");
    if (keyTerms.length === 1) byTerm.set(key, [...known.values()]);
    else phrases.push({ terms: keyTerms, targets: [...known.values()] });
  }
  const keysByLetter = new Map<string, string[]>();
  for (const key of byTerm.keys()) {
    const letter = key[0]!;
    const keys = keysByLetter.get(letter) ?? [];
    keys.push(key);
    keysByLetter.set(letter, keys);
  }
  return { byTerm, keysByLetter, phrases };
}

/**
 * Offers each query word's synonyms to its slot, through `offer`. A word
 * stands for a key when it is the key, when its slot already holds the key
 * (the index's typo, compound or completion alternatives, at their weight),
 * when it is a typo of a key the catalogue does not hold (by the index's own
 * typo rules), or, for the word being typed, when it begins a key. A key of
 * several words stands for its synonyms in each slot of its run, so a product
 * holding the synonym covers the whole run.
 */
export function offerSynonyms(
  index: TermStats,
  table: SynonymTable,
  query: PlannedWords,
  alternatives: readonly ReadonlyMap<string, number>[],
  rules: TypoRules,
  offer: (slot: number, term: string, weight: number) => void,
): void {
  const offers: { slot: number; target: Phrase; weight: number }[] = [];
  query.stems.forEach((stemmed, slot) => {
    const keys = new Map<string, number>();
    const consider = (key: string, weight: number) => {
      if (table.byTerm.has(key) && (keys.get(key) ?? 0) < weight) keys.set(key, weight);
    };
    consider(stemmed, 1);
    for (const [term, weight] of alternatives[slot]!) consider(term, weight);
    const word = query.raw[slot]!;
    const sameLetter = table.keysByLetter.get(stemmed[0] ?? "") ?? [];
    // Common words of the shop are spelled right, as the index's typo rule has it.
    if (index.df(stemmed) <= rules.rareDf && !hasDigit(word)) {
      const budget = editBudget(word.length);
      for (const key of budget > 0 ? sameLetter : []) {
        const edits = boundedEditDistance(stemmed, key, budget);
        if (edits > 0 && edits <= budget) consider(key, rules.typoWeight ** edits);
      }
    }
    if (query.typing && slot === query.raw.length - 1 && word.length >= MIN_COMPLETED_PREFIX) {
      // A completed key is a guess, as a one-edit correction is: weighed alike.
      for (const key of sameLetter) if (key.length > word.length && key.startsWith(word)) consider(key, rules.typoWeight);
    }
    for (const [key, weight] of keys) {
      for (const target of table.byTerm.get(key)!) offers.push({ slot, target, weight: weight * SYNONYM_WEIGHT });
    }
  });
  for (const phrase of table.phrases) {
    const length = phrase.terms.length;
    for (let start = 0; start + length <= query.stems.length; start++) {
      if (!phrase.terms.every((term, i) => query.stems[start + i] === term)) continue;
      for (let slot = start; slot < start + length; slot++) {
        for (const target of phrase.targets) offers.push({ slot, target, weight: SYNONYM_WEIGHT });
      }
    }
  }
  for (const { slot, target, weight } of offers) {
    const term = standIn(index, target);
    if (term !== null) offer(slot, term, weight);
  }
}

/**
 * The one term a target phrase is looked up by: the phrase itself when it is
 * one word; of several, the rarest, since the products holding it are the
 * fewest that can hold the whole phrase. null when some word of it is in no
 * product: then no product holds the phrase.
 */
function standIn(index: TermStats, phrase: Phrase): string | null {
  if (phrase.length === 1) return phrase[0]!;
  let rarest: string | null = null;
  let least = Infinity;
  for (const term of phrase) {
    const df = index.df(term);
    if (df === 0) return null;
    if (df < least) {
      least = df;
      rarest = term;
    }
  }
  return rarest;
}
