// Session-based kNN (V-SKNN, Ludewig & Jannach 2018): a session is scored
// against recent past sessions that share its items, weighting its own recent
// views most; items of the most similar sessions are recommended. The query
// reads its sessions through SessionSource (the stored index reads LMDB in
// place) and keeps its own state in typed arrays, so it costs well under a
// millisecond.

import { grownTo } from "../typed-arrays.js";
import { ItemScores } from "./item-scores.js";
import { KeySlots } from "./key-slots.js";
import { copyOf, NeighbourhoodBuffers, type Neighbourhood } from "./neighbourhood.js";
import { NewestDistinct } from "./newest-distinct.js";
import { byScoreThenId, topInOrder } from "./ranking.js";

export type { Neighbourhood } from "./neighbourhood.js";

export interface SessionKnnConfig {
  /** The most recent sessions sharing any prefix item considered as neighbours. */
  sampleSize: number;
  /** Neighbours whose items are scored. */
  neighbours: number;
  /** Recommend items already in the prefix (repeat views) or never. */
  remind: boolean;
  /** With remind: prefix items gain boost · Σ boostDecay^(steps from the end) after scores are scaled to a best of 1. */
  boost: number;
  boostDecay: number;
  /** > 0: a neighbour's item counts exp(−distance / this) by its distance from the item the sessions share (0: off). */
  positionDecay: number;
  /** > 0: rarer items gain: score × (1 + this · idf), idf = ln(sessions / sessions with the item) / ln(sessions). */
  idfWeight: number;
  /**
   * > 0: a neighbour's vote × exp(−(newest session − its session) / (this × sessions in the index)): recent
   * sessions know the current catalogue. A share of the shop's own sessions, so the fade follows its session
   * rate: the same setting fades over a week of a large shop's sessions and over a week of a small one's.
   */
  recencyFade: number;
}

/**
 * What a shop is served until its own sessions have tuned viewed-related
 * (src/recs/tune-viewed-related.ts), and where each tuning starts: V-SKNN
 * with linear prefix weights, the 1000 most recent candidate sessions, 100
 * neighbours, each neighbour's vote divided by how far back its most recent
 * shared item sits in the prefix, its items weighted by their distance from
 * the item the sessions share (exp(−d/5)), rarer items lifted (× (1 + idf)),
 * and older sessions fading over 0.8 of the shop's sessions. These were first
 * chosen on a validation split of one public dataset (Diginetica's training
 * sessions) and do not carry over to other shops as they are.
 */
export const DEFAULT_SESSION_KNN: SessionKnnConfig = {
  sampleSize: 1_000,
  neighbours: 100,
  remind: false,
  boost: 0,
  boostDecay: 0.6,
  positionDecay: 5,
  idfWeight: 1,
  recencyFade: 0.8,
};

/** The protocol's setting: repeat views count as hits, so recently viewed items are boosted. */
export const REMINDING_SESSION_KNN: SessionKnnConfig = { ...DEFAULT_SESSION_KNN, remind: true, boost: 1 };

/**
 * What a query reads of a session index. Sessions are numbered by arrival (0,
 * 1, … as each first views a product), so a larger number is a more recent
 * session; items are product ids. Arrays handed out are valid until the next
 * call (a store may hand out a view of a reused buffer).
 */
export interface SessionSource {
  /** Sessions in the index. */
  readonly sessionCount: number;
  /** The arrival number of the newest session. */
  readonly newestSession: number;
  /**
   * The sessions that viewed `item`, each at its first view of it, most
   * recent last: at least the `sampleSize` most recent of any query asked of
   * this source; null when no session in the index viewed it.
   */
  recentSessionsWith(item: number): Int32Array | null;
  /** How many sessions in the index viewed `item`. */
  sessionCountWith(item: number): number;
  /** The products a session viewed, in order; null for a session not in the index. */
  viewsOf(session: number): Float64Array | null;
}

/** A vote: the first `count` of `items` (local items, in the order first scored) and, per local item, whether it was scored and its score. */
export interface KnnVote {
  readonly count: number;
  readonly items: Int32Array;
  readonly scored: Uint8Array;
  readonly scores: Float64Array;
}

/**
 * The session kNN query with its scratch: per-item and per-session values live
 * in typed arrays indexed by slots (KeySlots) that one query hands out and the
 * next forgets, standing in for maps and sets. One instance serves any number
 * of queries, one at a time.
 */
