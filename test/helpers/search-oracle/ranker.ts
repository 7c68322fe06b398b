// The oracle's ranker (see lexical-index.ts): scores a planned query over the
// in-memory index, every touched product with its exact prior.
import { DEFAULT_RANKING, type RankingConfig } from "../../../src/core/search/query-plan.js";
import type { RankOptions } from "../../../src/core/search/ranker.js";
import { FIELD_BREAK, type LexicalIndex } from "./lexical-index.js";
import type { QueryPlan } from "./query-plan.js";

/** Out-of-stock products sink below every available one, keeping their order among themselves. */
const OUT_OF_STOCK_PENALTY = 1e6;

/** A query word in more than this share of products is too common to bring in candidates of its own. */
const COMMON_SHARE = 0.25;

/** Scratch space reused across queries: one query allocates nothing per matched product. */
class Scratch {
  capacity = 0;
  total = new Float32Array(0);
  matched = new Uint8Array(0);
  slotBest = new Float32Array(0);
  seenStamp = new Int32Array(0);
  slotStamp = new Int32Array(0);
  stamp = 0;
  touched = new Int32Array(0);
  slotDocs = new Int32Array(0);
  private baseScores = new Float64Array(0);

  /** Base scores of the touched docs, by position in `touched`. */
  base(count: number): Float64Array {
    if (this.baseScores.length < count) this.baseScores = new Float64Array(Math.max(1024, count * 2));
    return this.baseScores;
  }

  fit(capacity: number): void {
    if (capacity <= this.capacity) return;
    const size = Math.max(1024, capacity * 2);
    this.total = new Float32Array(size);
    this.matched = new Uint8Array(size);
    this.slotBest = new Float32Array(size);
    this.seenStamp = new Int32Array(size);
    this.slotStamp = new Int32Array(size);
    this.touched = new Int32Array(size);
    this.slotDocs = new Int32Array(size);
    this.capacity = size;
  }
}

const scratch = new Scratch();

