// Scores a planned query over a search index: BM25 per query word (its best
// alternative), blended with how many words matched, whether they stand next to
// each other as typed, how generic the product is, how well it sells and
// whether the merchant boosts it for the query.
//
// In three passes, so that per touched product only numbers stored beside its
// postings and in its chunk of doc columns are read:
// 1. the postings of each slot's alternatives give each touched doc its text
//    score and matched words;
// 2. per chunk of doc bounds, each touched doc that can make the page gets
//    bounds on its score: its text score and availability are exact, its
//    prior and popularity stored to within a step (doc-columns.ts), the
//    adjacency of its words at most a pair per two neighbouring query words
//    its title can hold side by side (title-pairs.ts; docs whose text score
//    and reachable adjacency are too far below the best ones' are left out
//    unread);
// 3. docs are scored exactly (their title terms read, the prior and adjacency
//    computed) in order of their upper bounds, until no bound can beat the
//    page: usually a few more than the page.
import { AVAILABLE, chunkOf, DOC_CHUNK, LIVE, slotOf, StepBounds } from "./doc-columns.js";
import { DocRecords, MATCHED, recordOf, SEEN, SLOT_BEST, SLOT_FLAGS, SLOT_STAMP, TITLE, TOTAL } from "./doc-records.js";
import type { RankingIndex } from "./index-view.js";
import type { LeaderReads } from "./leaders.js";
import type { PostingBlock } from "./postings.js";
import { exactPrior } from "./prior.js";
import { DEFAULT_RANKING, type QueryPlan, type RankingConfig, type Slot } from "./query-plan.js";
import { termFrequency } from "./search-document.js";
import { alternativeFlags, mergedFlags, possiblePairs, postingFlags, titleBitsWith } from "./title-pairs.js";
import { TouchedLookup } from "./touched-lookup.js";

export interface RankOptions {
  /** How many product ids to return at most. */
  k: number;
  /** Products the request may show (market, collection filter, exclusions); absent: all. */
  eligible?: (productId: number) => boolean;
  /** "last": out-of-stock products rank after every available one; "hide": never shown. */
  outOfStock: "last" | "hide";
  /** Products the merchant boosts for this query: each scores config.boostWeight more when it matches. */
  boosted?: ReadonlySet<number>;
}

/** Out-of-stock products sink below every available one, keeping their order among themselves. */
const OUT_OF_STOCK_PENALTY = 1e6;

/** A query word in more than this share of products is too common to bring in candidates of its own. */
const COMMON_SHARE = 0.25;

/** Scratch space reused across queries: one query allocates nothing per matched product. */
class Scratch {
  capacity = 0;
  /** Per doc, what this query found of it (doc-records.ts). */
  readonly records = new DocRecords();
  touched = new Int32Array(0);
  slotDocs = new Int32Array(0);
  /** Each touched doc's reach: its text part plus the adjacency its title can hold, by position in `touched`. */
  reaches = new Float64Array(0);
  /** Each touched doc's band of reach, by position in `touched`; the docs grouped by band. */
  bands = new Uint8Array(0);
  byBand = new Int32Array(0);
  /** The docs bounded, grouped by chunk within each band, and where each chunk's group starts. */
  byChunk = new Int32Array(0);
  chunkStarts = new Int32Array(0);
  chunkNext = new Int32Array(0);
  /** Bounds of each doc of byChunk, by position, and whether it is in stock. */
  lower = new Float64Array(0);
  upper = new Float64Array(0);
  inStock = new Uint8Array(0);
  /** Positions of the docs pass 3 may score. */
  candidates = new Int32Array(0);
  readonly productIds = new Float64Array(DOC_CHUNK);
  /** The touched docs as slots that only add to them look them up, as of `lookupStamp` and `lookupCount`. */
  private readonly lookup = new TouchedLookup();
  private lookupStamp = -1;
  private lookupCount = -1;

  /** The stamp of a new query (doc-records.ts): a lookup made under an earlier query is never reused for it. */
  newQuery(): number {
    const stamp = this.records.queryStamp();
    // The stamps started again: the lookup's stamp may come round again.
    if (stamp === 1) this.lookupStamp = -1;
    return stamp;
  }

