export interface CachedResponse {
  body: Uint8Array;
  storedAt: number;
  expiresAt: number;
}

/**
 * What an entry costs beyond its body and key bytes: the Map entry, the entry
 * object, the typed array and its ArrayBuffer on the heap (~390 bytes
 * measured), and the body's separately allocated backing store (~300). Counted,
 * so that AISLE_CACHE_MB is what the cache really costs: counting bodies and
 * keys alone, a cache of 200-byte answers took 2.8× its budget in RSS.
 */
const ENTRY_OVERHEAD_BYTES = 700;

/**
 * Marked entries one store may pass over before it drops the oldest entry,
 * marked or not: in a full cache whose every entry was read since the last
 * pass, an unbounded walk would move them all in one synchronous step.
 */
const MAX_PASSED_OVER = 64;

/** What one entry is counted as: a key costs two bytes a character at most. */
export function entryBytes(key: string, body: Uint8Array): number {
  return body.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

interface Entry extends CachedResponse {
  /** Read since eviction last passed it: it is passed over once more (see set). */
  referenced: boolean;
}

/**
 * Response bytes by cache key, bounded by total bytes (entries' real cost, see
 * ENTRY_OVERHEAD_BYTES). Eviction is least recently used, approximated the
 * way CLOCK does it: a hit only marks its entry, and eviction, walking from
 * the oldest, moves a marked entry to the back instead of dropping it. A hit
 * that moved its entry itself was two more hash-table operations under a long
 * key on every hit; misses, which evict, are far fewer. Keys carry the merchant's data version, so a catalogue change
 * makes old entries unreachable at once; they then simply age out.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, now: number): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= now) {
      if (entry) this.delete(key);
      this.misses++;
      return undefined;
    }
    entry.referenced = true;
    this.hits++;
    return entry;
  }

  set(key: string, body: Uint8Array, now: number, ttlMs = Number.POSITIVE_INFINITY): void {
    const size = entryBytes(key, body);
    if (size > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, { body, storedAt: now, expiresAt: now + ttlMs, referenced: false });
    this.bytes += size;
    // Oldest first, as a Map iterates; an entry moved to the back is met again,
    // unmarked, so the walk ends. The entry just stored fits alone and stays.
    let passedOver = 0;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      if (oldest === key) continue;
      this.entries.delete(oldest);
      if (entry.referenced && passedOver < MAX_PASSED_OVER) {
        passedOver++;
        entry.referenced = false;
        this.entries.set(oldest, entry);
      } else {
        this.bytes -= entryBytes(oldest, entry.body);
      }
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entryBytes(key, entry.body);
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }
}
