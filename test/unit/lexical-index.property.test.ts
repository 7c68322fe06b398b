import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedEditDistance } from "../../src/core/search/edits.js";
import type { IndexedProduct } from "../../src/core/search/indexed-product.js";
import { HEAD_BONUS } from "../../src/core/search/search-document.js";
import { headTerm, terms } from "../../src/core/search/text.js";
import { FIELD_BREAK, LexicalIndex } from "../helpers/search-oracle/lexical-index.js";

// The in-memory index, the stored index's oracle (test/helpers/search-oracle),
// patches typed arrays in place, reuses the slots of removed products and
// caches typo scans per version. Here random sequences of changes
// run against it and against a naive model kept in maps and sets; after every
// step, every read the ranker and the query planner make must agree with the
// model. Text becomes terms through text.ts in both: what is tested is how the
// index keeps them, not how words are spelled.

/** Few products, so upserts often replace a live product and re-add a removed one. */
const PRODUCT_IDS = 8;

/** Words whose terms share prefixes (completions), lie an edit or two apart (typos) and collapse by plural stemming. */
const WORDS = [
  "Drill",
  "Drills",
  "Driller",
  "Drip",
  "Dr",
  "Cordless",
  "Hammer",
  "Hammers",
  "Ham",
  "Hamper",
  "Light",
  "Lights",
  "Lighting",
  "Lantern",
  "LED",
  "18",
  "in.",
  "Steel",
  "Kit",
  "Saw",
  "with",
  "for",
  "(Blue)",
  "Brass,",
];

const CODES = ["SKU-1", " sku-1 ", "SKU-2", "0001", ""];

const productIdArb = fc.integer({ min: 1, max: PRODUCT_IDS });
const textArb = fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }).map((words) => words.join(" "));

const upsertArb = fc.record({
  op: fc.constant("upsert" as const),
  product: fc.record({
    id: productIdArb,
    title: textArb,
    extras: fc.array(textArb, { maxLength: 3 }),
    codes: fc.array(fc.constantFrom(...CODES), { maxLength: 2 }),
    available: fc.boolean(),
  }),
});

const operationArb = fc.oneof(
  { weight: 6, arbitrary: upsertArb },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("remove" as const), id: productIdArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("setAvailable" as const), id: productIdArb, available: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("setPopularity" as const),
      entries: fc.array(
        fc.tuple(
          productIdArb,
          fc.integer({ min: 0, max: 4 }).map((quarters) => quarters / 4),
        ),
        { maxLength: PRODUCT_IDS },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("refreshPriors" as const), force: fc.boolean() }) },
);

type Operation = typeof operationArb extends fc.Arbitrary<infer T> ? T : never;

interface ModelDoc {
  product: IndexedProduct;
  titleTerms: string[];
  /** The extras' terms that are not in the title, each once, in order of appearance. */
  extraTerms: string[];
  /** Term frequency: occurrences, plus the head noun's bonus. */
  tf: Map<string, number>;
  /** Computed when upserted and at every refresh, from the document frequencies of that moment. */
  prior: number;
}

class Model {
  readonly docs = new Map<number, ModelDoc>();
  readonly postings = new Map<string, Set<number>>();
  /** Every term ever indexed: the index keeps a term id once given. */
  readonly seen = new Set<string>();
  popularity: ReadonlyMap<number, number> = new Map();
  /** The most products ever live at once: slots are only added when none is free. */
  peak = 0;

