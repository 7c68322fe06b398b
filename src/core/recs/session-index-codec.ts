// The session index's binary values (src/stores/session-index.ts). A query
// reads an item's recent sessions and a hundred neighbours' views: fixed-width
// numbers are copied into the reader's typed arrays without building an
// object per value, where msgpack would decode an array per read.
//
// Little-endian layouts:
//   session:   views n (uint32), time of its first view in ms (float64), uuid length (uint16), its uuid (UTF-8),
//              n product ids (float64)
//   item tail: sessions that viewed it (uint32), then the arrival numbers of the most recent of them (int32
//              each, oldest first) that are not folded into its head yet
//   item head: arrival numbers of the older of its most recent sessions (int32 each, oldest first)
//   head:      next arrival number, sessions indexed, views indexed (float64 each)
// Arrival numbers are int32 in item lists, as in the query's scratch: room for
// 2³¹ sessions per merchant, about six years at a million sessions a day.

/** A session as the index keeps it. */
export interface IndexedSession {
  uuid: string;
  /** When it first viewed a product (ms): what its age is counted from. */
  firstViewAt: number;
  /** Product ids in view order, repeats included. */
  views: Float64Array | readonly number[];
}

/** A merchant's index as a whole. */
export interface IndexHead {
  /** The arrival number the next new session gets. */
  next: number;
  /** Sessions in the index. */
  live: number;
  /** Views indexed so far: with `next` and `live`, it moves with every change of the index. */
  views: number;
}

const SESSION_UUID_AT = 14;
/** Whether this machine's typed arrays are little-endian, as the stored values are. */
const LITTLE_ENDIAN_HOST = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;
const ITEM_TAIL_RECENT_AT = 4;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A session whose views are its `views`, then `more` (a growing session is written from what was read of it and what is new). */
export function encodeSession(session: IndexedSession, more: readonly number[] = []): Uint8Array {
  const uuid = encoder.encode(session.uuid);
  if (uuid.length > 0xffff) throw new RangeError(`a session uuid of ${uuid.length} bytes is too long to index`);
  const { views } = session;
  const bytes = new Uint8Array(SESSION_UUID_AT + uuid.length + 8 * (views.length + more.length));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, views.length + more.length, true);
  view.setFloat64(4, session.firstViewAt, true);
  view.setUint16(12, uuid.length, true);
  bytes.set(uuid, SESSION_UUID_AT);
  const at = SESSION_UUID_AT + uuid.length;
  for (let i = 0; i < views.length; i++) view.setFloat64(at + 8 * i, views[i]!, true);
  for (let i = 0; i < more.length; i++) view.setFloat64(at + 8 * (views.length + i), more[i]!, true);
  return bytes;
}

/** Reads what encodeSession wrote; `bytes` may be a view into a larger buffer (lmdb's getBinaryFast). */
export function decodeSession(bytes: Uint8Array): IndexedSession {
  return {
    uuid: decoder.decode(bytes.subarray(SESSION_UUID_AT, viewsAt(bytes))),
    firstViewAt: sessionFirstViewAt(bytes),
    views: sessionViews(bytes),
  };
}

export function sessionViewCount(bytes: Uint8Array): number {
  return uint32At(bytes, 0);
}

export function sessionFirstViewAt(bytes: Uint8Array): number {
  return readable(bytes).getFloat64(4, true);
}

/** An encoded session's views, in order. */
export function sessionViews(bytes: Uint8Array): Float64Array {
  const views = new Float64Array(sessionViewCount(bytes));
  readSessionViews(bytes, views);
  return views;
}

/** Copies an encoded session's views into `into` (at least sessionViewCount long). */
export function readSessionViews(bytes: Uint8Array, into: Float64Array): void {
  const start = viewsAt(bytes);
  const count = uint32At(bytes, 0);
  if (LITTLE_ENDIAN_HOST) {
    // The stored bytes are the array's own: one copy, where a read per view cost the applier's follow a tenth of its time.
    new Uint8Array(into.buffer, into.byteOffset, 8 * count).set(bytes.subarray(start, start + 8 * count));
    return;
  }
  const view = readable(bytes);
  for (let i = 0; i < count; i++) into[i] = view.getFloat64(start + 8 * i, true);
}

function viewsAt(session: Uint8Array): number {
  return SESSION_UUID_AT + session[12]! + 256 * session[13]!;
}

/** An item's tail: how many sessions viewed it, and the most recent of them not folded into its head yet. */
export function encodeItemTail(viewers: number, recent: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(ITEM_TAIL_RECENT_AT + 4 * recent.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, viewers, true);
  for (let i = 0; i < recent.length; i++) view.setInt32(ITEM_TAIL_RECENT_AT + 4 * i, recent[i]!, true);
  return bytes;
}

