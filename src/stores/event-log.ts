// The behaviour-event log, in its own environment (events.lmdb): events
// numbered by a sequence per merchant, the session → merchant pairs logged
// with them, and the log's pruning to the retention. What derives from the
// log follows it behind (AppliedEvents).
import type { Database } from "lmdb";
import { dayNumber } from "../core/recs/days.js";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import type { Environment } from "./environment.js";
import type { Key } from "./merchant-keys.js";
import { RecentMap } from "./recent-map.js";
import { StreamWatermarks } from "./stream-watermarks.js";
import { pruneEventRecords, pruneLoggedOneByOne, pruneSessionPairs, type SessionPairDay } from "./retention.js";

/** A bulk append (appendEvents) logs records of at most this many events. */
const BULK_RECORD_EVENTS = 1_000;
/** Sessions whose merchant logEvents remembers without reading the index: about 100k sessions take ~10 MB. */
const RECENT_SESSIONS = 100_000;

/** The log's counter of a merchant's last event sequence number. */
function eventSequenceKey(merchant: MerchantId): string {
  return `event_sequence:${merchant}`;
}

/** A session logEvents indexed lately: the merchant that last logged it, and the day the pair of the two holds. */
interface IndexedSession {
  merchant: MerchantId;
  day: number;
}

export class EventLog {
  /** The event log up to format 4: one record per event, keyed [merchant, sequence]. Read, never written (but by the migration to format 4). */
  readonly eventsOneByOne: Database<BehaviourEvent, Key>;
  /**
   * The event log since format 5: one record per commit and merchant, keyed
   * [merchant, last sequence], so the first record at or after a sequence
   * number is the one holding it.
   */
  private readonly eventRecords: Database<readonly BehaviourEvent[], Key>;
  /**
   * Up to format 6: session → the last merchant that logged it. Read, never written (but by the migration to format 4): a
   * session belongs to whoever logs it.
   */
  readonly sessionMerchants: Database<MerchantId, string>;
  /**
   * [uuid, merchant] of every merchant that logged the session (one shop's
   * events never move a session away from another) → the day it last did.
   */
  private readonly sessionMerchantPairs: Database<SessionPairDay, [string, MerchantId]>;
  /** Per merchant, the next sequence number logEvents hands out, once it has logged for that merchant. */
  private readonly nextSequences = new Map<MerchantId, number>();
  /**
   * Sessions logEvents has indexed lately, by uuid, with the merchant that last logged each and the day its pair
   * holds: most events come from a session it has seen, and a Map is cheaper than an LMDB read. Keyed by the
   * event's own uuid string, so no key is built per event on the HTTP thread; a session two merchants log in
   * turn is read each time the merchant changes. That string keeps nothing else alive: the service's uuids
   * are copies of their own (request parameters are detached, a cluster node's events are parsed from JSON).
   */
  private readonly indexedSessions = new RecentMap<string, IndexedSession>(RECENT_SESSIONS);
  private readonly watermarks: StreamWatermarks;

  constructor(
    private readonly env: Environment,
    /** The last sequence of the merchant's events that everything derived from the log has taken in: pruning keeps the rest. */
    private readonly appliedThrough: (merchant: MerchantId) => number,
  ) {
    this.eventsOneByOne = env.table("events", env.logRoot);
    this.eventRecords = env.table("event_records", env.logRoot);
    this.sessionMerchants = env.table("session_merchants", env.logRoot);
    this.sessionMerchantPairs = env.table("session_merchant_pairs", env.logRoot);
    this.watermarks = new StreamWatermarks(env);
  }

  /**
   * Appends events to the log (numbered by a per-merchant sequence, so readers
   * can follow it) and the session → merchant index, nothing else: this commit
   * is what an acknowledgement waits for. Each merchant's events of the batch
   * are one record on a sequential key: one put, however many events share the
   * commit. Histories, add counts and carts follow in deriveEventsSync.
   *
   * For the service's HTTP thread: lmdb's asynchronous puts, so nothing here
   * blocks. They join this event-loop turn's write batch, which lmdb's own
   * write thread commits as one transaction, and with overlappingSync flushes
   * to disk while the next batch is written. Sequence numbers are handed out
   * from memory: while the service runs it is the log's only appender (a bulk
   * appendEvents is for seeding and evaluation, with no service running; the
   * applier only removes records past the retention, pruneEventLogSync).
   * Returns each merchant's first sequence number and a promise that resolves
   * once the batch is committed and flushed, or rejects if its commit failed;
   * the numbers it took then stay unused, a gap readers of the log skip.
   * `streamSequence`: on a cluster node, the stream message the events came
   * in, noted as applied in the same batch.
   */
  logEvents(
    groups: Iterable<[MerchantId, readonly BehaviourEvent[]]>,
    streamSequence?: number,
  ): { firsts: Map<MerchantId, number>; durable: Promise<void> } {
    const firsts = new Map<MerchantId, number>();
    let last: Promise<boolean> | undefined;
    for (const [merchant, events] of groups) {
      if (events.length === 0) continue;
      const first = this.nextSequences.get(merchant) ?? this.eventSequence(merchant) + 1;
      const lastSequence = first + events.length - 1;
      // Encoded now, so the caller may go on reading the array.
      void this.eventRecords.put([merchant, lastSequence], events);
      for (const event of events) if (event.uuid !== null) this.indexSession(event.uuid, merchant, event.at);
      this.nextSequences.set(merchant, lastSequence + 1);
      firsts.set(merchant, first);
      last = this.env.logMeta.put(eventSequenceKey(merchant), lastSequence);
    }
    // A cluster node's place in the stream, in the same batch as the events it delivered.
    if (streamSequence !== undefined && last !== undefined) last = this.watermarks.noteLog(streamSequence);
    if (last === undefined) return { firsts, durable: Promise.resolve() };
    // Every put of this turn is in one transaction: the last one's promises stand for all.
    const committed = last as Promise<boolean> & { flushed: Promise<void> };
    const durable = committed.then(() => committed.flushed);
    // A failed batch may have taken sessions' index entries with it: read the index again from now on.
    durable.catch(() => this.indexedSessions.clear());
    return { firsts, durable };
  }