  upsert(product: IndexedProduct): void {
    this.remove(product.id);
    const titleTerms = terms(product.title);
    const extraTerms = [...new Set(product.extras.flatMap((text) => terms(text)))].filter((term) => !titleTerms.includes(term));
    const tf = new Map<string, number>();
    for (const term of [...titleTerms, ...extraTerms]) tf.set(term, (tf.get(term) ?? 0) + 1);
    const head = headTerm(product.title);
    if (head !== null && tf.has(head)) tf.set(head, tf.get(head)! + HEAD_BONUS);
    for (const term of tf.keys()) {
      this.seen.add(term);
      let docs = this.postings.get(term);
      if (!docs) this.postings.set(term, (docs = new Set()));
      docs.add(product.id);
    }
    const doc: ModelDoc = { product, titleTerms, extraTerms, tf, prior: 0 };
    this.docs.set(product.id, doc);
    doc.prior = this.priorOf(doc);
    this.peak = Math.max(this.peak, this.docs.size);
  }

  remove(id: number): void {
    const doc = this.docs.get(id);
    if (!doc) return;
    for (const term of doc.tf.keys()) this.postings.get(term)!.delete(id);
    this.docs.delete(id);
  }

  df(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }

  refreshPriors(): void {
    for (const doc of this.docs.values()) doc.prior = this.priorOf(doc);
  }

  /** Mean over the title's terms of ln(df)/ln(N). */
  priorOf(doc: ModelDoc): number {
    if (doc.titleTerms.length === 0) return 0;
    const logN = Math.log(Math.max(2, this.docs.size));
    const sum = doc.titleTerms.reduce((total, term) => total + Math.log(Math.max(1, this.df(term))) / logN, 0);
    return sum / doc.titleTerms.length;
  }

  /** Of the live products holding a code (case and surrounding space aside), the highest id. */
  productByCode(code: string): number | undefined {
    const wanted = code.trim().toLowerCase();
    const holders = [...this.docs.values()]
      .filter((doc) => wanted !== "" && doc.product.codes.some((own) => own.trim().toLowerCase() === wanted))
      .map((doc) => doc.product.id);
    return holders.length === 0 ? undefined : Math.max(...holders);
  }

  /** Live terms starting with `prefix`, other than it, by document frequency, ties alphabetical; the first `max`. */
  completions(prefix: string, max: number): string[] {
    return [...this.postings.keys()]
      .filter((term) => this.df(term) > 0 && term.startsWith(prefix) && term !== prefix)
      .sort((a, b) => this.df(b) - this.df(a) || (a < b ? -1 : 1))
      .slice(0, max);
  }

  nearTerms(word: string, maxEdits: number): { term: string; edits: number }[] {
    // boundedEditDistance has its own property test against a textbook distance.
    return [...this.postings.keys()]
      .filter((term) => this.df(term) > 0 && term !== word && word !== "" && term[0] === word[0])
      .map((term) => ({ term, edits: boundedEditDistance(word, term, maxEdits) }))
      .filter(({ edits }) => edits <= maxEdits);
  }
}

/** Which operations must bump `version` (rankings cached against an older one would be stale). */
function changesRanking(operation: Operation, model: Model, before: Snapshot): boolean {
  switch (operation.op) {
    case "upsert":
      return true;
    case "remove":
      return before.live.has(operation.id);
    case "setAvailable":
      return before.live.has(operation.id) && before.available.get(operation.id) !== operation.available;
    case "setPopularity":
    case "refreshPriors":
      // Only when some live product's popularity or prior moved.
      return [...model.docs.keys()].some(
        (id) => before.popularity.get(id) !== popularityOf(model, id) || before.prior.get(id) !== model.docs.get(id)!.prior,
      );
  }
}

interface Snapshot {
  live: Set<number>;
  available: Map<number, boolean>;
  popularity: Map<number, number>;
  prior: Map<number, number>;
}

function snapshot(model: Model): Snapshot {
  const ids = [...model.docs.keys()];
  return {
    live: new Set(ids),
    available: new Map(ids.map((id) => [id, model.docs.get(id)!.product.available])),
    popularity: new Map(ids.map((id) => [id, popularityOf(model, id)])),
    prior: new Map(ids.map((id) => [id, model.docs.get(id)!.prior])),
  };
}

