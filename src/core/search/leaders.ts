// Leaders: for each very common term, the products that would lead a search
// for it alone, so that a query need not score every product holding it.
//
// A word held by a tenth of a million-product catalogue has 100,000 postings;
// scoring them all costs a query milliseconds, and a keystroke's completions
// can add up to over a million. Yet the page shows ten. A leader list keeps,
// per term held by at least minDf products, the perTerm postings with
// the best static score: the term's own BM25 part plus the prior and sales
// popularity as the doc columns bound them, products that cannot be bought
// last (in shops of at least minShop products). A query word matching more
// than RankingConfig.leaderSlotMass postings takes its candidates from these lists
// (and from the products written since they were built), and every
// candidate is then scored exactly, so what it loses is only products that
// are neither leaders of a query word nor candidates of a rarer one.
//
// The lists are built by one background job from a snapshot of the index;
// products written after it are listed apart (changed docs) and read whole by
// the query, until the next build takes them in.
import { WorstFirstHeap } from "../worst-first-heap.js";
import { AVAILABLE, StepBounds } from "./doc-columns.js";
import type { PostingBlock } from "./postings.js";
import { bm25Idf, type RankingConfig } from "./query-plan.js";
import { termFrequency } from "./search-document.js";

/** Who has leader lists, and how long they are. */
export interface LeaderSettings {
  /** Shops with fewer products have none: a query reading every posting there costs a few milliseconds at most. */
  minShop: number;
  /** Terms held by at least this many products have a list… */
  minDf: number;
  /** …of this many postings. */
  perTerm: number;
  /** Beyond this many docs written since the last build, queries read every posting again (and a build is due). */
  maxChanged: number;
}

export const DEFAULT_LEADERS: LeaderSettings = { minShop: 20_000, minDf: 4_096, perTerm: 1_024, maxChanged: 512 };

/** Below every score of a product that can be bought: one that cannot leads only where too few can. */
const UNAVAILABLE_PENALTY = 1e6;

/** What a static score reads of the index besides a term's postings. */
export interface StaticColumns {
  readonly size: number;
  readonly averageLength: number;
  readonly popularityScale: number;
  /** The bounds columns (doc-columns.ts) of every doc, by doc number. */
  readonly rankSteps: Uint16Array;
  readonly priorSteps: Uint16Array;
  readonly flags: Uint8Array;
}

/** Scores postings of one term for its leader list. */
export class LeaderScorer {
  private readonly bounds: StepBounds;
  private readonly lengthScale: number;
  private readonly lengthBase: number;

  constructor(
    private readonly index: StaticColumns,
    private readonly config: RankingConfig,
  ) {
    this.bounds = new StepBounds(index.popularityScale, Math.log(Math.max(2, index.size)));
    this.lengthScale = (config.k1 * config.b) / index.averageLength;
    this.lengthBase = config.k1 * (1 - config.b);
  }

  /** Each posting's score for a query of this term alone, in block order, into `into`. */
  score(df: number, block: PostingBlock, into: Float64Array): void {
    const { config, bounds, lengthBase, lengthScale } = this;
    const { rankSteps, priorSteps, flags } = this.index;
    const scale = bm25Idf(Math.max(1, this.index.size), df) * (config.k1 + 1);
    for (let i = 0; i < block.count; i++) {
      const doc = block.docs[i]!;
      const tf = termFrequency(block.marks[i]!);
      into[i] =
        (scale * tf) / (tf + lengthBase + lengthScale * block.lengths[i]!) +
        config.priorWeight * bounds.priorLower(priorSteps[doc]!) +
        config.popularityWeight * bounds.popularityLower(rankSteps[doc]!) -
        ((flags[doc]! & AVAILABLE) !== 0 ? 0 : UNAVAILABLE_PENALTY);
    }
  }
}

/** The best `capacity` postings offered, by score (ties: lower doc first); taken out in doc order. */
export class LeaderSelection extends WorstFirstHeap {
  private readonly docs: Uint32Array;
  private readonly lengths: Uint32Array;
  private readonly marks: Uint16Array;
  private readonly scores: Float64Array;

  constructor(capacity: number) {
    super(capacity);
    this.docs = new Uint32Array(capacity);
    this.lengths = new Uint32Array(capacity);
    this.marks = new Uint16Array(capacity);
    this.scores = new Float64Array(capacity);
  }

  offer(doc: number, length: number, mark: number, score: number): void {
    if (!this.full) {
      this.place(this.size, doc, length, mark, score);
      this.pushed();
    } else if (score > this.scores[0]! || (score === this.scores[0]! && doc < this.docs[0]!)) {
      this.place(0, doc, length, mark, score);
      this.replacedWorst();
    }
  }

  /** The selected postings as a block, in doc order. */
  take(): PostingBlock {
    const order = Array.from({ length: this.size }, (_, i) => i).sort((a, b) => this.docs[a]! - this.docs[b]!);
    const block: PostingBlock = {
      count: this.size,
      docs: new Uint32Array(this.size),
      lengths: new Uint32Array(this.size),
      marks: new Uint16Array(this.size),
    };
    order.forEach((from, to) => {
      block.docs[to] = this.docs[from]!;
      block.lengths[to] = this.lengths[from]!;
      block.marks[to] = this.marks[from]!;
    });
    return block;
  }

  protected worseAt(a: number, b: number): boolean {
    const { scores, docs } = this;
    return scores[a]! < scores[b]! || (scores[a] === scores[b] && docs[a]! > docs[b]!);
  }

  protected swap(a: number, b: number): void {
    const { docs, lengths, marks, scores } = this;
    [docs[a], docs[b]] = [docs[b]!, docs[a]!];
    [lengths[a], lengths[b]] = [lengths[b]!, lengths[a]!];
    [marks[a], marks[b]] = [marks[b]!, marks[a]!];
    [scores[a], scores[b]] = [scores[b]!, scores[a]!];
  }

  private place(at: number, doc: number, length: number, mark: number, score: number): void {
    this.docs[at] = doc;
    this.lengths[at] = length;
    this.marks[at] = mark;
    this.scores[at] = score;
  }
}

/** What a query reads of the leader lists. */
export interface LeaderReads {
  /** Calls `visit` with the term's list (valid only during the call, which must read nothing else); false when the term has none. */
  forEachLeader(term: string, visit: (block: PostingBlock) => void): boolean;
  /** Docs written or freed since the lists were built: what the lists hold of them is stale. */
  readonly changed: ReadonlySet<number>;
  /** Those of them still indexed, and their terms. */
  readonly written: readonly WrittenDoc[];
}

/** A doc written since the lists were built, as scoring reads it. */
export interface WrittenDoc {
  doc: number;
  length: number;
  /** Its terms and their marks (termMarks). */
  marks: ReadonlyMap<string, number>;
}