export class SessionKnn {
  private readonly items = new KeySlots();
  private readonly sessions = new KeySlots();
  /** Per item slot: steps back from the prefix's end to its last view there (1 = the latest; 0: not in the prefix). */
  private itemStep = new Int32Array(SCRATCH);
  /** Per item slot: its prefix weight (its last view counts: i/L, the latest view weighs 1). */
  private itemWeight = new Float64Array(SCRATCH);
  /** Per item slot of a prefix item: where its recent sessions start in `recent`, and how many (-1: unknown to the index). */
  private recentStart = new Int32Array(SCRATCH);
  private recentLength = new Int32Array(SCRATCH);
  private itemScore = new Float64Array(SCRATCH);
  private itemVoted = new Uint8Array(SCRATCH);
  /** Per item slot: the last neighbour that voted for it (neighbours are numbered from 1 per vote). */
  private itemBallot = new Int32Array(SCRATCH);
  /** Per session slot: its similarity to the prefix. */
  private similarity = new Float64Array(SCRATCH);
  /** The prefix items' recent sessions, copied one after another (the source's arrays do not outlive the next read). */
  private recent = new Int32Array(SCRATCH);
  /** Candidates' arrival numbers, and what finds the oldest sampled of them (oldestSampled). */
  private numbers = new Int32Array(SCRATCH);
  private readonly newestDistinct = new NewestDistinct();
  /** The items a vote scored, as local items, in the order first scored. */
  private voted = new Int32Array(SCRATCH);
  /** What a neighbourhood is gathered into. */
  private readonly buffers = new NeighbourhoodBuffers();

  /**
   * Scores for the next item after `prefix` (product ids in view order),
   * excluding the session `self` from its own neighbours. Returns item → score
   * for the items worth ranking (in the order they were first voted for); the
   * caller sorts. Products no session in the index viewed are left out of the
   * prefix, as if never viewed.
   */
  query(source: SessionSource, prefix: readonly number[], config: SessionKnnConfig, self = -1): ItemScores {
    return this.score(source, this.find(source, prefix, config.sampleSize, config.neighbours, self), config);
  }

  /**
   * The `neighbours` sessions most similar to `prefix` among the `sampleSize`
   * most recent that share its items, but `self`: a copy the caller keeps (a
   * tuning votes on it under many settings).
   */
  neighbourhood(source: SessionSource, prefix: readonly number[], sampleSize: number, neighbours: number, self = -1): Neighbourhood {
    return copyOf(this.find(source, prefix, sampleSize, neighbours, self));
  }

  /** neighbourhood() in this instance's buffers: valid until its next query or neighbourhood(). */
  private find(source: SessionSource, prefix: readonly number[], sampleSize: number, neighbours: number, self: number): Neighbourhood {
    const { items, sessions } = this;
    items.clear();
    sessions.clear();

    // Each distinct prefix item's recent sessions, read once, in order of first view.
    const known: number[] = [];
    let copied = 0;
    for (const item of prefix) {
      const before = items.size;
      const slot = this.itemSlot(item);
      if (slot === before) {
        const recent = source.recentSessionsWith(item);
        this.recentLength[slot] = recent === null ? -1 : recent.length;
        if (recent !== null) {
          if (copied + recent.length > this.recent.length) this.recent = grownTo(this.recent, 2 * (copied + recent.length));
          this.recent.set(recent, copied);
          this.recentStart[slot] = copied;
          copied += recent.length;
        }
      }
      if (this.recentLength[slot]! >= 0) known.push(item);
    }
    const length = known.length;
    for (let p = 0; p < length; p++) {
      const slot = items.find(known[p]!);
      this.itemWeight[slot] = (p + 1) / length;
      this.itemStep[slot] = length - p;
    }

    // Candidates: the most recent sessions holding any prefix item (arrival
    // numbers grow with time), scored by the weights of the items they share.
    // Only the sampleSize most recent of them are sampled, so only those are scored.
    const prefixSlots = items.size;
    const oldestSampled = this.oldestSampled(prefixSlots, sampleSize, self);
    for (let slot = 0; slot < prefixSlots; slot++) {
      const count = this.recentLength[slot]!;
      if (count < 0) continue;
      const weight = this.itemWeight[slot]!;
      const first = this.recentStart[slot]!;
      const last = first + count - 1;
      for (let k = last; k >= Math.max(first, last + 1 - sampleSize); k--) {
        const session = this.recent[k]!;
        if (session === self || session < oldestSampled) continue;
        const before = sessions.size;
        const slot = sessions.slotOf(session);
        if (slot === before) {
          if (slot === this.similarity.length) this.similarity = grownTo(this.similarity, 2 * slot);
          this.similarity[slot] = 0;
        }
        this.similarity[slot] = this.similarity[slot]! + weight;
      }
    }
    const similarity = this.similarity;
    const sample = new Int32Array(sessions.size);
    for (let slot = 0; slot < sample.length; slot++) sample[slot] = slot;
    // The more similar first, ties by the more recent (the larger arrival number).
    const bySimilarity = (a: number, b: number) => byScoreThenId(similarity[a]!, similarity[b]!, sessions.keyOf(b), sessions.keyOf(a));
    const chosen = topInOrder(sample, neighbours, bySimilarity);
    return this.gatherNeighbours(source, known, prefixSlots, chosen, sampleSize, neighbours);
  }