/** Popularity is per product: a product upserted after the last setPopularity keeps its value. */
function popularityOf(model: Model, id: number): number {
  return Math.fround(model.popularity.get(id) ?? 0);
}

function applyOperation(index: LexicalIndex, model: Model, operation: Operation): void {
  switch (operation.op) {
    case "upsert":
      index.upsert(operation.product);
      model.upsert(operation.product);
      return;
    case "remove":
      index.remove(operation.id);
      model.remove(operation.id);
      return;
    case "setAvailable": {
      index.setAvailable(operation.id, operation.available);
      const doc = model.docs.get(operation.id);
      if (doc) doc.product = { ...doc.product, available: operation.available };
      return;
    }
    case "setPopularity":
      index.setPopularity(new Map(operation.entries));
      model.popularity = new Map(operation.entries);
      return;
    case "refreshPriors": {
      // Whether an unforced refresh is due is the index's call (a drift threshold);
      // either it recomputes every prior (and says so by a new version) or none.
      const version = index.version;
      index.refreshPriorsIfDrifted(operation.force);
      if (operation.force || index.version !== version) model.refreshPriors();
      return;
    }
  }
}

/** Prefixes of every term seen (and of none), and misspellings of them: what the planner asks while a shopper types. */
function probeWords(model: Model): string[] {
  const probes = new Set(["", "z", "drillz", "hamer", "ligth", "lantren"]);
  for (const term of model.seen) {
    for (let end = 1; end <= term.length; end++) probes.add(term.slice(0, end));
    probes.add(`${term}s`);
    if (term.length > 2) probes.add(term[0] + term.slice(2));
  }
  return [...probes];
}

const COMPLETION_MAXES = [1, 3, 50];
const MAX_EDITS = [1, 2];
const PROBE_CODES = [...CODES, "sku-1", "SKU-3", "  "];

/**
 * Everything the ranker and the query planner read, as plain data: the index's
 * view and the model's are compared whole after every step (one deep equality
 * instead of thousands of assertions keeps a run fast, and a failure shows the
 * difference).
 */
interface View {
  size: number;
  capacity: number;
  averageLength: number;
  /** One entry per occupied slot, by product id: a product in two slots shows twice. */
  docs: { product: number; terms: string[]; length: number; available: boolean; prior: number; popularity: number }[];
  byProduct: { has: boolean; available: boolean }[];
  /** Per term ever seen: [product, tf] for each posting, by product id. */
  postings: Record<string, [number, number][]>;
  completions: Record<string, string[]>;
  nearTerms: Record<string, string[]>;
  codes: Record<string, number | null>;
}

const byFirst = (a: [number, number], b: [number, number]) => a[0] - b[0];

function indexView(index: LexicalIndex, model: Model, probes: readonly string[]): View {
  const docs: View["docs"] = [];
  for (let doc = 0; doc < index.docCapacity; doc++) {
    const ids = index.termsOf(doc);
    if (ids === null) continue;
    docs.push({
      product: index.productOf(doc),
      terms: [...ids].map((id) => (id === FIELD_BREAK ? "|" : index.term(id))),
      length: index.docLength(doc),
      available: index.isAvailable(doc),
      prior: index.prior(doc),
      popularity: index.popularity(doc),
    });
  }
  const postings: View["postings"] = {};
  for (const term of model.seen) {
    const id = index.termId(term);
    const list = id === undefined ? undefined : index.postingsOf(id);
    if (list === undefined) continue;
    const found: [number, number][] = [];
    for (let i = 0; i < list.length; i++) found.push([index.productOf(list.docs[i]!), list.tfs[i]!]);
    postings[term] = found.sort(byFirst);
  }
  return {
    size: index.size,
    capacity: index.docCapacity,
    averageLength: index.averageLength,
    docs: docs.sort((a, b) => a.product - b.product),
    byProduct: productIds().map((id) => ({ has: index.has(id), available: index.isProductAvailable(id) })),
    postings,
    completions: queries(probes, COMPLETION_MAXES, (word, max) => index.completions(word, max).map((id) => index.term(id))),
    nearTerms: queries(probes, MAX_EDITS, (word, maxEdits) =>
      index
        .nearTerms(word, maxEdits)
        .map(({ term, edits }) => `${index.term(term)}:${edits}`)
        .sort(),
    ),
    codes: Object.fromEntries(PROBE_CODES.map((code) => [code, index.productByCode(code) ?? null])),
  };
}