  /** A lookup of the query's first `touchedCount` touched docs. */
  touchedLookup(queryStamp: number, touchedCount: number): TouchedLookup {
    if (this.lookupStamp !== queryStamp || this.lookupCount !== touchedCount) {
      this.lookup.take(this.touched, touchedCount, this.capacity);
      this.lookupStamp = queryStamp;
      this.lookupCount = touchedCount;
    }
    return this.lookup;
  }

  fit(capacity: number): void {
    if (capacity <= this.capacity) return;
    const size = Math.max(1024, capacity * 2);
    this.records.fit(size);
    this.touched = new Int32Array(size);
    this.slotDocs = new Int32Array(size);
    this.reaches = new Float64Array(size);
    this.bands = new Uint8Array(size);
    this.byBand = new Int32Array(size);
    this.byChunk = new Int32Array(size);
    this.lower = new Float64Array(size);
    this.upper = new Float64Array(size);
    this.inStock = new Uint8Array(size);
    this.candidates = new Int32Array(size);
    this.chunkStarts = new Int32Array(chunkOf(size - 1) + 2);
    this.chunkNext = new Int32Array(chunkOf(size - 1) + 1);
    this.capacity = size;
  }
}

const scratch = new Scratch();

/** Product ids, best first. */
export function rankProducts(
  index: RankingIndex,
  plan: QueryPlan,
  options: RankOptions,
  config: RankingConfig = DEFAULT_RANKING,
): number[] {
  const ranked: number[] = [];
  const byCode = plan.code === "" ? undefined : index.productByCode(plan.code);
  if (byCode !== undefined && (options.eligible?.(byCode) ?? true)) ranked.push(byCode);
  const r = plan.slots.length;
  // The code's product counts toward k: a list of k with it first.
  const wanted = options.k - ranked.length;
  if (r === 0 || wanted <= 0) return ranked;
  scratch.fit(index.docCapacity);
  // A boosted product must be a candidate wherever it matches: leaders might leave it out.
  let best = bestOf(index, plan, options, config, wanted, byCode, boostOf(options, config) === 0);
  // Leaders too few for the page (a filter left out most of them): every posting, as for a shop without lists.
  if (best.leaders && best.ids.length < wanted) best = bestOf(index, plan, options, config, wanted, byCode, false);
  for (const productId of best.ids) ranked.push(productId);
  return ranked;
}

/** The `wanted` best products, and whether leader lists chose the candidates. */
function bestOf(
  index: RankingIndex,
  plan: QueryPlan,
  options: RankOptions,
  config: RankingConfig,
  wanted: number,
  byCode: number | undefined,
  useLeaders: boolean,
): { ids: number[]; leaders: boolean } {
  const { touchedCount, leaders } = scoreText(index, plan, options.k, config, useLeaders);
  const { bounded, threshold } = boundScores(index, plan, touchedCount, options, config);
  return { ids: exactBest(index, plan, bounded, threshold, wanted, byCode, options, config), leaders };
}

/**
 * Pass 1: each touched doc's text score, matched words and title bits (its
 * record, doc-records.ts); returns how many docs were touched, and whether leader
 * lists chose them (only if `useLeaders`).
 */
