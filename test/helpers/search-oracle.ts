// The search ranking from its definition (the README's Matching and Ranking,
// and the rules stated below), computed by brute force over every product: the
// oracle the stored index and its ranker are checked against. Nothing here is indexed, bounded or cached: each query plans its
// words against the whole vocabulary and scores every product that matches.
// Words become terms through text.ts, as in the index: how words are spelled
// is tested on its own, how the index ranks them is what this checks.
import { boundedEditDistance, editBudget } from "../../src/core/search/edits.js";
import type { IndexedProduct } from "../../src/core/search/indexed-product.js";
import { DEFAULT_RANKING, type RankingConfig } from "../../src/core/search/query-plan.js";
import type { RankOptions } from "../../src/core/search/ranker.js";
import { HEAD_BONUS } from "../../src/core/search/search-document.js";
import { family, hasDigit, headTerm, stem, terms, words } from "../../src/core/search/text.js";

/** A query word in more than this share of products brings in no product of its own once rarer words found k. */
const COMMON_SHARE = 0.25;

interface Doc {
  product: IndexedProduct;
  /** The title's terms in order, repeats kept. */
  titleTerms: string[];
  /** BM25's length: the title's terms and the extras' terms not in the title, each once. */
  length: number;
  /** Per term: its count in the title (1 for a term only in the extras), plus HEAD_BONUS for the title's head noun. */
  tf: Map<string, number>;
  codes: string[];
}

/** A query word and the terms that may stand for it, each with its weight. */
interface Slot {
  alternatives: Map<string, number>;
  /** BM25's idf of all the alternatives together. */
  idf: number;
  /** The alternatives' document frequencies summed. */
  mass: number;
}

const normaliseCode = (code: string) => code.trim().toLowerCase();

function docOf(product: IndexedProduct): Doc {
  const titleTerms = terms(product.title);
  const extraTerms = [...new Set(product.extras.flatMap(terms))].filter((term) => !titleTerms.includes(term));
  const tf = new Map<string, number>();
  for (const term of titleTerms) tf.set(term, (tf.get(term) ?? 0) + 1);
  for (const term of extraTerms) tf.set(term, 1);
  const head = headTerm(product.title);
  if (head !== null && tf.has(head)) tf.set(head, tf.get(head)! + HEAD_BONUS);
  const codes = product.codes.map(normaliseCode).filter((code) => code !== "");
  return { product, titleTerms, length: titleTerms.length + extraTerms.length, tf, codes };
}

export class SearchOracle {
  private readonly docs: Doc[];
  /** Products holding each term. */
  private readonly dfs = new Map<string, number>();
  private readonly averageLength: number;

  /** `popularity`: each product's sales popularity in [0, 1]; a product left out has 0. */
  constructor(
    products: readonly IndexedProduct[],
    private readonly popularity: ReadonlyMap<number, number>,
  ) {
    this.docs = products.map(docOf);
    for (const doc of this.docs) for (const term of doc.tf.keys()) this.dfs.set(term, this.df(term) + 1);
    const totalLength = this.docs.reduce((sum, doc) => sum + doc.length, 0);
    this.averageLength = this.docs.length === 0 ? 1 : totalLength / this.docs.length;
  }

  /** Product ids, best first. */
  rank(query: string, options: RankOptions, config: RankingConfig = DEFAULT_RANKING): number[] {
    const shown = (doc: Doc) => (options.eligible?.(doc.product.id) ?? true) && (doc.product.available || options.outOfStock === "last");
    // A query that is exactly a code puts the highest-id product holding it first, in stock or not.
    const code = normaliseCode(query);
    const holders = this.docs.filter((doc) => code !== "" && doc.codes.includes(code)).map((doc) => doc.product.id);
    const byCode = holders.length === 0 ? undefined : Math.max(...holders);
    const ranked = byCode !== undefined && (options.eligible?.(byCode) ?? true) ? [byCode] : [];

    const slots = this.plan(query, config);
    if (slots.length === 0) return ranked;
    // Rarest words first (by the document frequencies of their alternatives): the order the rule below follows,
    // and the order scores are summed in. Once the rarer words have matched k products, a word in more than a
    // quarter of the products brings in no product of its own; it still scores the products matched already.
    const rarestFirst = [...slots].sort((a, b) => a.mass - b.mass);
    const matched = new Set<Doc>();
    for (const slot of rarestFirst) {
      if (slot.mass > this.docs.length * COMMON_SHARE && matched.size >= options.k) continue;
      for (const doc of this.docs) if ([...slot.alternatives.keys()].some((term) => doc.tf.has(term))) matched.add(doc);
    }
    const scored = [...matched]
      .filter((doc) => doc.product.id !== byCode && shown(doc))
      .map((doc) => ({
        doc,
        score: this.score(doc, slots, rarestFirst, config) + (options.boosted?.has(doc.product.id) ? config.boostWeight : 0),
      }));
    // Out-of-stock products after every available one; ties by lower product id.
    scored.sort(
      (x, y) =>
        Number(y.doc.product.available) - Number(x.doc.product.available) || y.score - x.score || x.doc.product.id - y.doc.product.id,
    );
    return [...ranked, ...scored.slice(0, Math.max(0, options.k - ranked.length)).map(({ doc }) => doc.product.id)];
  }

