// viewed-related's session index: every session's views and, per product, how
// many sessions viewed it and which did most recently, as session kNN reads
// them (src/core/recs/session-knn.ts). The applier thread writes it behind the
// histories (follow): it reads the log from the index's own watermark, which
// moves in the same transaction as what it applies, so each view is in it
// exactly once, also across a crash. It follows at once when the log is quiet
// and at most every few seconds under load, so a session's views of those
// seconds are one write of it, not one each: most of the index's cost is the
// rewrite of a session per batch. A query's own session comes from its
// history, so only the neighbours it finds lag. The applier prunes it in the
// background (prune). Workers read it in place (SessionIndexReader).
//
// Sessions are numbered by arrival (a new uuid takes the head's next number),
// so a larger number is a more recent session, as the query's recency fade
// and its sample of the most recent sessions need. A pruned session's uuid
// that views again starts a new session.
//
// An item's recent sessions are kept as a head of up to SESSIONS_KEPT_PER_ITEM
// and a short tail, with its viewer count: a batch of events rewrites the
// tails of the items it touches, and a head only once its tail has gathered
// TAIL_FOLD sessions. A full list is 4 KB, which LMDB keeps on overflow
// pages: rewriting one cost about 13 µs against 3 µs for a tail (50k items,
// batches of 16k), for every item of a large catalogue a batch touches.
import type { Database, RootDatabase } from "lmdb";
import {
  addToItem,
  decodeHead,
  decodeItemHead,
  decodeItemTail,
  decodeSession,
  encodeHead,
  encodeItemHead,
  encodeItemTail,
  encodeSession,
  sessionFirstViewAt,
  sessionViews,
  type IndexHead,
} from "../core/recs/session-index-codec.js";
import type { SessionSource } from "../core/recs/session-knn.js";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import { merchantRange, type Key } from "./merchant-keys.js";
import { retentionCutoff, type Retention } from "./retention.js";
import { SessionIndexReader } from "./session-index-reader.js";

/**
 * Sessions kept per item: a query samples the most recent sessions sharing any
 * of its items, at most its sampleSize of each item's, so keeping that many
 * answers exactly as keeping all would (the idf weight reads exact counts).
 * The largest sample a shop's tuning may choose.
 */
export const SESSIONS_KEPT_PER_ITEM = 1_000;
/**
 * Views indexed per session; later ones are left out. A session's value is
 * rewritten with each batch of its views, and one that views over a hundred
 * products is a crawler more likely than a shopper (the longest Diginetica
 * session, of `aisle eval sessions`, has 70).
 */
export const MAX_SESSION_VIEWS = 100;
/** Sessions an item's tail gathers before they are folded into its head. */
const TAIL_FOLD = 64;
/** Arrival numbers are int32 in item lists (session-index-codec.ts). */
const MAX_ARRIVAL_NUMBER = 2 ** 31;

/** The index's tables (SessionIndexReader reads them too). */
export interface SessionTables {
  /** merchant → IndexHead. */
  heads: Database<Uint8Array, MerchantId>;
  /** [merchant, uuid] → the session's arrival number. */
  numbers: Database<number, Key>;
  /** [merchant, arrival number] → the session (encodeSession). */
  sessions: Database<Uint8Array, Key>;
  /** [merchant, product id] → the item's viewer count and recent sessions not in its head (encodeItemTail). */
  itemTails: Database<Uint8Array, Key>;
  /** [merchant, product id] → the item's older recent sessions (encodeItemHead). */
  itemHeads: Database<Uint8Array, Key>;
}

/** Where the index reads: the event log, and how far the applier has applied it to the histories. */
export interface AppliedEventLog {
  eventsSince(merchant: MerchantId, after: number): Iterable<{ sequence: number; event: BehaviourEvent }>;
  derivedSequence(merchant: MerchantId): number;
}

/** A session a batch of events touches. */
interface Touched {
  uuid: string;
  number: number;
  isNew: boolean;
  firstViewAt: number;
  /** Its views as stored, and those the batch adds. */
  stored: Float64Array;
  added: number[];
}

export class SessionIndex {
  private readonly tables: SessionTables;
  private readonly reader: SessionIndexReader;
  /** merchant → the last event sequence the index has taken in (its watermark). */
  private readonly watermarks: Database<number, MerchantId>;

  constructor(root: RootDatabase) {
    const binary = { encoding: "binary" } as const;
    this.tables = {
      heads: root.openDB<Uint8Array, MerchantId>({ name: "session_index_heads", ...binary }),
      numbers: root.openDB<number, Key>({
        name: "session_index_numbers",
        encoding: "msgpack",
        sharedStructuresKey: Symbol.for("structures"),
      }),
      sessions: root.openDB<Uint8Array, Key>({ name: "session_index_sessions", ...binary }),
      itemTails: root.openDB<Uint8Array, Key>({ name: "session_index_item_tails", ...binary }),
      itemHeads: root.openDB<Uint8Array, Key>({ name: "session_index_item_heads", ...binary }),
    };
    this.reader = new SessionIndexReader(this.tables);
    this.watermarks = root.openDB<number, MerchantId>({
      name: "session_index_through",
      encoding: "msgpack",
      sharedStructuresKey: Symbol.for("structures"),
    });
  }