function scoreText(
  index: RankingIndex,
  plan: QueryPlan,
  k: number,
  config: RankingConfig,
  useLeaders: boolean,
): { touchedCount: number; leaders: boolean } {
  const queryStamp = scratch.newQuery();
  let touchedCount = 0;
  // Rarest words first: once they have found enough products, a word nearly
  // every product has ("in", "x") only adds to those, instead of touching most
  // of the catalogue for products that could only match it.
  const commonMass = index.size * COMMON_SHARE;
  const order = plan.slots
    .map((slot, position) => ({
      slot,
      position,
      titleFlags: alternativeFlags(plan.slots, position),
      mass: slot.alternatives.reduce((sum, a) => sum + index.df(a.term), 0),
    }))
    .sort((x, y) => x.mass - y.mass);
  // A word matching too many products to score them all brings only its leaders as candidates (leaders.ts); once
  // every word has brought its candidates, its postings score them all, also those a later word brought.
  const leaderMass = config.leaderSlotMass;
  const leaders = useLeaders && order.some(({ mass }) => mass > leaderMass) ? index.leaders() : null;
  // A query of one such word: its candidates are scored from the lists themselves, whose postings are the term's.
  if (leaders !== null && order.length === 1)
    return { touchedCount: scoreSlot(index, order[0]!, false, queryStamp, 0, config, leaders), leaders: true };
  const scoredLast: PlacedSlot[] = [];
  for (const placed of order) {
    const addOnly = placed.mass > commonMass && touchedCount >= k;
    if (leaders !== null && placed.mass > leaderMass) {
      if (!addOnly) touchedCount = touchLeaders(index, placed.slot, leaders, queryStamp, touchedCount);
      scoredLast.push(placed);
    } else {
      touchedCount = scoreSlot(index, placed, addOnly, queryStamp, touchedCount, config);
    }
  }
  for (const placed of scoredLast) touchedCount = scoreSlot(index, placed, true, queryStamp, touchedCount, config);
  return { touchedCount, leaders: leaders !== null };
}

/** A query word's slot, its position in the query, and the title flags of its alternatives (title-pairs.ts). */
interface PlacedSlot {
  slot: Slot;
  position: number;
  titleFlags: Uint8Array;
}

/**
 * Adds a slot's score (its best alternative's) to every doc holding one of
 * its alternatives, touching those not touched yet unless `onlyTouched`, and
 * marks the slot's word in the docs whose title holds one; returns the new
 * count of touched docs. With `leaders`, only to the docs of the
 * alternatives' leader lists (all docs of one without a list) and those
 * written since the lists were built.
 */
