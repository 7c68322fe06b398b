// Sessions' views kept between session kNN queries, in flat arrays. A query
// reads about two hundred neighbours' views; a thread that kept each as its own
// Float64Array in a Map paid for it three times: the map's lookups, a young-
// generation collection every few hundred queries that copied the new arrays,
// and, bounded to what those costs allowed, misses that read LMDB. Here a
// generation is one array of views, the sessions' offsets into it and a
// KeySlots table: nothing per session for the collector to trace, and a
// generation retired is cleared and written again, not allocated.

import { grownTo } from "../typed-arrays.js";
import { KeySlots } from "./key-slots.js";

/** Sessions and views one generation starts with room for; it doubles up to its bounds as it fills. */
const FIRST_SESSIONS = 1_024;
const FIRST_VIEWS = 8_192;
/** A session with more views than this share of a generation is not kept: one session must not flush a small cache. */
const LONGEST_SHARE = 1 / 16;

/** One generation: the views of each kept session, one after another in the order they were kept. */
class Generation {
  readonly sessions = new KeySlots();
  /** Per slot: where its views start in `views`; `starts[slot + 1]` is where they end. */
  starts = new Int32Array(FIRST_SESSIONS + 1);
  views = new Float64Array(FIRST_VIEWS);

  constructor(
    private readonly maxSessions: number,
    private readonly maxViews: number,
  ) {}

  get used(): number {
    return this.starts[this.sessions.size]!;
  }

  find(session: number): Float64Array | undefined {
    const slot = this.sessions.find(session);
    return slot < 0 ? undefined : this.views.subarray(this.starts[slot], this.starts[slot + 1]);
  }

  /** Room for `count` more views of a session not kept here (within the bounds), counted as kept: the caller writes them. */
  add(session: number, count: number): Float64Array {
    const at = this.used;
    const before = this.sessions.size;
    const slot = this.sessions.slotOf(session);
    // Kept again, its slot would be given the end of the array and its views those kept after it.
    if (slot !== before) throw new RangeError(`session ${session} is kept already`);
    if (slot + 2 > this.starts.length) this.starts = grownTo(this.starts, Math.min(2 * (slot + 2), this.maxSessions + 1));
    if (at + count > this.views.length) this.views = grownTo(this.views, Math.min(2 * (at + count), this.maxViews));
    this.starts[slot + 1] = at + count;
    return this.views.subarray(at, at + count);
  }

  clear(): void {
    this.sessions.clear();
  }
}

export class SessionViewsCache {
  private young: Generation;
  private old: Generation;
  /** Where a session too long to keep is read into: valid until the next call, as a SessionSource's arrays are. */
  private unkept = new Float64Array(0);

  /**
   * @param sessionsPerGeneration sessions one generation holds at most
   * @param viewsPerGeneration views (8 bytes each) one generation holds at most
   */
  constructor(
    private readonly sessionsPerGeneration: number,
    private readonly viewsPerGeneration: number,
  ) {
    this.young = new Generation(sessionsPerGeneration, viewsPerGeneration);
    this.old = new Generation(sessionsPerGeneration, viewsPerGeneration);
  }

  /** The session's kept views, valid until the next call; a session found only in the old generation moves to the young one. */
  get(session: number): Float64Array | undefined {
    const young = this.young.find(session);
    if (young !== undefined) return young;
    const old = this.old.find(session);
    if (old === undefined) return undefined;
    // Kept again, so the next generation keeps it. TypedArray.set copies
    // correctly even when a rotation just made `old`'s buffer the young one.
    const kept = this.keep(session, old.length);
    kept.set(old);
    return kept;
  }

  /**
   * Room for the `count` views of a session get() just missed, which the
   * caller writes at once: the young generation's when the session is short
   * enough to keep, a scratch array otherwise. Valid until the next call.
   */
  keep(session: number, count: number): Float64Array {
    if (count > this.viewsPerGeneration * LONGEST_SHARE) {
      if (this.unkept.length < count) this.unkept = new Float64Array(count);
      return this.unkept.subarray(0, count);
    }
    if (this.young.sessions.size === this.sessionsPerGeneration || this.young.used + count > this.viewsPerGeneration) this.retireYoung();
    return this.young.add(session, count);
  }

  /** Forgets every session (their views changed). */
  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  /** Sessions held, both generations (a session in both counts twice). */
  get size(): number {
    return this.young.sessions.size + this.old.sessions.size;
  }

  /** The young generation becomes the old one; the old one's arrays are cleared to be the young one. */
  private retireYoung(): void {
    const retired = this.old;
    this.old = this.young;
    retired.clear();
    this.young = retired;
  }
}
