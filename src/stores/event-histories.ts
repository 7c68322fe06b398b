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
import type { BehaviourEvent } from "../core/types.js";
import { appendEncoded, concatEncoded, decodeHistory, encodedCount, encodeHistory } from "../core/recs/history-codec.js";
import { HISTORY_LIMIT, type History } from "../core/recs/history.js";
import type { Key } from "./merchant-keys.js";

/** Events a tail holds before it is folded into its head: about 540 bytes, a few to a leaf page. */
export const TAIL_ENTRIES = 32;

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

  /** Replaces a history whole (migrations), in the caller's write transaction. */
  putWhole(key: Key, history: History): void {
    this.heads.put(key, encodeHistory(history));
    this.tails.remove(key);
  }
}