function scoreSlot(
  index: RankingIndex,
  { slot, position, titleFlags }: PlacedSlot,
  onlyTouched: boolean,
  queryStamp: number,
  touchedCount: number,
  config: RankingConfig,
  leaders: LeaderReads | null = null,
): number {
  const { slotDocs } = scratch;
  const { ints, floats, slotInts, slotFloats } = scratch.records;
  const { k1, b } = config;
  // BM25's length normalisation, folded into two constants per query.
  const lengthScale = (k1 * b) / index.averageLength;
  const lengthBase = k1 * (1 - b);
  const slotStampValue = scratch.records.slotStamp();
  let slotCount = 0;
  let count = touchedCount;
  const skip = leaders?.changed ?? null;
  const lookup = onlyTouched ? scratch.touchedLookup(queryStamp, touchedCount) : null;
  // A slot of one alternative offers a doc once at most, so its score is the slot's and is added at once: the
  // doc's record is read once, not again after the slot (rounded to a float first, as the slot's best is). Once,
  // because a term's postings hold a doc once, a term is read from its leader list or its postings, never both, and
  // the docs written since the lists were built are skipped in either and offered apart, each once.
  // The record's update is written out here and again after the slot: through one helper, the 54k Home
  // Depot keystrokes' plan + rank ran no faster (p99 2.31 against 2.24 ms, median of five alternating runs).
  const settles = slot.alternatives.length === 1;
  const offer = (doc: number, score: number, flags: number) => {
    const at = recordOf(doc);
    if (settles) {
      if (ints[at + SEEN] !== queryStamp) count = touch(doc, queryStamp, count);
      floats[at + TOTAL] = floats[at + TOTAL]! + Math.fround(score);
      ints[at + MATCHED] = ints[at + MATCHED]! + 1;
      ints[at + TITLE] = titleBitsWith(ints[at + TITLE]!, position, flags);
    } else if (slotInts[at + SLOT_STAMP] !== slotStampValue) {
      slotInts[at + SLOT_STAMP] = slotStampValue;
      slotFloats[at + SLOT_BEST] = score;
      slotInts[at + SLOT_FLAGS] = flags;
      slotDocs[slotCount++] = doc;
    } else {
      if (score > slotFloats[at + SLOT_BEST]!) slotFloats[at + SLOT_BEST] = score;
      slotInts[at + SLOT_FLAGS] = mergedFlags(slotInts[at + SLOT_FLAGS]!, flags);
    }
  };
  for (let j = 0; j < slot.alternatives.length; j++) {
    const { term, weight } = slot.alternatives[j]!;
    const scale = weight * slot.idf * (k1 + 1);
    const alternativeFlags = titleFlags[j]!;
    // The posting's score is written out in each loop below rather than through one shared closure: folded
    // into one, pass 1 ran about a fifth slower on a million-product shop.
    if (lookup !== null && leaders === null && lookup.gallopPays(index.df(term))) {
      lookup.rewind();
      index.forEachPostingBlock(term, (block) =>
        lookup.findIn(block, (i) => {
          const mark = block.marks[i]!;
          const tf = termFrequency(mark);
          offer(block.docs[i]!, (scale * tf) / (tf + lengthBase + lengthScale * block.lengths[i]!), postingFlags(alternativeFlags, mark));
        }),
      );
      continue;
    }
    const touchedBits = lookup?.bitset() ?? null;
    const visit = ({ count: entries, docs, lengths, marks }: PostingBlock) => {
      for (let i = 0; i < entries; i++) {
        const doc = docs[i]!;
        if (touchedBits !== null && (touchedBits[doc >>> 5]! & (1 << (doc & 31))) === 0) continue;
        if (skip !== null && skip.has(doc)) continue;
        const mark = marks[i]!;
        const tf = termFrequency(mark);
        offer(doc, (scale * tf) / (tf + lengthBase + lengthScale * lengths[i]!), postingFlags(alternativeFlags, mark));
      }
    };
    if (leaders === null || !leaders.forEachLeader(term, visit)) index.forEachPostingBlock(term, visit);
    for (const { doc, length, marks } of leaders?.written ?? []) {
      const mark = marks.get(term);
      if (mark === undefined || (onlyTouched && ints[recordOf(doc) + SEEN] !== queryStamp)) continue;
      const tf = termFrequency(mark);
      offer(doc, (scale * tf) / (tf + lengthBase + lengthScale * length), postingFlags(alternativeFlags, mark));
    }
  }
  for (let i = 0; i < slotCount; i++) {
    const doc = slotDocs[i]!;
    const at = recordOf(doc);
    if (ints[at + SEEN] !== queryStamp) count = touch(doc, queryStamp, count);
    floats[at + TOTAL] = floats[at + TOTAL]! + slotFloats[at + SLOT_BEST]!;
    ints[at + MATCHED] = ints[at + MATCHED]! + 1;
    ints[at + TITLE] = titleBitsWith(ints[at + TITLE]!, position, slotInts[at + SLOT_FLAGS]!);
  }
  return count;
}

/** Makes `doc` one of the query's touched docs, with nothing scored yet; returns the new count. */
function touch(doc: number, queryStamp: number, touchedCount: number): number {
  const { ints, floats } = scratch.records;
  const at = recordOf(doc);
  ints[at + SEEN] = queryStamp;
  floats[at + TOTAL] = 0;
  ints[at + MATCHED] = 0;
  ints[at + TITLE] = 0;
  scratch.touched[touchedCount] = doc;
  return touchedCount + 1;
}

/**
 * Touches the leaders of a common slot's alternatives, the docs written since
 * the lists were built that hold one, and every doc of an alternative that
 * has no list (too rare for one); returns the new count of touched docs.
 */
function touchLeaders(index: RankingIndex, slot: Slot, leaders: LeaderReads, queryStamp: number, touchedCount: number): number {
  const { ints } = scratch.records;
  const unseen = (doc: number) => ints[recordOf(doc) + SEEN] !== queryStamp;
  let count = touchedCount;
  const touchBlock = ({ count: entries, docs }: PostingBlock) => {
    for (let i = 0; i < entries; i++) {
      const doc = docs[i]!;
      if (unseen(doc) && !leaders.changed.has(doc)) count = touch(doc, queryStamp, count);
    }
  };
  for (const { term } of slot.alternatives) {
    if (!leaders.forEachLeader(term, touchBlock)) index.forEachPostingBlock(term, touchBlock);
  }
  for (const { doc, marks } of leaders.written) {
    if (unseen(doc) && slot.alternatives.some(({ term }) => marks.has(term))) count = touch(doc, queryStamp, count);
  }
  return count;
}