function modelView(model: Model, probes: readonly string[]): View {
  const live = [...model.docs.values()];
  const totalLength = live.reduce((sum, doc) => sum + doc.titleTerms.length + doc.extraTerms.length, 0);
  const postings: View["postings"] = {};
  for (const term of model.seen) {
    postings[term] = [...(model.postings.get(term) ?? [])]
      .map((id): [number, number] => [id, model.docs.get(id)!.tf.get(term)!])
      .sort(byFirst);
  }
  return {
    size: live.length,
    capacity: model.peak,
    averageLength: live.length === 0 ? 1 : totalLength / live.length,
    docs: live
      .map(({ product, titleTerms, extraTerms, prior }) => ({
        product: product.id,
        terms: [...titleTerms, "|", ...extraTerms],
        length: titleTerms.length + extraTerms.length,
        available: product.available,
        // The index keeps priors and popularity as 32-bit floats.
        prior: Math.fround(prior),
        popularity: popularityOf(model, product.id),
      }))
      .sort((a, b) => a.product - b.product),
    byProduct: productIds().map((id) => ({ has: model.docs.has(id), available: model.docs.get(id)?.product.available ?? false })),
    postings,
    completions: queries(probes, COMPLETION_MAXES, (word, max) => model.completions(word, max)),
    nearTerms: queries(probes, MAX_EDITS, (word, maxEdits) =>
      model
        .nearTerms(word, maxEdits)
        .map(({ term, edits }) => `${term}:${edits}`)
        .sort(),
    ),
    codes: Object.fromEntries(PROBE_CODES.map((code) => [code, model.productByCode(code) ?? null])),
  };
}

function productIds(): number[] {
  return Array.from({ length: PRODUCT_IDS }, (_, i) => i + 1);
}

function queries<T>(probes: readonly string[], limits: readonly number[], ask: (word: string, limit: number) => T): Record<string, T> {
  const answers: Record<string, T> = {};
  for (const word of probes) for (const limit of limits) answers[`${word}/${limit}`] = ask(word, limit);
  return answers;
}

describe("lexical index against a naive model", () => {
  it("answers every read as the model does after each upsert, removal, re-add and refresh", () => {
    fc.assert(
      fc.property(fc.array(operationArb, { minLength: 1, maxLength: 40 }), (operations) => {
        const index = new LexicalIndex();
        const model = new Model();
        for (const operation of operations) {
          const before = snapshot(model);
          const version = index.version;
          applyOperation(index, model, operation);
          if (changesRanking(operation, model, before)) expect(index.version, `version after ${operation.op}`).toBeGreaterThan(version);
          const probes = probeWords(model);
          expect(indexView(index, model, probes), `after ${JSON.stringify(operation)}`).toEqual(modelView(model, probes));
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("a code thousands of products share (a placeholder barcode)", () => {
  it("finds the highest holder, also after it is removed, at any number of holders", () => {
    const index = new LexicalIndex();
    const holders = 200_000;
    for (let id = 1; id <= holders; id++) index.upsert({ id, title: "lamp", extras: [], codes: ["N/A"], available: true });
    expect(index.productByCode("n/a")).toBe(holders);
    index.remove(holders);
    expect(index.productByCode("N/A")).toBe(holders - 1);
    index.remove(1);
    expect(index.productByCode("N/A")).toBe(holders - 1);
  });
});
