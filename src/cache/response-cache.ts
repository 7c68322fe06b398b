import { BodySlabs, SLAB_OVERHEAD_BYTES, type Slab } from "./body-slabs.js";

export interface CachedResponse {
  /**
   * A view of the cache's slabs: it stays as it is until the event loop's
   * next turn after its entry leaves the cache or is moved, so it is to be
   * written within the turn it is read in (see BodySlabs).
   */
  body: Uint8Array;
  storedAt: number;
  expiresAt: number;
}

/**
 * What an entry costs beyond its key and its body's bytes: the Map entry, the
 * entry object and the body's view on the heap (about 205 bytes measured with
 * 200-byte bodies, rounded up). Its body's share of a slab, and each slab's
 * own cost, are counted by BodySlabs.
 * Counted, so that AISLE_CACHE_MB is what the cache really costs: counting
 * bodies and keys alone, a cache of 200-byte answers took 2.8× its budget in RSS.
 */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Marked entries a store may pass over before each entry it drops, marked or
 * not: in a full cache whose every entry was read since the last pass, an
 * unbounded walk would move them all in one synchronous step. Per entry
 * dropped, since one store may drop a whole slab's worth of entries at once.
 */
const MAX_PASSED_OVER = 64;

/** What an entry beside its body is counted as: a key costs two bytes a character at most. */
function keyBytes(key: string): number {
  return key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

/** What one entry whose body has a slab of its own costs: what a store must fit in the budget alone. */
export function entryBytes(key: string, body: Uint8Array): number {
  return body.byteLength + SLAB_OVERHEAD_BYTES + keyBytes(key);
}

interface Entry extends CachedResponse {
  /** Where the body is kept. */
  slab: Slab;
  /** Read since eviction last passed it: it is passed over once more (see set). */
  referenced: boolean;
  /** Stored again since eviction last passed it: moved to the back when the walk meets it, as a new entry would be (see set). */
  restored: boolean;
}

/**
 * Response bytes by cache key, bounded by total bytes (entries' real cost, see
 * ENTRY_OVERHEAD_BYTES). Eviction is least recently used, approximated the
 * way CLOCK does it: a hit only marks its entry, and eviction, walking from
 * the oldest, moves a marked entry to the back instead of dropping it. A hit
 * that moved its entry itself was two more hash-table operations under a long
 * key on every hit; misses, which evict, are far fewer. Keys carry the merchant's data version, so a catalogue change
 * makes old entries unreachable at once; they then simply age out, as expired
 * ones do until their key is stored again. Bodies are
 * copied in (into slabs, see BodySlabs): what a caller stores may be a view
 * that its next answer overwrites.
 *
 * A key is never deleted and added again on a store: V8 leaves a deleted Map
 * entry in its key's hash chain until the table is rebuilt, and adding a key
 * walks the whole chain, so one URL stored again and again (bust_cache) made
 * each store walk about as many entries as the cache held: 15 µs a store at
 * 5,000 entries, 58 µs at 20,000. An entry stored again is replaced where it
 * stands, and moved to the back only when the eviction walk next meets it.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly slabs: BodySlabs;
  /** What the entries take beside their bodies (keyBytes). */
  private keyedBytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {
    this.slabs = new BodySlabs(maxBytes);
  }

  get(key: string, now: number): CachedResponse | undefined {
    const entry = this.entries.get(key);
    // An expired entry is left for the answer about to be stored under its key to replace.
    if (!entry || entry.expiresAt <= now) {
      this.misses++;
      return undefined;
    }
    entry.referenced = true;
    this.hits++;
    return entry;
  }

  /**
   * Stores a copy of `body`, which the caller may then overwrite; nothing
   * when it would expire at once. A key stored already keeps its entry, its
   * body and times replaced (see the class comment).
   */
  set(key: string, body: Uint8Array, now: number, ttlMs = Number.POSITIVE_INFINITY): void {
    if (entryBytes(key, body) > this.maxBytes || ttlMs <= 0) return;
    const stored = this.slabs.store(body);
    const existing = this.entries.get(key);
    if (existing === undefined) {
      this.entries.set(key, {
        body: stored.bytes,
        slab: stored.slab,
        storedAt: now,
        expiresAt: now + ttlMs,
        referenced: false,
        restored: false,
      });
      this.keyedBytes += keyBytes(key);
    } else {
      this.slabs.release(existing.slab);
      existing.body = stored.bytes;
      existing.slab = stored.slab;
      existing.storedAt = now;
      existing.expiresAt = now + ttlMs;
      existing.referenced = false;
      existing.restored = true;
    }
    // Oldest first, as a Map iterates; an entry moved to the back is met again,
    // unmarked, so the walk ends. The entry just stored stays. One stored again
    // is moved to the back, as if just stored, whatever the walk has passed
    // over (at most once each: it is unmarked). Entries leave in about the order
    // their bodies were stored (one stored again in place has a newer body than
    // its place), so a slab is let go of once the walk has passed its last
    // body; until then, dropping one of its bodies frees only the entry's own
    // bytes, and the walk goes on.
    let passedOver = 0;
    for (const [oldest, entry] of this.entries) {
      if (this.totalBytes <= this.maxBytes) break;
      if (oldest === key) continue;
      this.entries.delete(oldest);
      if (entry.restored || (entry.referenced && passedOver < MAX_PASSED_OVER)) {
        if (!entry.restored) passedOver++;
        entry.restored = false;
        entry.referenced = false;
        this.moveBody(entry);
        this.entries.set(oldest, entry);
      } else {
        this.forget(oldest, entry);
        passedOver = 0;
      }
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the cache takes: its entries, and every slab that keeps one of their bodies. */
  get totalBytes(): number {
    return this.keyedBytes + this.slabs.heldBytes;
  }

  /**
   * An entry is moved to the back with its body: copied into the slab being
   * written, so the slab it leaves can be let go of; not when it is in that
   * slab already, or alone in one of its own (a copy would free nothing).
   */
  private moveBody(entry: Entry): void {
    if (!this.slabs.freedByMoving(entry.slab)) return;
    const moved = this.slabs.store(entry.body);
    this.slabs.release(entry.slab);
    entry.body = moved.bytes;
    entry.slab = moved.slab;
  }

  private forget(key: string, entry: Entry): void {
    this.keyedBytes -= keyBytes(key);
    this.slabs.release(entry.slab);
  }
}
