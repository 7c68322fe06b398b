// Session-based kNN (V-SKNN, Ludewig & Jannach 2018): a session is scored
// against recent past sessions that share its items, weighting its own recent
// views most; items of the most similar sessions are recommended. Everything is
// typed arrays and integer ids so a query costs well under a millisecond.

export interface SessionKnnConfig {
  /** Most recent sessions per item considered as neighbour candidates. */
  sampleSize: number;
  /** Neighbours whose items are scored. */
  neighbours: number;
  /** Weight of the prefix item at distance d from the end: max(floor, 1 - step·d). */
  positionStep: number;
  positionFloor: number;
  /** Weight items by inverse session frequency when matching (rare shared items say more). */
  idf: boolean;
  /** Multiplier for items already in the prefix (0: never recommend them). */
  prefixBoost: number;
  /** Weight of a neighbour's item by its closeness to the matched item in that session (0: off). */
  neighbourPositionDecay: number;
}

export const DEFAULT_SESSION_KNN: SessionKnnConfig = {
  sampleSize: 1_000,
  neighbours: 200,
  positionStep: 0.1,
  positionFloor: 0.1,
  idf: false,
  prefixBoost: 0,
  neighbourPositionDecay: 0,
};

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
    const total = Math.max(1, this.sessions.length);

    // Weight of each distinct prefix item: its most recent position counts.
    const weights = new Map<number, number>();
    for (let p = 0; p < prefix.length; p++) {
      const item = prefix[p]!;
      if (item >= this.postings.length) continue;
      const distance = prefix.length - 1 - p;
      const w = Math.max(config.positionFloor, 1 - config.positionStep * distance);
      const idf = config.idf ? Math.log(total / Math.max(1, this.postings[item]!.length)) : 1;
      weights.set(item, w * idf);
    }

    // Candidates: the most recent sessions of each prefix item, scored by overlap.
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
    candidates.sort((a, b) => this.sessionScores[b]! - this.sessionScores[a]! || b - a);
    const neighbours = candidates.slice(0, config.neighbours);

    // Items of the neighbours, weighted by each neighbour's similarity.
    const scores = new Map<number, number>();
    for (const session of neighbours) {
      const similarity = this.sessionScores[session]!;
      const list = this.sessions[session]!;
      for (let i = 0; i < list.length; i++) {
        const item = list.data[i]!;
        let gain = similarity;
        if (config.neighbourPositionDecay > 0) gain *= this.closeness(list, i, weights, config.neighbourPositionDecay);
        scores.set(item, (scores.get(item) ?? 0) + gain);
      }
    }
    for (const item of weights.keys()) {
      const score = scores.get(item);
      if (score === undefined) continue;
      if (config.prefixBoost === 0) scores.delete(item);
      else scores.set(item, score * config.prefixBoost);
    }
    return scores;
  }

  /** How close item i of a neighbour session sits to the nearest item it shares with the query. */
  private closeness(list: IntList, i: number, shared: Map<number, number>, decay: number): number {
    let best = Number.POSITIVE_INFINITY;
    for (let j = 0; j < list.length; j++) if (shared.has(list.data[j]!)) best = Math.min(best, Math.abs(j - i));
    return best === Number.POSITIVE_INFINITY ? 1 : Math.exp(-decay * best);
  }

  private ensureScratch(): void {
    if (this.sessionMark.length >= this.sessions.length) return;
    const size = Math.max(1024, this.sessions.length * 2);
    this.sessionMark = new Int32Array(size);
    this.sessionScores = new Float64Array(size);
    this.queryStamp = 0;
  }
}