  /**
   * The chosen neighbours with their views as item slots, and the latest
   * prefix item each shares: what scoring reads, gathered into the reused buffers.
   */
  private gatherNeighbours(
    source: SessionSource,
    known: number[],
    prefixSlots: number,
    chosen: Int32Array,
    sampleSize: number,
    neighbours: number,
  ): Neighbourhood {
    const { items, sessions, buffers } = this;
    const count = chosen.length;
    buffers.forNeighbours(count);
    let written = 0;
    chosen.forEach((neighbour, n) => {
      const session = sessions.keyOf(neighbour);
      buffers.sessions[n] = session;
      buffers.similarity[n] = this.similarity[neighbour]!;
      buffers.viewStart[n] = written;
      const views = source.viewsOf(session);
      if (views === null) return;
      // One pass gives each view its slot and finds the latest prefix item the
      // neighbour shares: a slot taken here is new (itemStep 0) unless it is a prefix item's.
      buffers.forViews(written + views.length);
      let closest = 0;
      let at = -1;
      for (let i = 0; i < views.length; i++) {
        const slot = this.itemSlot(views[i]!);
        buffers.viewItems[written + i] = slot;
        const step = this.itemStep[slot]!;
        if (step > 0 && (closest === 0 || step < closest || (step === closest && i > at))) {
          closest = step;
          at = i;
        }
      }
      // A neighbour sharing no prefix item votes for nothing: its views are left out (their slots stay, unvoted).
      if (closest === 0) return;
      buffers.nearest[n] = closest;
      buffers.anchor[n] = at;
      written += views.length;
    });
    buffers.viewStart[count] = written;
    buffers.forItems(items.size, known.length);
    for (let slot = 0; slot < items.size; slot++) buffers.items[slot] = items.keyOf(slot);
    buffers.itemStep.fill(0, 0, items.size);
    buffers.itemStep.set(this.itemStep.subarray(0, prefixSlots));
    buffers.idfCache.fill(Number.NaN, 0, items.size);
    for (let p = 0; p < known.length; p++) buffers.known[p] = items.find(known[p]!);
    return buffers.view(sampleSize, neighbours, count, written, items.size, known.length);
  }