/**
 * Bands of reach (a doc's text part plus the adjacency its title can hold),
 * bounded one after another from the best: each as wide as the most the prior,
 * popularity and a boost can add to a reach, so once a band's best possible
 * score is below the page's lower bound, it and every band after it are left
 * out unread. Most touched docs match fewer words than the best ones, and
 * then can hold no pair of them either, and go that way.
 */
const BANDS = 8;

/**
 * Pass 2: bounds on the scores of the touched docs that can make the page
 * (scratch.lower, scratch.upper, by position in scratch.byChunk; -Infinity
 * for a doc the request may not show), reading their chunks of doc bounds a
 * chunk at a time. Returns how many docs were bounded, and the k-th best
 * lower bound: no doc whose upper bound is below it can make the page.
 */
function boundScores(
  index: RankingIndex,
  plan: QueryPlan,
  touchedCount: number,
  options: RankOptions,
  config: RankingConfig,
): { bounded: number; threshold: number } {
  const { touched, reaches, bands, byBand } = scratch;
  const { ints, floats } = scratch.records;
  const r = plan.slots.length;
  const reachPerPair = r > 1 ? config.adjacencyWeight / (r - 1) : 0;
  let best = -Infinity;
  let worst = Infinity;
  for (let i = 0; i < touchedCount; i++) {
    const at = recordOf(touched[i]!);
    const matched = ints[at + MATCHED]!;
    const coverage = matched / r;
    // The text part, and the adjacency this doc's title can reach: a doc that matched one word can earn none.
    const reach =
      floats[at + TOTAL]! * coverage +
      config.coverageWeight * coverage * coverage +
      reachPerPair * possiblePairs(ints[at + TITLE]!, r, matched - 1);
    reaches[i] = reach;
    if (reach > best) best = reach;
    if (reach < worst) worst = reach;
  }
  const heap = new MinHeap(options.k);
  // What a doc's exact score can add to its reach: the exact prior and popularity are at most 1 each (a term's df
  // is at most the catalogue's size), and a boost its weight. Not the stored bounds' upper ends, which can pass 1.
  const width = (config.priorWeight + config.popularityWeight) * (1 + 1e-5) + (boostOf(options, config) > 0 ? config.boostWeight : 0);
  // Everything within one band, or nothing a band could be as wide as (no prior, popularity or boost): nothing to leave out.
  if (!(width > 0) || best - worst < width)
    return { bounded: boundBand(index, plan, touched.subarray(0, touchedCount), 0, heap, options, config), threshold: heap.threshold };

  const bandStarts = new Int32Array(BANDS + 1);
  for (let i = 0; i < touchedCount; i++) {
    const band = Math.min(BANDS - 1, Math.floor((best - reaches[i]!) / width));
    bands[i] = band;
    bandStarts[band + 1]!++;
  }
  for (let band = 0; band < BANDS; band++) bandStarts[band + 1] = bandStarts[band + 1]! + bandStarts[band]!;
  const next = bandStarts.slice(0, BANDS);
  for (let i = 0; i < touchedCount; i++) byBand[next[bands[i]!]!++] = touched[i]!;
  let bounded = 0;
  for (let band = 0; band < BANDS; band++) {
    // Its docs' reaches are at most best − band·width, so their scores at most best − (band − 1)·width.
    if (band > 0 && best - (band - 1) * width < heap.threshold) break;
    bounded = boundBand(index, plan, byBand.subarray(bandStarts[band]!, bandStarts[band + 1]!), bounded, heap, options, config);
  }
  return { bounded, threshold: heap.threshold };
}

