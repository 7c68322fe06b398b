// The oracle of the stored search index: the in-memory index each pool worker
// kept before the index was stored, as it was. An inverted index over the words
// of each product, kept in typed arrays (integer doc numbers, no objects per
// posting) and patched in place when one product changes. Built from a
// catalogue with its priors refreshed, it ranks (with query-plan.ts and
// ranker.ts beside it) as the stored index must.
import { boundedEditDistance } from "../../../src/core/search/edits.js";
import { normaliseCode, type IndexedProduct } from "../../../src/core/search/indexed-product.js";
import { HEAD_BONUS } from "../../../src/core/search/search-document.js";
import { headTerm, terms } from "../../../src/core/search/text.js";

/** A term's documents and term frequencies, in no particular order. */
interface Postings {
  docs: Int32Array;
  tfs: Float32Array;
  length: number;
}

/** Separates the title's terms from the extras' in a doc's term list, so phrases never span fields. */
export const FIELD_BREAK = -1;

export class LexicalIndex {
  // ── vocabulary ──
  private readonly termIds = new Map<string, number>();
  private readonly termText: string[] = [];
  private readonly postings: Postings[] = [];
  /** Every term ever seen, sorted, for prefix ranges and typo scans; sortedIds holds their ids. */
  private readonly sorted: string[] = [];
  private readonly sortedIds: number[] = [];
  /** Typo candidates by word, valid while the vocabulary and its frequencies stay the same. */
  private readonly nearCache = new Map<string, { term: number; edits: number }[]>();
  private nearCacheVersion = -1;

  // ── documents (slots are reused after a delete) ──
  private capacity = 0;
  private docProduct = new Float64Array(0);
  private docLengths = new Float32Array(0);
  private docAvailable = new Uint8Array(0);
  private docPriors = new Float32Array(0);
  private docPopularity = new Float32Array(0);
  private readonly docTerms: (Int32Array | null)[] = [];
  private readonly docOf = new Map<number, number>();
  private readonly freeDocs: number[] = [];
  private liveDocs = 0;
  private totalLength = 0;
  /** Live doc count when the priors were last computed; they drift as document frequencies change. */
  private priorsAt = 0;
  /** The popularity last set: a product upserted since (edited, re-added) takes its value from it, not 0. */
  private popularityByProduct: ReadonlyMap<number, number> = new Map();

  /**
   * The products holding each code: one id, or several where a shop reuses a
   * SKU (or puts one placeholder barcode on thousands of products). A code
   * finds the highest id among them, in whatever order they were indexed (a
   * patched index finds what a fresh build does), and the next once that one
   * is removed. Adding and removing a holder cost the same however many share
   * the code; only removing the highest one looks through the rest.
   */
  private readonly codes = new Map<string, number | SharedCode>();
  private readonly codesOf = new Map<number, string[]>();

  /** Bumped by every change: rankings cached against an older value are stale. */
  version = 0;

  get size(): number {
    return this.liveDocs;
  }

  get docCapacity(): number {
    return this.capacity;
  }

  get averageLength(): number {
    return this.liveDocs === 0 ? 1 : this.totalLength / this.liveDocs;
  }

  has(productId: number): boolean {
    return this.docOf.has(productId);
  }

  upsert(product: IndexedProduct): void {
    this.remove(product.id);
    const doc = this.freeDocs.pop() ?? this.grow();
    const titleTerms = terms(product.title);
    const inTitle = new Set(titleTerms);
    const extraTerms = [...new Set(product.extras.flatMap((text) => terms(text)))].filter((term) => !inTitle.has(term));
    const ids = new Int32Array(titleTerms.length + 1 + extraTerms.length);
    let at = 0;
    for (const term of titleTerms) ids[at++] = this.intern(term);
    ids[at++] = FIELD_BREAK;
    for (const term of extraTerms) ids[at++] = this.intern(term);

    const frequencies = new Map<number, number>();
    for (const id of ids) if (id !== FIELD_BREAK) frequencies.set(id, (frequencies.get(id) ?? 0) + 1);
    const head = headTerm(product.title);
    const headId = head === null ? undefined : this.termIds.get(head);
    if (headId !== undefined && frequencies.has(headId)) frequencies.set(headId, frequencies.get(headId)! + HEAD_BONUS);
    for (const [term, tf] of frequencies) this.addPosting(term, doc, tf);

    const length = titleTerms.length + extraTerms.length;
    this.docProduct[doc] = product.id;
    this.docLengths[doc] = length;
    this.docAvailable[doc] = product.available ? 1 : 0;
    this.docPopularity[doc] = this.popularityByProduct.get(product.id) ?? 0;
    this.docTerms[doc] = ids;
    this.docOf.set(product.id, doc);
    this.liveDocs++;
    this.totalLength += length;
    this.docPriors[doc] = this.priorOf(ids);
    const codes = [...new Set(product.codes.map(normaliseCode).filter((code) => code !== ""))];
    for (const code of codes) {
      const held = this.codes.get(code);
      if (held === undefined) this.codes.set(code, product.id);
      else if (typeof held === "number") this.codes.set(code, { ids: new Set([held, product.id]), highest: Math.max(held, product.id) });
      else {
        held.ids.add(product.id);
        held.highest = Math.max(held.highest, product.id);
      }
    }
    if (codes.length > 0) this.codesOf.set(product.id, codes);
    this.version++;
  }