  /** The last event sequence the merchant's index has taken in (0: none). */
  through(merchant: MerchantId): number {
    return this.watermarks.get(merchant) ?? 0;
  }

  /** Sets the watermark, in the caller's write transaction: the index holds every event up to `sequence` (an upgrade in place). */
  markThrough(merchant: MerchantId, sequence: number): void {
    this.watermarks.put(merchant, sequence);
  }

  /**
   * Takes in up to `maxEvents` of the events the log has applied after the
   * index's watermark (up to `upTo`), in the caller's write transaction, and
   * moves the watermark past them. Returns true once the index has reached
   * them all.
   */
  follow(merchant: MerchantId, log: AppliedEventLog, maxEvents: number, upTo = Number.POSITIVE_INFINITY): boolean {
    const after = this.through(merchant);
    const applied = Math.min(log.derivedSequence(merchant), upTo);
    if (after >= applied) return true;
    // Each event is taken in as it is read, not gathered first: a slice's tens of thousands of decoded
    // events then die young, where an array of them outlived the young generation and was copied by GC.
    const batch = this.batch(merchant);
    let taken = 0;
    let through = after;
    let full = false;
    for (const { sequence, event } of log.eventsSince(merchant, after)) {
      if (sequence > applied) break;
      if (taken === maxEvents) {
        full = true;
        break;
      }
      batch.take(event);
      taken++;
      through = sequence;
    }
    batch.write();
    // Sequence numbers a failed log commit took stay unused: past the last event, the index is at the watermark.
    const reached = full ? through : applied;
    this.markThrough(merchant, reached);
    return reached >= applied;
  }

  /** The merchant's index as a whole (undefined: nothing indexed yet). */
  head(merchant: MerchantId): IndexHead | undefined {
    const bytes = this.tables.heads.getBinaryFast(merchant);
    return bytes === undefined ? undefined : decodeHead(bytes);
  }

  /** The arrival number of the session `uuid` (undefined: not in the index). */
  numberOf(merchant: MerchantId, uuid: string): number | undefined {
    return this.tables.numbers.get([merchant, uuid]);
  }

  /** The merchant's index as a query reads it, at this thread's snapshot (null: no session indexed). */
  source(merchant: MerchantId): SessionSource | null {
    const head = this.head(merchant);
    return head === undefined || head.live === 0 ? null : this.reader.source(merchant, head);
  }

  /**
   * Takes in a batch of events in log order, in the caller's write
   * transaction (follow, which also moves the watermark; tests): views with a
   * uuid, the rest passes by. Each session and item
   * the batch touches is read and written once, and what is stored is the
   * same however the log is cut into batches.
   */
  apply(merchant: MerchantId, events: readonly BehaviourEvent[]): void {
    const batch = this.batch(merchant);
    for (const event of events) batch.take(event);
    batch.write();
  }

  /** A batch of the merchant's events, taken in one by one (take) and written at once (write). */
  private batch(merchant: MerchantId): { take(event: BehaviourEvent): void; write(): void } {
    const head = this.head(merchant) ?? { next: 0, live: 0, views: 0 };
    const viewsBefore = head.views;
    const touched = new Map<string, Touched>();
    // Per product, the sessions that view it for the first time, in order.
    const newViewers = new Map<number, number[]>();
    return {
      take: (event) => {
        if (event.verb !== "viewed" || event.uuid === null) return;
        let entry = touched.get(event.uuid);
        if (entry === undefined) touched.set(event.uuid, (entry = this.touch(merchant, event, head)));
        const { stored, added } = entry;
        if (stored.length + added.length >= MAX_SESSION_VIEWS) return;
        const product = event.product_id;
        if (!added.includes(product) && !stored.includes(product)) {
          const viewers = newViewers.get(product);
          if (viewers) viewers.push(entry.number);
          else newViewers.set(product, [entry.number]);
        }
        added.push(product);
        head.views++;
      },
      write: () => {
        if (head.views === viewsBefore) return;
        for (const entry of touched.values()) if (entry.added.length > 0) this.writeSession(merchant, entry);
        for (const [product, viewers] of newViewers) this.addViewers(merchant, product, viewers);
        this.tables.heads.put(merchant, encodeHead(head));
      },
    };
  }