  /**
   * B·(m/R) + coverageWeight·(m/R)² + adjacencyWeight·adjacent/(R−1) + priorWeight·prior + popularityWeight·popularity
   * (a merchant's boost is added by rank),
   * B the sum of the matched words' BM25 (each through its best alternative). The index keeps per-word scores and
   * their sum, the prior and popularity as 32-bit floats: they are rounded here where it rounds them.
   */
  private score(doc: Doc, slots: readonly Slot[], rarestFirst: readonly Slot[], config: RankingConfig): number {
    let bm25 = 0;
    let matchedWords = 0;
    for (const slot of rarestFirst) {
      const best = Math.max(
        ...[...slot.alternatives]
          .filter(([term]) => doc.tf.has(term))
          .map(([term, weight]) => weight * this.bm25(doc, term, slot.idf, config)),
      );
      if (best === -Infinity) continue;
      bm25 = Math.fround(bm25 + Math.fround(best));
      matchedWords++;
    }
    const coverage = matchedWords / slots.length;
    const adjacency = slots.length > 1 ? (config.adjacencyWeight * adjacentPairs(doc.titleTerms, slots)) / (slots.length - 1) : 0;
    return (
      bm25 * coverage +
      config.coverageWeight * coverage * coverage +
      config.priorWeight * this.prior(doc) +
      config.popularityWeight * Math.fround(this.popularity.get(doc.product.id) ?? 0) +
      adjacency
    );
  }

  private bm25(doc: Doc, term: string, idf: number, { k1, b }: RankingConfig): number {
    const tf = doc.tf.get(term)!;
    return (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / this.averageLength));
  }

  /** How generic the product is: the mean over its title's terms (repeats counted) of ln df / ln N. */
  private prior(doc: Doc): number {
    if (doc.titleTerms.length === 0) return 0;
    const logN = Math.log(Math.max(2, this.docs.length));
    const sum = doc.titleTerms.reduce((total, term) => total + Math.log(Math.max(1, this.df(term))) / logN, 0);
    return Math.fround(sum / doc.titleTerms.length);
  }

  private df(term: string): number {
    return this.dfs.get(term) ?? 0;
  }

  /**
   * One slot per query word (at most maxWords): the word's stem; for a word in at most rareDf products and without
   * digits, the terms within its edit budget that share its first letter (typoWeight per edit) and the halves of it
   * that are terms; the stem of it joined with a neighbour; and for the last word while it is typed (no trailing
   * space), its most frequent completions, weighed by their word family's share. Only terms some product holds.
   */
  private plan(query: string, config: RankingConfig): Slot[] {
    const raw = words(query).slice(0, config.maxWords);
    const alternatives = raw.map(() => new Map<string, number>());
    const offer = (slot: number, term: string, weight: number) => {
      if (this.df(term) > 0 && weight > (alternatives[slot]!.get(term) ?? 0)) alternatives[slot]!.set(term, weight);
    };
    raw.forEach((word, i) => {
      const exact = stem(word);
      offer(i, exact, 1);
      if (this.df(exact) <= config.rareDf && !hasDigit(word)) {
        const budget = editBudget(word.length);
        for (const term of budget > 0 ? this.dfs.keys() : []) {
          if (term === exact || term[0] !== exact[0]) continue;
          const edits = boundedEditDistance(exact, term, budget);
          if (edits <= budget) offer(i, term, config.typoWeight ** edits);
        }
        for (let cut = 3; cut <= word.length - 3; cut++) {
          const [left, right] = [word.slice(0, cut), stem(word.slice(cut))];
          if (this.df(left) > 0 && this.df(right) > 0) [left, right].forEach((half) => offer(i, half, config.compoundWeight));
        }
      }
      const next = raw[i + 1];
      if (next !== undefined) [i, i + 1].forEach((slot) => offer(slot, stem(word + next), config.compoundWeight));
    });
    const last = raw.at(-1);
    if (last !== undefined && !/\s$/.test(query)) {
      const completions = [...this.dfs.keys()]
        .filter((term) => term.startsWith(last) && term !== last && this.df(term) > 0)
        .sort((a, b) => this.df(b) - this.df(a) || (a < b ? -1 : 1))
        .slice(0, config.completions);
      // Within the share of the catalogue a typed word may reach: the most frequent first, at least one.
      let reach = this.df(stem(last));
      const cut = completions.findIndex(
        (term, i) => (reach += this.df(term)) > config.completionMassShare * Math.max(1, this.docs.length) && i > 0,
      );
      if (cut !== -1) completions.length = cut;
      const familyMass = new Map<string, number>();
      for (const term of completions) familyMass.set(family(term), (familyMass.get(family(term)) ?? 0) + this.df(term));
      const top = Math.max(1, ...familyMass.values());
      for (const term of completions) offer(raw.length - 1, term, (familyMass.get(family(term))! / top) ** config.completionExponent);
    }
    const n = Math.max(1, this.docs.length);
    return alternatives.map((map) => {
      const mass = [...map.keys()].reduce((sum, term) => sum + this.df(term), 0);
      const df = Math.min(n, mass);
      return { alternatives: map, mass, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) };
    });
  }
}

/** How many neighbouring query words stand side by side, in order, in the title. */
function adjacentPairs(titleTerms: readonly string[], slots: readonly Slot[]): number {
  let pairs = 0;
  for (let s = 0; s + 1 < slots.length; s++) {
    const [left, right] = [slots[s]!.alternatives, slots[s + 1]!.alternatives];
    if (titleTerms.some((term, p) => left.has(term) && right.has(titleTerms[p + 1] ?? ""))) pairs++;
  }
  return pairs;
}
