// Session-based kNN (V-SKNN, Ludewig & Jannach 2018): a session is scored
// against recent past sessions that share its items, weighting its own recent
// views most; items of the most similar sessions are recommended. Everything is
// typed arrays and integer ids so a query costs well under a millisecond.

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
  /** > 0: a neighbour's vote × exp(−(newest session − its session) / this): recent sessions know the current catalogue. */
  recencyScale: number;
}

/**
 * Tuned on a validation split carved from the end of the Diginetica training
 * sessions (never on the test cases): V-SKNN with linear prefix weights, the
 * 1000 most recent candidate sessions, 100 neighbours, each neighbour's vote
 * divided by how far back its most recent shared item sits in the prefix.
 * Then (validation 49.08 / 17.89 → 50.57 / 18.15 HR / MRR @20 in the protocol
 * setting): a neighbour's items weighted by their distance from the item the
 * sessions share (exp(−d/5)), rarer items lifted (× (1 + idf)), and older
 * neighbour sessions fading over 150,000 sessions.
 */
export const DEFAULT_SESSION_KNN: SessionKnnConfig = {
  sampleSize: 1_000,
  neighbours: 100,
  remind: false,
  boost: 0,
  boostDecay: 0.6,
  positionDecay: 5,
  idfWeight: 1,
  recencyScale: 150_000,
};

/** The protocol's setting: repeat views count as hits, so recently viewed items are boosted. */
export const REMINDING_SESSION_KNN: SessionKnnConfig = { ...DEFAULT_SESSION_KNN, remind: true, boost: 1 };

/** A growable Int32 list (JS arrays of numbers cost 2–4× the memory). */
class IntList {
  data = new Int32Array(4);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

/**
 * Sessions and, per item, the sessions that contain it (in order of arrival,
 * so the tail holds the most recent). Items and sessions are dense ints; the
 * caller maps its own ids in and out.
 */
export class SessionIndex {
  /** Items of each session, in order. */
  private readonly sessions: IntList[] = [];
  /** Per item: sessions containing it, each once, most recent last. */
  private readonly postings: IntList[] = [];
  /** Scratch per session for one query: its similarity, valid where sessionMark equals the query's stamp. */
  private sessionScores = new Float64Array(0);
  private sessionMark = new Int32Array(0);
  private queryStamp = 0;

  get sessionCount(): number {
    return this.sessions.length;
  }

  get itemCount(): number {
    return this.postings.length;
  }

  newSession(): number {
    this.sessions.push(new IntList());
    return this.sessions.length - 1;
  }

  /** Appends an item view to a session (sessions grow as their events arrive). */
  append(session: number, item: number): void {
    const list = this.sessions[session]!;
    let seen = false;
    for (let i = 0; i < list.length; i++) if (list.data[i] === item) seen = true;
    list.push(item);
    while (this.postings.length <= item) this.postings.push(new IntList());
    if (!seen) this.postings[item]!.push(session);
  }

  /**
   * Scores for the next item after `prefix` (items in view order), excluding
   * the session `self` from its own neighbours. Returns item → score for the
   * items worth ranking; the caller sorts.
   */
  query(prefix: readonly number[], config: SessionKnnConfig, self = -1): Map<number, number> {
    this.ensureScratch();
    const stamp = ++this.queryStamp;
    const length = prefix.length;

    // Weight of each distinct prefix item (its last occurrence counts: i/L, the
    // latest view weighs 1) and its step back from the end (1 = the latest).
    const weights = new Map<number, number>();
    const steps = new Map<number, number>();
    for (let p = 0; p < length; p++) {
      const item = prefix[p]!;
      if (item >= this.postings.length) continue;
      weights.set(item, (p + 1) / length);
      steps.set(item, length - p);
    }

    // Candidates: the most recent sessions holding any prefix item (session ids
    // grow with time), scored by the weights of the items they share.
    const candidates: number[] = [];
    for (const [item, weight] of weights) {
      const posting = this.postings[item]!;
      const start = Math.max(0, posting.length - config.sampleSize);
      for (let k = posting.length - 1; k >= start; k--) {
        const session = posting.data[k]!;
        if (session === self) continue;
        if (this.sessionMark[session] !== stamp) {
          this.sessionMark[session] = stamp;
          this.sessionScores[session] = 0;
          candidates.push(session);
        }
        this.sessionScores[session] = this.sessionScores[session]! + weight;
      }
    }
    candidates.sort((a, b) => b - a);
    const sample = candidates.slice(0, config.sampleSize);
    sample.sort((a, b) => this.sessionScores[b]! - this.sessionScores[a]! || b - a);
    const neighbours = sample.slice(0, config.neighbours);

    // Each neighbour votes for its items with its similarity, divided by how far
    // back the latest prefix item it shares sits.
    const scores = new Map<number, number>();
    const newest = this.sessions.length - 1;
    for (const session of neighbours) {
      const list = this.sessions[session]!;
      let nearest = Number.POSITIVE_INFINITY;
      let anchor = -1;
      for (let i = 0; i < list.length; i++) {
        const step = steps.get(list.data[i]!) ?? Number.POSITIVE_INFINITY;
        if (step < nearest || (step === nearest && i > anchor)) {
          nearest = step;
          anchor = i;
        }
      }
      if (nearest === Number.POSITIVE_INFINITY) continue;
      let vote = this.sessionScores[session]! / nearest;
      if (config.recencyScale > 0) vote *= Math.exp(-(newest - session) / config.recencyScale);
      const voted = new Set<number>();
      for (let i = 0; i < list.length; i++) {
        const item = list.data[i]!;
        if (voted.has(item) || (!config.remind && steps.has(item))) continue;
        voted.add(item);
        const position = config.positionDecay > 0 ? Math.exp(-Math.abs(i - anchor) / config.positionDecay) : 1;
        scores.set(item, (scores.get(item) ?? 0) + vote * position);
      }
    }
    if (config.idfWeight > 0 && this.sessions.length > 1) {
      const logSessions = Math.log(this.sessions.length);
      for (const [item, score] of scores) {
        const idf = Math.log(this.sessions.length / Math.max(1, this.postings[item]?.length ?? 1)) / logSessions;
        scores.set(item, score * (1 + config.idfWeight * idf));
      }
    }
    if (config.remind && config.boost > 0) {
      let best = 0;
      for (const score of scores.values()) best = Math.max(best, score);
      if (best > 0) for (const [item, score] of scores) scores.set(item, score / best);
      for (let p = 0; p < length; p++) {
        const item = prefix[p]!;
        scores.set(item, (scores.get(item) ?? 0) + config.boost * config.boostDecay ** (length - p - 1));
      }
    }
    return scores;
  }

  private ensureScratch(): void {
    if (this.sessionMark.length >= this.sessions.length) return;
    const size = Math.max(1024, this.sessions.length * 2);
    this.sessionMark = new Int32Array(size);
    this.sessionScores = new Float64Array(size);
    this.queryStamp = 0;
  }
}