/** Bounds one band's docs, grouped by chunk, from position `from` of scratch.byChunk on; returns the position after them. */
function boundBand(
  index: RankingIndex,
  plan: QueryPlan,
  docs: Int32Array,
  from: number,
  heap: MinHeap,
  options: RankOptions,
  config: RankingConfig,
): number {
  const { byChunk, chunkStarts, lower, upper, inStock, productIds } = scratch;
  const { ints, floats } = scratch.records;
  const chunks = chunkOf(Math.max(0, index.docCapacity - 1)) + 1;
  chunkStarts.fill(0, 0, chunks + 1);
  for (let i = 0; i < docs.length; i++) chunkStarts[chunkOf(docs[i]!) + 1]!++;
  chunkStarts[0] = from;
  for (let c = 0; c < chunks; c++) chunkStarts[c + 1] = chunkStarts[c + 1]! + chunkStarts[c]!;
  const next = scratch.chunkNext;
  next.set(chunkStarts.subarray(0, chunks));
  for (let i = 0; i < docs.length; i++) byChunk[next[chunkOf(docs[i]!)]!++] = docs[i]!;

  const r = plan.slots.length;
  const bounds = new StepBounds(index.popularityScale, Math.log(Math.max(2, index.size)));
  const reachPerPair = r > 1 ? config.adjacencyWeight / (r - 1) : 0;
  const priorReach = config.priorWeight * bounds.priorSpread;
  const { eligible, boosted } = options;
  const boostWeight = boostOf(options, config);
  const hideUnavailable = options.outOfStock === "hide";
  for (let c = 0; c < chunks; c++) {
    const start = chunkStarts[c]!;
    const end = chunkStarts[c + 1]!;
    if (start === end) continue;
    // Product ids first: the bounds are read in place, valid until the next read.
    if (eligible || boostWeight > 0) index.readProductIds(c, productIds);
    const { rankSteps, priorSteps, flags } = index.bounds(c)!;
    for (let i = start; i < end; i++) {
      const doc = byChunk[i]!;
      const slot = slotOf(doc);
      const available = (flags[slot]! & AVAILABLE) !== 0;
      // A freed doc (LIVE unset) is never shown, whatever a leader list still holds of it.
      if ((flags[slot]! & LIVE) === 0 || (!available && hideUnavailable) || (eligible && !eligible(productIds[slot]!))) {
        lower[i] = -Infinity;
        continue;
      }
      inStock[i] = available ? 1 : 0;
      const at = recordOf(doc);
      const matched = ints[at + MATCHED]!;
      const coverage = matched / r;
      const steps = rankSteps[slot]!;
      const score =
        floats[at + TOTAL]! * coverage +
        config.coverageWeight * coverage * coverage +
        config.priorWeight * bounds.priorLower(priorSteps[slot]!) +
        config.popularityWeight * bounds.popularityLower(steps) +
        (boostWeight > 0 && boosted!.has(productIds[slot]!) ? boostWeight : 0) -
        (available ? 0 : OUT_OF_STOCK_PENALTY);
      lower[i] = score;
      upper[i] =
        score +
        priorReach +
        config.popularityWeight * bounds.popularityWidth(steps) +
        reachPerPair * possiblePairs(ints[at + TITLE]!, r, matched - 1);
      if (score > heap.threshold) heap.offer(score);
    }
  }
  return from + docs.length;
}

/**
 * Pass 3: the `wanted` best products other than `byCode`, by exact score
 * (ties: lower product id first), scoring docs in order of their upper bounds
 * until the next bound falls below the last one kept.
 */