/** Product ids, best first. */
export function rankProducts(
  index: LexicalIndex,
  plan: QueryPlan,
  options: RankOptions,
  config: RankingConfig = DEFAULT_RANKING,
): number[] {
  const ranked: number[] = [];
  const byCode = plan.code === "" ? undefined : index.productByCode(plan.code);
  if (byCode !== undefined && (options.eligible?.(byCode) ?? true)) ranked.push(byCode);

  const r = plan.slots.length;
  if (r === 0) return ranked;
  scratch.fit(index.docCapacity);
  const { total, matched, slotBest, seenStamp, slotStamp, touched, slotDocs } = scratch;
  const { products, lengths, available, priors, popularity } = index.columns();
  const queryStamp = ++scratch.stamp;
  let touchedCount = 0;
  const { k1, b } = config;
  // BM25's length normalisation, folded into two constants per query.
  const lengthScale = (k1 * b) / index.averageLength;
  const lengthBase = k1 * (1 - b);

  // Rarest words first: once they have found enough products, a word nearly
  // every product has ("in", "x") only adds to those, instead of touching most
  // of the catalogue for products that could only match it.
  // The code's product counts toward k: a list of k with it first.
  const k = options.k;
  const commonMass = index.size * COMMON_SHARE;
  const order = plan.slots
    .map((slot) => ({ slot, mass: slot.alternatives.reduce((sum, a) => sum + index.df(a.term), 0) }))
    .sort((x, y) => x.mass - y.mass);
  for (const { slot, mass } of order) {
    const addOnly = mass > commonMass && touchedCount >= k;
    const slotStampValue = ++scratch.stamp;
    let slotCount = 0;
    for (const { term, weight } of slot.alternatives) {
      const postings = index.postingsOf(term);
      if (!postings) continue;
      const { docs, tfs, length } = postings;
      const scale = weight * slot.idf * (k1 + 1);
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (addOnly && seenStamp[doc] !== queryStamp) continue;
        const tf = tfs[i]!;
        const score = (scale * tf) / (tf + lengthBase + lengthScale * lengths[doc]!);
        if (slotStamp[doc] !== slotStampValue) {
          slotStamp[doc] = slotStampValue;
          slotBest[doc] = score;
          slotDocs[slotCount++] = doc;
        } else if (score > slotBest[doc]!) {
          slotBest[doc] = score;
        }
      }
    }
    for (let i = 0; i < slotCount; i++) {
      const doc = slotDocs[i]!;
      if (seenStamp[doc] !== queryStamp) {
        seenStamp[doc] = queryStamp;
        total[doc] = 0;
        matched[doc] = 0;
        touched[touchedCount++] = doc;
      }
      total[doc] = total[doc]! + slotBest[doc]!;
      matched[doc] = matched[doc]! + 1;
    }
  }

  // First pass: everything but adjacency, which needs each doc's term order.
  // A doc's final score is at most its base plus its adjacency reach, and the
  // k-th best final score is at least the k-th best base: only docs whose base
  // plus reach gets there can make the top k, and only those pay for adjacency.
  const base = scratch.base(touchedCount);
  const heap = new MinHeap(k);
  const { eligible } = options;
  const hideUnavailable = options.outOfStock === "hide";
  for (let i = 0; i < touchedCount; i++) {
    const doc = touched[i]!;
    const inStock = available[doc] === 1;
    if ((!inStock && hideUnavailable) || (eligible && !eligible(products[doc]!))) {
      base[i] = -Infinity;
      continue;
    }
    const coverage = matched[doc]! / r;
    const score =
      total[doc]! * coverage +
      config.coverageWeight * coverage * coverage +
      config.priorWeight * priors[doc]! +
      config.popularityWeight * popularity[doc]! +
      (options.boosted?.has(products[doc]!) ? config.boostWeight : 0) -
      (inStock ? 0 : OUT_OF_STOCK_PENALTY);
    base[i] = score;
    heap.offer(score);
  }
  const threshold = heap.full ? heap.min : -Infinity;
  const reachPerPair = r > 1 ? config.adjacencyWeight / (r - 1) : 0;

  const finalists: { doc: number; score: number }[] = [];
  const slotTerms = r > 1 ? plan.slots.map((slot) => new Set(slot.alternatives.map((alternative) => alternative.term))) : [];
  for (let i = 0; i < touchedCount; i++) {
    const score = base[i]!;
    if (score === -Infinity) continue;
    const doc = touched[i]!;
    const reach = reachPerPair * (matched[doc]! - 1);
    if (score + reach < threshold) continue;
    const adjacency = reach > 0 ? reachPerPair * adjacentPairs(index.termsOf(doc)!, slotTerms) : 0;
    finalists.push({ doc, score: score + adjacency });
  }
  finalists.sort((x, y) => y.score - x.score || products[x.doc]! - products[y.doc]!);
  for (const { doc } of finalists) {
    if (ranked.length >= k) break;
    const product = products[doc]!;
    if (product !== byCode) ranked.push(product);
  }
  return ranked;
}

/** How many neighbouring query words appear side by side, in order, in the title. */
function adjacentPairs(ids: Int32Array, slotTerms: Set<number>[]): number {
  let pairs = 0;
  for (let s = 0; s + 1 < slotTerms.length; s++) {
    const left = slotTerms[s]!;
    const right = slotTerms[s + 1]!;
    for (let p = 0; p + 1 < ids.length; p++) {
      const here = ids[p]!;
      if (here === FIELD_BREAK) break;
      if (left.has(here) && right.has(ids[p + 1]!)) {
        pairs++;
        break;
      }
    }
  }
  return pairs;
}

/** The k largest scores seen so far; min is the smallest of them. */
class MinHeap {
  private readonly values: Float64Array;
  private size = 0;

  constructor(private readonly capacity: number) {
    this.values = new Float64Array(Math.max(1, capacity));
  }

  get full(): boolean {
    return this.size >= this.capacity;
  }

  get min(): number {
    return this.values[0]!;
  }

  offer(value: number): void {
    const v = this.values;
    if (this.size < this.capacity) {
      let i = this.size++;
      v[i] = value;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (v[parent]! <= v[i]!) break;
        [v[parent], v[i]] = [v[i]!, v[parent]!];
        i = parent;
      }
      return;
    }
    if (value <= v[0]!) return;
    v[0] = value;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.size && v[left]! < v[smallest]!) smallest = left;
      if (right < this.size && v[right]! < v[smallest]!) smallest = right;
      if (smallest === i) break;
      [v[smallest], v[i]] = [v[i]!, v[smallest]!];
      i = smallest;
    }
  }
}