  remove(productId: number): void {
    const doc = this.docOf.get(productId);
    if (doc === undefined) return;
    const ids = this.docTerms[doc]!;
    const seen = new Set<number>();
    for (const id of ids) {
      if (id === FIELD_BREAK || seen.has(id)) continue;
      seen.add(id);
      this.removePosting(id, doc);
    }
    for (const code of this.codesOf.get(productId) ?? []) this.releaseCode(code, productId);
    this.codesOf.delete(productId);
    this.totalLength -= this.docLengths[doc]!;
    this.docTerms[doc] = null;
    this.docOf.delete(productId);
    this.freeDocs.push(doc);
    this.liveDocs--;
    this.version++;
  }

  /**
   * Recomputes every doc's prior once the catalogue has changed enough for them
   * to drift (a few changes move document frequencies, and so priors, by little).
   */
  refreshPriorsIfDrifted(force = false): void {
    if (!force && Math.abs(this.liveDocs - this.priorsAt) <= Math.max(10, this.priorsAt * 0.01)) return;
    for (let doc = 0; doc < this.capacity; doc++) {
      const ids = this.docTerms[doc];
      if (ids) this.docPriors[doc] = this.priorOf(ids);
    }
    this.priorsAt = this.liveDocs;
    this.version++;
  }

  setAvailable(productId: number, available: boolean): void {
    const doc = this.docOf.get(productId);
    if (doc === undefined) return;
    this.docAvailable[doc] = available ? 1 : 0;
    this.version++;
  }

  /**
   * Popularity in [0, 1] per product (sales); products not listed get 0. The
   * map is kept, not copied, for products upserted later: do not change it.
   */
  setPopularity(popularity: ReadonlyMap<number, number>): void {
    this.popularityByProduct = popularity;
    this.docPopularity.fill(0);
    for (const [productId, value] of popularity) {
      const doc = this.docOf.get(productId);
      if (doc !== undefined) this.docPopularity[doc] = value;
    }
    this.version++;
  }