  /**
   * Prunes up to `limit` of the oldest sessions, in the caller's write
   * transaction: those beyond `retention.maxSessions`, and those that began
   * more than `retention.days` before `now` (ms). Returns how many it pruned
   * (below `limit`: nothing more is due).
   */
  prune(merchant: MerchantId, retention: Retention, now: number, limit: number): number {
    const { sessions, numbers, heads } = this.tables;
    const head = this.head(merchant);
    if (head === undefined) return 0;
    const startedBy = retentionCutoff(retention.sessionDays, now);
    // Per product, how many of its viewers go.
    const leaving = new Map<number, number>();
    const pruned = new Set<number>();
    // Oldest first: arrival numbers follow first views.
    for (const { key, value } of sessions.getRange({ ...merchantRange(merchant), limit })) {
      const session = decodeSession(value);
      if (head.live - pruned.size <= retention.maxSessions && session.firstViewAt >= startedBy) break;
      const number = key[1] as number;
      pruned.add(number);
      for (const product of new Set(session.views)) leaving.set(product, (leaving.get(product) ?? 0) + 1);
      numbers.remove([merchant, session.uuid]);
    }
    if (pruned.size === 0) return 0;
    for (const number of pruned) sessions.remove([merchant, number]);
    for (const [product, count] of leaving) this.removeViewers(merchant, product, count, pruned);
    heads.put(merchant, encodeHead({ ...head, live: head.live - pruned.size }));
    return pruned.size;
  }

  /** The views of the merchant's `limit` most recent sessions, oldest first (what its tuning learns from). */
  recentSessions(merchant: MerchantId, limit: number): Float64Array[] {
    const { start, end } = merchantRange(merchant);
    // A reverse range runs from its higher bound.
    const newestFirst = this.tables.sessions.getRange({ start: end, end: start, reverse: true, limit });
    return [...newestFirst.map(({ value }) => sessionViews(value))].reverse();
  }

  /** Removes the merchant's index, in the caller's write transaction. */
  clear(merchant: MerchantId): void {
    const { heads, ...keyed } = this.tables;
    heads.remove(merchant);
    this.watermarks.remove(merchant);
    for (const db of Object.values(keyed) as Database<unknown, Key>[]) {
      for (const key of [...db.getKeys(merchantRange(merchant))]) db.remove(key);
    }
  }

  private touch(merchant: MerchantId, event: BehaviourEvent, head: IndexHead): Touched {
    const uuid = event.uuid!;
    const number = this.numberOf(merchant, uuid);
    if (number === undefined) {
      if (head.next === MAX_ARRIVAL_NUMBER) throw new RangeError(`the session index of ${merchant} has numbered 2³¹ sessions, all it can`);
      head.live++;
      return { uuid, number: head.next++, isNew: true, firstViewAt: event.at, stored: new Float64Array(0), added: [] };
    }
    const bytes = this.tables.sessions.getBinaryFast([merchant, number])!;
    return { uuid, number, isNew: false, firstViewAt: sessionFirstViewAt(bytes), stored: sessionViews(bytes), added: [] };
  }

  private writeSession(merchant: MerchantId, { uuid, number, isNew, firstViewAt, stored, added }: Touched): void {
    this.tables.sessions.put([merchant, number], encodeSession({ uuid, firstViewAt, views: stored }, added));
    if (isNew) this.tables.numbers.put([merchant, uuid], number);
  }

  /**
   * Appends an item's new viewers to its tail; every TAIL_FOLD sessions the
   * tail gathers go to its head, which keeps the last SESSIONS_KEPT_PER_ITEM
   * (as if folded one by one: the same whatever the batches).
   */
  private addViewers(merchant: MerchantId, product: number, viewers: number[]): void {
    const key: Key = [merchant, product];
    const { itemTails, itemHeads } = this.tables;
    // addToItem is done with the tail before it reads the head, which reuses getBinaryFast's buffer.
    const added = addToItem(itemTails.getBinaryFast(key), () => itemHeads.getBinaryFast(key), viewers, TAIL_FOLD, SESSIONS_KEPT_PER_ITEM);
    if (added.head !== null) itemHeads.put(key, added.head);
    itemTails.put(key, added.tail);
  }

  /** Takes `count` pruned viewers off an item: out of its count, and out of its recent sessions. */
  private removeViewers(merchant: MerchantId, product: number, count: number, pruned: Set<number>): void {
    const key: Key = [merchant, product];
    const { itemHeads, itemTails } = this.tables;
    const tail = decodeItemTail(itemTails.getBinaryFast(key)!);
    if (tail.viewers === count) {
      itemTails.remove(key);
      itemHeads.remove(key);
      return;
    }
    itemTails.put(
      key,
      encodeItemTail(
        tail.viewers - count,
        tail.recent.filter((number) => !pruned.has(number)),
      ),
    );
    const stored = itemHeads.getBinaryFast(key);
    if (stored === undefined) return;
    const head = decodeItemHead(stored);
    const kept = head.filter((number) => !pruned.has(number));
    if (kept.length === 0) itemHeads.remove(key);
    else if (kept.length < head.length) itemHeads.put(key, encodeItemHead(kept));
  }
}