export function decodeItemTail(bytes: Uint8Array): { viewers: number; recent: number[] } {
  return { viewers: itemViewers(bytes), recent: int32s(bytes, ITEM_TAIL_RECENT_AT) };
}

export function itemViewers(tail: Uint8Array): number {
  return uint32At(tail, 0);
}

/** An item's head: arrival numbers, oldest first. */
export function encodeItemHead(recent: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(4 * recent.length);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < recent.length; i++) view.setInt32(4 * i, recent[i]!, true);
  return bytes;
}

export function decodeItemHead(bytes: Uint8Array): number[] {
  return int32s(bytes, 0);
}

/**
 * An item's tail and head once `viewers` (arrival numbers, in order) join its
 * tail: each time the tail has gathered `fold` of them they move to the head,
 * which keeps the last `keep`. Works on the encoded bytes; `readHead` is
 * called only when something moves. Returns the new tail, and the new head
 * (null: unchanged). Adding viewers in one call or several stores the same.
 */
export function addToItem(
  tail: Uint8Array | undefined,
  readHead: () => Uint8Array | undefined,
  viewers: readonly number[],
  fold: number,
  keep: number,
): { tail: Uint8Array; head: Uint8Array | null } {
  const stored = tail === undefined ? 0 : (tail.length - ITEM_TAIL_RECENT_AT) / 4;
  const count = stored + viewers.length;
  const moving = count - (count % fold);
  // The tail's entries and the new ones, one after the other.
  const entries = new Uint8Array(4 * count);
  if (tail !== undefined) entries.set(tail.subarray(ITEM_TAIL_RECENT_AT, tail.length));
  const view = new DataView(entries.buffer);
  for (let i = 0; i < viewers.length; i++) view.setInt32(4 * (stored + i), viewers[i]!, true);
  const newTail = new Uint8Array(ITEM_TAIL_RECENT_AT + entries.length - 4 * moving);
  new DataView(newTail.buffer).setUint32(0, (tail === undefined ? 0 : itemViewers(tail)) + viewers.length, true);
  newTail.set(entries.subarray(4 * moving), ITEM_TAIL_RECENT_AT);
  if (moving === 0) return { tail: newTail, head: null };
  const head = readHead() ?? new Uint8Array(0);
  const kept = Math.min(keep, head.length / 4 + moving);
  const newHead = new Uint8Array(4 * kept);
  const fromMoving = Math.min(kept, moving);
  newHead.set(head.subarray(head.length - 4 * (kept - fromMoving), head.length));
  newHead.set(entries.subarray(4 * (moving - fromMoving), 4 * moving), 4 * (kept - fromMoving));
  return { tail: newTail, head: newHead };
}

/** How many arrival numbers an item's head or tail holds. */
export function recentCount(bytes: Uint8Array, part: "head" | "tail"): number {
  return (bytes.length - (part === "tail" ? ITEM_TAIL_RECENT_AT : 0)) / 4;
}

/** Copies the arrival numbers of an item's head or tail into `into` from `at`; returns how many. */
export function readRecent(bytes: Uint8Array, part: "head" | "tail", into: Int32Array, at: number): number {
  const view = readable(bytes);
  const offset = part === "tail" ? ITEM_TAIL_RECENT_AT : 0;
  const count = (bytes.length - offset) / 4;
  for (let i = 0; i < count; i++) into[at + i] = view.getInt32(offset + 4 * i, true);
  return count;
}

export function encodeHead(head: IndexHead): Uint8Array {
  const bytes = new Uint8Array(24);
  const view = new DataView(bytes.buffer);
  view.setFloat64(0, head.next, true);
  view.setFloat64(8, head.live, true);
  view.setFloat64(16, head.views, true);
  return bytes;
}

export function decodeHead(bytes: Uint8Array): IndexHead {
  const view = readable(bytes);
  return { next: view.getFloat64(0, true), live: view.getFloat64(8, true), views: view.getFloat64(16, true) };
}

function int32s(bytes: Uint8Array, offset: number): number[] {
  const view = readable(bytes);
  return Array.from({ length: (bytes.length - offset) / 4 }, (_, i) => view.getInt32(offset + 4 * i, true));
}

/**
 * A DataView of the value's bytes. lmdb's getBinaryFast answers a view of a
 * larger buffer whose `length` property alone is the value's: every read here
 * goes by `length`, never by the array's own extent (as `subarray(start)` or
 * `set` would).
 */
function readable(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
}

function uint32At(bytes: Uint8Array, at: number): number {
  return bytes[at]! + 256 * bytes[at + 1]! + 65_536 * bytes[at + 2]! + 16_777_216 * bytes[at + 3]!;
}
