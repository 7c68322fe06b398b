export interface CachedResponse {
  body: Uint8Array;
  storedAt: number;
  expiresAt: number;
}

/**
 * Response bytes by cache key, least recently used evicted first, bounded by
 * total bytes. Keys carry the merchant's data version, so a catalogue change
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
    const size = body.byteLength + key.length * 2;
    if (size > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, { body, storedAt: now, expiresAt: now + ttlMs });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.byteLength + oldest.length * 2;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.byteLength + key.length * 2;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }
}