  /**
   * Scores a neighbourhood found in `source` (by neighbourhood(), with the
   * setting's sample size and at least its neighbours) under `config`, as
   * item → score in the order the items were first scored.
   */
  score(source: SessionSource, hood: Neighbourhood, config: SessionKnnConfig): ItemScores {
    const { count, items, scores } = this.vote(source, hood, config);
    const ids = new Float64Array(count);
    const values = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      ids[k] = hood.items[items[k]!]!;
      values[k] = scores[items[k]!]!;
    }
    return new ItemScores(ids, values);
  }

  /**
   * What score() returns, left in this instance's scratch until its next vote
   * (a tuning ranks a case from it without building a map): each of the
   * setting's nearest neighbours votes for its items with its similarity,
   * divided by how far back the latest prefix item it shares sits.
   */
  vote(source: SessionSource, hood: Neighbourhood, config: SessionKnnConfig): KnnVote {
    if (config.sampleSize !== hood.sampleSize || config.neighbours > hood.neighbours)
      throw new RangeError(
        `a setting of ${config.neighbours} neighbours of ${config.sampleSize} sampled cannot score a neighbourhood of ${hood.neighbours} of ${hood.sampleSize}`,
      );
    const itemCount = hood.items.length;
    if (itemCount > this.itemScore.length) {
      this.itemScore = grownTo(this.itemScore, 2 * itemCount);
      this.itemVoted = grownTo(this.itemVoted, 2 * itemCount);
      this.itemBallot = grownTo(this.itemBallot, 2 * itemCount);
      this.voted = grownTo(this.voted, 2 * itemCount);
    }
    this.itemVoted.fill(0, 0, itemCount);
    this.itemBallot.fill(0, 0, itemCount);
    const { itemStep, nearest, viewStart, viewItems } = hood;
    const itemScore = this.itemScore;
    let count = 0;
    const newest = source.newestSession;
    const fadeOver = config.recencyFade * source.sessionCount;
    const neighbours = Math.min(config.neighbours, hood.sessions.length);
    let ballot = 0;
    for (let n = 0; n < neighbours; n++) {
      if (nearest[n] === 0) continue;
      let vote = hood.similarity[n]! / nearest[n]!;
      if (fadeOver > 0) vote *= Math.exp(-(newest - hood.sessions[n]!) / fadeOver);
      // Each of its items votes once.
      ballot++;
      const first = viewStart[n]!;
      const anchor = first + hood.anchor[n]!;
      for (let k = first; k < viewStart[n + 1]!; k++) {
        const item = viewItems[k]!;
        if (this.itemBallot[item] === ballot || (!config.remind && itemStep[item]! > 0)) continue;
        this.itemBallot[item] = ballot;
        const position = config.positionDecay > 0 ? positionWeight(Math.abs(k - anchor), config.positionDecay) : 1;
        if (this.itemVoted[item] === 0) {
          this.itemVoted[item] = 1;
          itemScore[item] = 0;
          this.voted[count++] = item;
        }
        itemScore[item] = itemScore[item]! + vote * position;
      }
    }
    const sessionCount = source.sessionCount;
    if (config.idfWeight > 0 && sessionCount > 1) {
      const logSessions = Math.log(sessionCount);
      for (let k = 0; k < count; k++) {
        const item = this.voted[k]!;
        let idf = hood.idfCache[item]!;
        if (Number.isNaN(idf)) {
          idf = Math.log(sessionCount / Math.max(1, source.sessionCountWith(hood.items[item]!))) / logSessions;
          hood.idfCache[item] = idf;
        }
        itemScore[item] = itemScore[item]! * (1 + config.idfWeight * idf);
      }
    }
    if (config.remind && config.boost > 0) {
      let best = 0;
      for (let k = 0; k < count; k++) best = Math.max(best, itemScore[this.voted[k]!]!);
      if (best > 0) for (let k = 0; k < count; k++) itemScore[this.voted[k]!] = itemScore[this.voted[k]!]! / best;
      const { known } = hood;
      const length = known.length;
      for (let p = 0; p < length; p++) {
        const item = known[p]!;
        if (this.itemVoted[item] === 0) {
          this.itemVoted[item] = 1;
          itemScore[item] = 0;
          this.voted[count++] = item;
        }
        itemScore[item] = itemScore[item]! + config.boost * config.boostDecay ** (length - p - 1);
      }
    }
    return { count, items: this.voted, scores: itemScore, scored: this.itemVoted };
  }

  /**
   * The arrival number of the oldest of the `sampleSize` most recent
   * candidates: each prefix item's last `sampleSize` sessions but `self`,
   * counted from the newest, each once (see NewestDistinct).
   */
  private oldestSampled(prefixSlots: number, sampleSize: number, self: number): number {
    let count = 0;
    for (let slot = 0; slot < prefixSlots; slot++) count += Math.min(sampleSize, Math.max(0, this.recentLength[slot]!));
    if (count <= sampleSize) return Number.NEGATIVE_INFINITY;
    if (count > this.numbers.length) this.numbers = new Int32Array(2 * count);
    let at = 0;
    for (let slot = 0; slot < prefixSlots; slot++) {
      const length = this.recentLength[slot]!;
      const end = this.recentStart[slot]! + length;
      for (let k = end - Math.min(sampleSize, Math.max(0, length)); k < end; k++) {
        const session = this.recent[k]!;
        if (session !== self) this.numbers[at++] = session;
      }
    }
    return this.newestDistinct.nthLargest(this.numbers.subarray(0, at), sampleSize);
  }

  /** The item's slot; a new one has its values reset. */
  private itemSlot(item: number): number {
    const before = this.items.size;
    const slot = this.items.slotOf(item);
    if (slot < before) return slot;
    if (slot === this.itemStep.length) {
      const size = 2 * slot;
      this.itemStep = grownTo(this.itemStep, size);
      this.itemWeight = grownTo(this.itemWeight, size);
      this.recentStart = grownTo(this.recentStart, size);
      this.recentLength = grownTo(this.recentLength, size);
    }
    this.itemStep[slot] = 0;
    this.itemWeight[slot] = 0;
    this.recentLength[slot] = -1;
    return slot;
  }
}

/** Slots each scratch array starts with; they double when a query needs more. */
const SCRATCH = 1024;

/** exp(−distance / decay) by distance, for the decay last asked for: the same values Math.exp gives, computed once. */
let positionWeights = { decay: Number.NaN, weights: [] as number[] };

function positionWeight(distance: number, decay: number): number {
  if (positionWeights.decay !== decay) positionWeights = { decay, weights: [] };
  const { weights } = positionWeights;
  while (weights.length <= distance) weights.push(Math.exp(-weights.length / decay));
  return weights[distance]!;
}
