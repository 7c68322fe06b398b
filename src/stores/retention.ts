// How long behaviour data is kept, and the pruning of the event log and of the
// session → merchant pairs to it. The applier thread prunes in the background,
// a slice per transaction (src/ingest/event-applier.ts); histories and the
// session index prune themselves (EventHistories, SessionIndex).
import type { Database } from "lmdb";
import { dayNumber } from "../core/recs/days.js";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import { merchantRange, type Key } from "./merchant-keys.js";

export interface Retention {
  /** The event log's events and histories older than this many days are pruned. */
  days: number;
  /** viewed-related's sessions that began more than this many days ago are pruned. */
  sessionDays: number;
  /** Beyond this many sessions of a merchant, viewed-related's session index prunes the oldest. */
  maxSessions: number;
}

const DAY_MS = 86_400_000;

/** Events before this time (ms) are past `days` of retention at `now`. */
export function retentionCutoff(days: number, now: number): number {
  return now - days * DAY_MS;
}

/**
 * Removes, in the caller's write transaction of the log's environment, up to
 * `limit` of the merchant's oldest log records (`records`, keyed by their last
 * sequence number) whose events are all before `before` and applied (at or
 * behind `applied`, the derived watermark): an event is never lost before
 * what derives from it is stored. Stops at the first record it keeps, so the
 * log stays a suffix. Returns how many it removed (below `limit`: nothing
 * more is due).
 */
export function pruneEventRecords(
  records: Database<readonly BehaviourEvent[], Key>,
  merchant: MerchantId,
  before: number,
  applied: number,
  limit: number,
): number {
  return pruneLogPrefix(records, merchant, applied, limit, (events) => events.some((event) => event.at >= before));
}

/** pruneEventRecords for the log before format 5, one event a key. */
export function pruneLoggedOneByOne(
  events: Database<BehaviourEvent, Key>,
  merchant: MerchantId,
  before: number,
  applied: number,
  limit: number,
): number {
  return pruneLogPrefix(events, merchant, applied, limit, (event) => event.at >= before);
}

/** Removes up to `limit` of the merchant's oldest log entries, stopping at the first one not yet applied or still `kept`: the log stays a suffix. */
function pruneLogPrefix<V>(
  log: Database<V, Key>,
  merchant: MerchantId,
  applied: number,
  limit: number,
  kept: (value: V) => boolean,
): number {
  const expired: Key[] = [];
  for (const { key, value } of log.getRange({ ...merchantRange(merchant), limit })) {
    if ((key[1] as number) > applied || kept(value)) break;
    expired.push(key);
  }
  for (const key of expired) log.remove(key);
  return expired.length;
}

/**
 * A [uuid, merchant] pair's value: the day (dayNumber) the merchant last
 * logged an event of the session, written at most once a day per session
 * (EventLog.logEvents). Pairs written before retention existed hold `true`.
 */
export type SessionPairDay = number | true;

/**
 * Looks at up to `limit` session → merchant pairs after `after` (null: from
 * the first), in the caller's write transaction of the log's environment:
 * removes those last logged before the day of `before`, and starts the
 * retention of a pair from before retention (`true`) today. Returns the last
 * pair looked at, or null once the table is done.
 *
 * A pair is removed only when its day is past: an event logged meanwhile
 * writes today's day in a later transaction (LMDB has one writer at a time),
 * so a session that comes back keeps its pair.
 */
export function pruneSessionPairs(
  pairs: Database<SessionPairDay, [string, MerchantId]>,
  before: number,
  now: number,
  after: [string, MerchantId] | null,
  limit: number,
): [string, MerchantId] | null {
  const beforeDay = dayNumber(before);
  const today = dayNumber(now);
  let last: [string, MerchantId] | null = null;
  let looked = 0;
  const expired: [string, MerchantId][] = [];
  const undated: [string, MerchantId][] = [];
  // The range starts at `after` itself, which was looked at before.
  for (const { key, value } of pairs.getRange({ start: after ?? undefined, limit: limit + 1 })) {
    if (after !== null && key[0] === after[0] && key[1] === after[1]) continue;
    if (looked === limit) break;
    if (value === true) undated.push(key);
    else if (value < beforeDay) expired.push(key);
    last = key;
    looked++;
  }
  for (const key of expired) pairs.remove(key);
  for (const key of undated) pairs.put(key, today);
  return looked < limit ? null : last;
}