  /** Logs events in one transaction of the log's environment, for a bulk load (appendEvents). */
  async append(merchant: MerchantId, events: readonly BehaviourEvent[]): Promise<void> {
    await this.env.logRoot.transaction(() => this.writeEventLog(merchant, events));
  }

  /**
   * Adds a session to the session → merchant index, or moves its pair's day
   * (what retention prunes by) to the day of `at`, in the write batch or
   * transaction under way: once a day per session at most.
   */
  private indexSession(uuid: string, merchant: MerchantId, at: number): void {
    const day = dayNumber(at);
    const memo = this.indexedSessions.get(uuid);
    if (memo !== undefined && memo.merchant === merchant && memo.day >= day) return;
    const stored = this.sessionMerchantPairs.get([uuid, merchant]);
    if (typeof stored !== "number" || stored < day) void this.sessionMerchantPairs.put([uuid, merchant], day);
    this.indexedSessions.set(uuid, { merchant, day: Math.max(day, typeof stored === "number" ? stored : day) });
  }

  /**
   * Removes up to `limit` of the merchant's oldest log records (or events
   * logged one by one) whose events are all before `before` (ms) and applied,
   * in one transaction of the log's environment; returns how many (below
   * `limit`: done). The HTTP thread goes on logging meanwhile: it numbers
   * events from its own counter, which this leaves alone.
   */
  pruneEventLogSync(merchant: MerchantId, before: number, limit: number): number {
    const applied = this.appliedThrough(merchant);
    return this.env.logRoot.transactionSync(() => {
      const oneByOne = pruneLoggedOneByOne(this.eventsOneByOne, merchant, before, applied, limit);
      return oneByOne + pruneEventRecords(this.eventRecords, merchant, before, applied, limit - oneByOne);
    });
  }

  /** A slice of a walk over the session → merchant pairs, removing those last logged before `before` (pruneSessionPairs). */
  pruneSessionPairsSync(before: number, now: number, after: [string, MerchantId] | null, limit: number): [string, MerchantId] | null {
    return this.env.logRoot.transactionSync(() => pruneSessionPairs(this.sessionMerchantPairs, before, now, after, limit));
  }

  /** Logs events in the caller's transaction (of the log's environment); returns the first one's sequence number. */
  private writeEventLog(merchant: MerchantId, events: readonly BehaviourEvent[]): number {
    const counterKey = eventSequenceKey(merchant);
    const before = (this.env.logMeta.get(counterKey) as number | undefined) ?? 0;
    for (let start = 0; start < events.length; start += BULK_RECORD_EVENTS) {
      const record = events.slice(start, start + BULK_RECORD_EVENTS);
      this.eventRecords.put([merchant, before + start + record.length], record);
    }
    for (const event of events) if (event.uuid !== null) this.indexSession(event.uuid, merchant, event.at);
    const lastSequence = before + events.length;
    this.env.logMeta.put(counterKey, lastSequence);
    this.nextSequences.set(merchant, lastSequence + 1);
    return before + 1;
  }

  /** The latest event sequence number of a merchant (0: none yet). */
  eventSequence(merchant: MerchantId): number {
    return (this.env.logMeta.get(eventSequenceKey(merchant)) as number | undefined) ?? 0;
  }

  /** Events with sequence numbers after `after`, oldest first. */
  *eventsSince(merchant: MerchantId, after: number): Generator<{ sequence: number; event: BehaviourEvent }> {
    const end: Key = [merchant, Number.MAX_SAFE_INTEGER];
    // Logged one by one before format 5: all of them precede every record.
    for (const { key, value } of this.eventsOneByOne.getRange({ start: [merchant, after + 1], end })) {
      yield { sequence: key[1] as number, event: value };
    }
    // Records are keyed by their last sequence: the first one at or after after + 1 holds it (or follows a gap).
    for (const { key, value } of this.eventRecords.getRange({ start: [merchant, after + 1], end })) {
      const first = (key[1] as number) - value.length + 1;
      for (let i = Math.max(0, after + 1 - first); i < value.length; i++) yield { sequence: first + i, event: value[i]! };
    }
  }

  /** The merchants that logged events of this session (viewed without a key); two at most are read. */
  merchantsOfSession(uuid: string): MerchantId[] {
    const merchants = new Set<MerchantId>();
    for (const key of this.sessionMerchantPairs.getKeys({ start: [uuid], end: [uuid, "\uffff"], limit: 2 })) merchants.add(key[1]);
    const logged = this.sessionMerchants.get(uuid);
    if (logged !== undefined) merchants.add(logged);
    return [...merchants];
  }
}