function exactBest(
  index: RankingIndex,
  plan: QueryPlan,
  bounded: number,
  threshold: number,
  wanted: number,
  byCode: number | undefined,
  options: RankOptions,
  config: RankingConfig,
): number[] {
  const { byChunk, lower, upper, inStock } = scratch;
  const { ints, floats } = scratch.records;
  const boostWeight = boostOf(options, config);
  // Candidates come off a heap by upper bound: a page takes a few of what may be thousands.
  const candidates = new UpperBoundHeap(scratch.candidates, upper);
  for (let i = 0; i < bounded; i++) if (lower[i] !== -Infinity && upper[i]! >= threshold) candidates.add(i);
  candidates.heapify();

  const r = plan.slots.length;
  const reachPerPair = r > 1 ? config.adjacencyWeight / (r - 1) : 0;
  const slotTerms = r > 1 ? plan.slots.map((slot) => new Set(slot.alternatives.map((alternative) => alternative.term))) : [];
  const best: { productId: number; score: number }[] = [];
  for (let i = candidates.pop(); i !== -1; i = candidates.pop()) {
    if (best.length === wanted && upper[i]! < best[wanted - 1]!.score) break;
    const doc = byChunk[i]!;
    const { productId, titleTerms } = index.document(doc);
    if (productId === byCode) continue;
    const at = recordOf(doc);
    const matched = ints[at + MATCHED]!;
    const coverage = matched / r;
    const base =
      floats[at + TOTAL]! * coverage +
      config.coverageWeight * coverage * coverage +
      config.priorWeight * exactPrior(titleTerms, (term) => index.df(term), index.size) +
      config.popularityWeight * index.popularity(productId) +
      (boostWeight > 0 && options.boosted!.has(productId) ? boostWeight : 0) -
      (inStock[i] === 1 ? 0 : OUT_OF_STOCK_PENALTY);
    const score = base + (possiblePairs(ints[at + TITLE]!, r, matched - 1) > 0 ? reachPerPair * adjacentPairs(titleTerms, slotTerms) : 0);
    let place = best.length;
    while (place > 0 && (score > best[place - 1]!.score || (score === best[place - 1]!.score && productId < best[place - 1]!.productId)))
      place--;
    if (place < wanted) {
      best.splice(place, 0, { productId, score });
      if (best.length > wanted) best.pop();
    }
  }
  return best.map((entry) => entry.productId);
}

/** The boost this request gives its boosted products: 0 when it boosts none. */
function boostOf(options: RankOptions, config: RankingConfig): number {
  return options.boosted !== undefined && options.boosted.size > 0 ? config.boostWeight : 0;
}

/** How many neighbouring query words appear side by side, in order, in the title. */
function adjacentPairs(titleTerms: readonly string[], slotTerms: Set<string>[]): number {
  let pairs = 0;
  for (let s = 0; s + 1 < slotTerms.length; s++) {
    const left = slotTerms[s]!;
    const right = slotTerms[s + 1]!;
    for (let p = 0; p + 1 < titleTerms.length; p++) {
      if (left.has(titleTerms[p]!) && right.has(titleTerms[p + 1]!)) {
        pairs++;
        break;
      }
    }
  }
  return pairs;
}

/** Positions by their upper bound, largest first: filled with add, ordered once by heapify, then popped. */
class UpperBoundHeap {
  private size = 0;

  constructor(
    private readonly positions: Int32Array,
    private readonly upper: Float64Array,
  ) {}

  add(position: number): void {
    this.positions[this.size++] = position;
  }

  heapify(): void {
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  /** The position with the largest upper bound left, or -1 when none is. */
  pop(): number {
    if (this.size === 0) return -1;
    const top = this.positions[0]!;
    this.positions[0] = this.positions[--this.size]!;
    this.siftDown(0);
    return top;
  }

  private siftDown(from: number): void {
    const { positions, upper, size } = this;
    let i = from;
    for (;;) {
      const left = 2 * i + 1;
      let largest = i;
      if (left < size && upper[positions[left]!]! > upper[positions[largest]!]!) largest = left;
      if (left + 1 < size && upper[positions[left + 1]!]! > upper[positions[largest]!]!) largest = left + 1;
      if (largest === i) return;
      [positions[i], positions[largest]] = [positions[largest]!, positions[i]!];
      i = largest;
    }
  }
}

/** The k largest scores seen so far; threshold is the smallest of them once there are k, -Infinity before. */
class MinHeap {
  private readonly values: Float64Array;
  private size = 0;
  threshold = -Infinity;

  constructor(private readonly capacity: number) {
    this.values = new Float64Array(Math.max(1, capacity));
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
      if (this.size === this.capacity) this.threshold = v[0]!;
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
    this.threshold = v[0]!;
  }
}
