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

/** What one entry is counted as: a key costs two bytes a character at most. */
export function entryBytes(key: string, body: Uint8Array): number {
  return body.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

/**
 * Response bytes by cache key, least recently used evicted first, bounded by
 * total bytes (entries' real cost, see ENTRY_OVERHEAD_BYTES). Keys carry the merchant's data version, so a catalogue change
 * makes old entries unreachable at once; they then simply age out of the LRU.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
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
    // Re-insert to mark it most recently used (Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry;
  }

  set(key: string, body: Uint8Array, now: number, ttlMs = Number.POSITIVE_INFINITY): void {
    const size = entryBytes(key, body);
    if (size > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, { body, storedAt: now, expiresAt: now + ttlMs });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entryBytes(oldest, entry.body);
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
