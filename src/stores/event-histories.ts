// Each session's and customer's recent events (the binary of history-codec),
// kept in two parts: a head of older events, rewritten rarely, and a short
// tail that every applied slice of events rewrites. With one value per
// history, each slice rewrote whole histories of up to HISTORY_LIMIT events
// (3.4 KB, past what fits in a B-tree leaf), so the applier's cost per event
// grew with the histories: measured at 9 µs an event with 20-event histories
// and 25 µs with 200. Now a slice writes a tail of at most TAIL_ENTRIES, and
// folds it into the head once it is full: a head write per TAIL_ENTRIES
// events of a history. Readers read both.
import type { Database, RootDatabase } from "lmdb";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import { appendEncoded, concatEncoded, decodeHistory, encodedCount, encodeHistory, lastEncodedAt } from "../core/recs/history-codec.js";
import { HISTORY_LIMIT, type History } from "../core/recs/history.js";
import { merchantRange, type Key } from "./merchant-keys.js";

/** Events a tail holds before it is folded into its head: about 540 bytes, a few to a leaf page. */
export const TAIL_ENTRIES = 32;

/** Where a walk over a merchant's histories stands (EventHistories.prune): heads first, then tails that have no head. */
export interface HistoryWalk {
  table: "heads" | "tails";
  /** The last key looked at (null: none yet). */
  after: Key | null;
}

export class EventHistories {
  /** The older part of each history; all of it before format 6, which added tails. */
  private readonly heads: Database<Uint8Array, Key>;
  private readonly tails: Database<Uint8Array, Key>;

  constructor(root: RootDatabase) {
    this.heads = root.openDB<Uint8Array, Key>({ name: "event_histories", encoding: "binary" });
    this.tails = root.openDB<Uint8Array, Key>({ name: "event_history_tails", encoding: "binary" });
  }

  /** The history as stored (events applied so far), oldest first. */
  read(key: Key): History | undefined {
    // getBinary copies the tail: getBinaryFast's buffer is reused by the next read (and a Buffer's slice is a view).
    const tail = this.tails.getBinary(key);
    const head = this.heads.getBinaryFast(key);
    if (tail === undefined) return head === undefined ? undefined : decodeHistory(head);
    return decodeHistory(concatEncoded(head, tail, HISTORY_LIMIT));
  }

  /** Appends events, oldest first, in the caller's write transaction. */
  append(key: Key, events: readonly BehaviourEvent[]): void {
    // A copy (getBinary), as in read.
    const tail = this.tails.getBinary(key);
    if (encodedCount(tail) + events.length <= TAIL_ENTRIES) {
      this.tails.put(key, appendEncoded(tail, events, TAIL_ENTRIES));
      return;
    }
    const head = this.heads.getBinaryFast(key);
    this.heads.put(key, concatEncoded(head, appendEncoded(tail, events, HISTORY_LIMIT), HISTORY_LIMIT));
    if (tail !== undefined) this.tails.remove(key);
  }

  /**
   * Looks at the next `limit` of the merchant's histories on the walk `walk`
   * (null: from the start), in the caller's write transaction, and removes
   * those whose latest event as logged is before `before` (ms). Returns where
   * the walk stands, or null once every history was looked at.
   */
  prune(merchant: MerchantId, before: number, walk: HistoryWalk | null, limit: number): HistoryWalk | null {
    const at = walk ?? { table: "heads", after: null };
    const range = merchantRange(merchant);
    const expired: Key[] = [];
    let looked = 0;
    let last: Key | null = null;
    // The range starts at `after` itself, which was looked at before.
    const table = at.table === "heads" ? this.heads : this.tails;
    for (const { key, value } of table.getRange({ start: at.after ?? range.start, end: range.end, limit: limit + 1 })) {
      if (at.after !== null && sameKey(key, at.after)) continue;
      if (looked === limit) break;
      looked++;
      last = key;
      let latest: number;
      if (at.table === "heads") {
        // Read before the tail: getBinaryFast may reuse the buffer.
        latest = lastEncodedAt(value);
        const tail = this.tails.getBinaryFast(key);
        if (tail !== undefined) latest = lastEncodedAt(tail);
      } else {
        // A history with a head was looked at with it.
        if (this.heads.doesExist(key)) continue;
        latest = lastEncodedAt(value);
      }
      if (latest < before) expired.push(key);
    }
    for (const key of expired) {
      this.heads.remove(key);
      this.tails.remove(key);
    }
    if (looked === limit) return { table: at.table, after: last };
    return at.table === "heads" ? { table: "tails", after: null } : null;
  }

  /** Replaces a history whole (migrations), in the caller's write transaction. */
  putWhole(key: Key, history: History): void {
    this.heads.put(key, encodeHistory(history));
    this.tails.remove(key);
  }
}

function sameKey(a: Key, b: Key): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}
