import type { BehaviourEvent } from "../types.js";
import { HISTORY_LIMIT, type History } from "./history.js";

// A history is rewritten on every event of its session, so its stored form is
// fixed-width binary rather than msgpack: 200 entries decode and encode in a
// couple of microseconds, where msgpack arrays of the same took tens, and the
// value stays within about one LMDB page.
//
// Entry layout, little-endian: product id (float64: ids go up to 2^53),
// timestamp in ms (float64), verb code (uint8).

const ENTRY_BYTES = 17;
const VERBS: readonly BehaviourEvent["verb"][] = ["viewed", "added", "removed"];
const VERB_CODES = new Map(VERBS.map((verb, code) => [verb, code]));

export function encodeHistory(history: History): Uint8Array {
  const count = history.products.length;
  const bytes = new Uint8Array(count * ENTRY_BYTES);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < count; i++) writeEntry(view, i * ENTRY_BYTES, history.products[i]!, history.ats[i]!, history.verbs[i]!);
  return bytes;
}

/**
 * The encoded history `stored` with `events` appended, keeping the last
 * `limit` entries, as appendToHistory would, without decoding `stored`:
 * what the event writer does for every session an event arrives for.
 */
export function appendEncoded(stored: Uint8Array | undefined, events: readonly BehaviourEvent[], limit = HISTORY_LIMIT): Uint8Array {
  const storedCount = encodedCount(stored);
  const keptEvents = events.slice(Math.max(0, events.length - limit));
  const keptStored = Math.min(storedCount, limit - keptEvents.length);
  const bytes = new Uint8Array((keptStored + keptEvents.length) * ENTRY_BYTES);
  if (stored && keptStored > 0) bytes.set(stored.subarray(stored.length - keptStored * ENTRY_BYTES), 0);
  const view = new DataView(bytes.buffer);
  keptEvents.forEach((event, i) => writeEntry(view, (keptStored + i) * ENTRY_BYTES, event.product_id, event.at, event.verb));
  return bytes;
}

/** Entries in an encoded history (0: none stored). */
export function encodedCount(bytes: Uint8Array | undefined): number {
  return (bytes?.length ?? 0) / ENTRY_BYTES;
}

/** The time (ms) of an encoded history's last entry, its latest event as logged (-Infinity: empty). */
export function lastEncodedAt(bytes: Uint8Array): number {
  const count = encodedCount(bytes);
  if (count === 0) return Number.NEGATIVE_INFINITY;
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getFloat64((count - 1) * ENTRY_BYTES + 8, true);
}

/** The encoded history `older` followed by `newer`, keeping the last `limit` entries. */
export function concatEncoded(older: Uint8Array | undefined, newer: Uint8Array, limit = HISTORY_LIMIT): Uint8Array {
  const keptNewer = newer.subarray(Math.max(0, newer.length - limit * ENTRY_BYTES));
  const keptOlder = Math.min(encodedCount(older), limit - keptNewer.length / ENTRY_BYTES);
  const bytes = new Uint8Array(keptOlder * ENTRY_BYTES + keptNewer.length);
  if (older && keptOlder > 0) bytes.set(older.subarray(older.length - keptOlder * ENTRY_BYTES), 0);
  bytes.set(keptNewer, keptOlder * ENTRY_BYTES);
  return bytes;
}

function writeEntry(view: DataView, at: number, product: number, time: number, verb: BehaviourEvent["verb"]): void {
  view.setFloat64(at, product, true);
  view.setFloat64(at + 8, time, true);
  view.setUint8(at + 16, VERB_CODES.get(verb)!);
}

/** Reads what encodeHistory wrote; `bytes` may be a view into a larger buffer (lmdb's getBinaryFast). */
export function decodeHistory(bytes: Uint8Array): History {
  if (bytes.length % ENTRY_BYTES !== 0)
    throw new Error(`history of ${bytes.length} bytes is not a whole number of ${ENTRY_BYTES}-byte entries`);
  const count = bytes.length / ENTRY_BYTES;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const history: History = { products: new Array(count), verbs: new Array(count), ats: new Array(count) };
  for (let i = 0; i < count; i++) {
    const at = i * ENTRY_BYTES;
    history.products[i] = view.getFloat64(at, true);
    history.ats[i] = view.getFloat64(at + 8, true);
    const verb = VERBS[view.getUint8(at + 16)];
    if (verb === undefined) throw new Error(`history entry ${i} has unknown verb code ${view.getUint8(at + 16)}`);
    history.verbs[i] = verb;
  }
  return history;
}