  // ── reads for the ranker ──

  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }

  term(id: number): string {
    return this.termText[id]!;
  }

  df(termId: number): number {
    return this.postings[termId]?.length ?? 0;
  }

  postingsOf(termId: number): Postings | undefined {
    return this.postings[termId];
  }

  /**
   * The per-doc columns as they are now, for the ranker's hot loops (typed
   * array reads instead of a method call per posting). Replaced when the index
   * grows: read them again for every query.
   */
  columns(): { products: Float64Array; lengths: Float32Array; available: Uint8Array; priors: Float32Array; popularity: Float32Array } {
    return {
      products: this.docProduct,
      lengths: this.docLengths,
      available: this.docAvailable,
      priors: this.docPriors,
      popularity: this.docPopularity,
    };
  }

  productOf(doc: number): number {
    return this.docProduct[doc]!;
  }

  docLength(doc: number): number {
    return this.docLengths[doc]!;
  }

  isAvailable(doc: number): boolean {
    return this.docAvailable[doc] === 1;
  }

  isProductAvailable(productId: number): boolean {
    const doc = this.docOf.get(productId);
    return doc !== undefined && this.docAvailable[doc] === 1;
  }

  prior(doc: number): number {
    return this.docPriors[doc]!;
  }

  popularity(doc: number): number {
    return this.docPopularity[doc]!;
  }

  termsOf(doc: number): Int32Array | null {
    return this.docTerms[doc] ?? null;
  }

  productByCode(code: string): number | undefined {
    const held = this.codes.get(normaliseCode(code));
    return typeof held === "object" ? held.highest : held;
  }

  private releaseCode(code: string, productId: number): void {
    const held = this.codes.get(code);
    if (typeof held !== "object") {
      if (held === productId) this.codes.delete(code);
      return;
    }
    held.ids.delete(productId);
    if (held.ids.size === 1) this.codes.set(code, held.ids.values().next().value!);
    else if (productId === held.highest) {
      let highest = 0;
      for (const id of held.ids) if (id > highest) highest = id;
      held.highest = highest;
    }
  }

  /** Terms in use that start with `prefix` (other than `prefix` itself), most frequent first. */
  completions(prefix: string, max: number): number[] {
    // A short prefix spans thousands of terms: keep the best `max` while scanning
    // (terms come in alphabetical order, so ties keep the alphabetically first).
    const best: number[] = [];
    const end = lowerBound(this.sorted, `${prefix}\uffff`);
    for (let i = lowerBound(this.sorted, prefix); i < end; i++) {
      const id = this.sortedIds[i]!;
      const df = this.df(id);
      if (df === 0 || this.sorted[i] === prefix) continue;
      if (best.length === max && df <= this.df(best[max - 1]!)) continue;
      let at = best.length === max ? max - 1 : best.length;
      while (at > 0 && this.df(best[at - 1]!) < df) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = id;
    }
    return best;
  }

  /**
   * Terms in use within `maxEdits` of `word`. Only terms sharing its first
   * letter are scanned: first letters are rarely mistyped, and it keeps the
   * scan to a few thousand terms.
   */
  nearTerms(word: string, maxEdits: number): { term: number; edits: number }[] {
    if (this.nearCacheVersion !== this.version) {
      this.nearCache.clear();
      this.nearCacheVersion = this.version;
    }
    const key = `${maxEdits}:${word}`;
    let found = this.nearCache.get(key);
    if (!found) {
      found = this.scanNearTerms(word, maxEdits);
      // Typing repeats a rare word at every later keystroke of the query.
      if (this.nearCache.size >= 10_000) this.nearCache.clear();
      this.nearCache.set(key, found);
    }
    return found;
  }

  private scanNearTerms(word: string, maxEdits: number): { term: number; edits: number }[] {
    const found: { term: number; edits: number }[] = [];
    const first = word[0] ?? "";
    for (let i = lowerBound(this.sorted, first); i < this.sorted.length; i++) {
      const term = this.sorted[i]!;
      if (term[0] !== first) break;
      if (Math.abs(term.length - word.length) > maxEdits || term === word) continue;
      const edits = boundedEditDistance(word, term, maxEdits);
      if (edits > maxEdits) continue;
      const id = this.sortedIds[i]!;
      if (this.df(id) > 0) found.push({ term: id, edits });
    }
    return found;
  }

  private intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termText.length;
      this.termIds.set(term, id);
      this.termText.push(term);
      this.postings.push({ docs: new Int32Array(2), tfs: new Float32Array(2), length: 0 });
      const at = lowerBound(this.sorted, term);
      this.sorted.splice(at, 0, term);
      this.sortedIds.splice(at, 0, id);
    }
    return id;
  }

  private addPosting(term: number, doc: number, tf: number): void {
    const list = this.postings[term]!;
    if (list.length === list.docs.length) {
      const docs = new Int32Array(list.docs.length * 2);
      docs.set(list.docs);
      const tfs = new Float32Array(list.tfs.length * 2);
      tfs.set(list.tfs);
      list.docs = docs;
      list.tfs = tfs;
    }
    list.docs[list.length] = doc;
    list.tfs[list.length] = tf;
    list.length++;
  }

  private removePosting(term: number, doc: number): void {
    const list = this.postings[term]!;
    for (let i = 0; i < list.length; i++) {
      if (list.docs[i] !== doc) continue;
      // Order does not matter to the ranker: fill the hole with the last posting.
      list.length--;
      list.docs[i] = list.docs[list.length]!;
      list.tfs[i] = list.tfs[list.length]!;
      return;
    }
  }

  /**
   * How generic a product is: the mean over its title's terms of ln(df)/ln(N).
   * Among products matching a query equally well, shoppers mostly mean the
   * plain product ("drill"), not an accessory with rare extra words.
   */
  private priorOf(ids: Int32Array): number {
    const logN = Math.log(Math.max(2, this.liveDocs));
    let sum = 0;
    let count = 0;
    for (const id of ids) {
      if (id === FIELD_BREAK) break;
      sum += Math.log(Math.max(1, this.df(id))) / logN;
      count++;
    }
    return count === 0 ? 0 : sum / count;
  }

  private grow(): number {
    const doc = this.capacity;
    if (doc === this.docProduct.length) {
      const size = Math.max(1024, this.docProduct.length * 2);
      this.docProduct = resized(this.docProduct, new Float64Array(size));
      this.docLengths = resized(this.docLengths, new Float32Array(size));
      this.docAvailable = resized(this.docAvailable, new Uint8Array(size));
      this.docPriors = resized(this.docPriors, new Float32Array(size));
      this.docPopularity = resized(this.docPopularity, new Float32Array(size));
    }
    this.capacity++;
    this.docTerms.push(null);
    return doc;
  }
}

function resized<T extends Float64Array | Float32Array | Uint8Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}

/** A code several products hold, and the highest of their ids (the one the code finds). */
interface SharedCode {
  ids: Set<number>;
  highest: number;
}

/** First index whose string is ≥ key. */
function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < key) low = mid + 1;
    else high = mid;
  }
  return low;
}
