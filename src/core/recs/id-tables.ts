// Dense numbers for session uuids (the similar model's view sessions, read
// from the whole event log) and product ids (the ranking writer's daily
// counts), held in typed arrays. A Map over millions of sessions costs an
// entry and the uuid string each (~110 bytes a session, and millions of
// strings for the garbage collector to trace); product ids are integers past
// 2³¹, which a Map keys as heap numbers (reading a large event log spent a
// fifth of its time there). Both are keyed here by a pair of 32-bit ints in
// one open-addressing table.
// Keys come from clients (uuids), so each table hashes with a seed of its own:
// keys crafted to collide in one table, which would make its probing
// quadratic, do not collide in another.

const EMPTY = 0;
const TWO_32 = 2 ** 32;

/** (high, low) int pairs → numbers ≥ 0, exactly; 12 bytes a slot, at most half the slots used. */
class PairTable {
  private high = new Int32Array(1024);
  private low = new Int32Array(1024);
  /** The number given to the pair in the slot, plus one (EMPTY: a free slot). */
  private values = new Int32Array(1024);
  private count = 0;
  /** Slots looked at by every lookup so far: what a flood of colliding keys would drive up. */
  probes = 0;

  constructor(private readonly seed: number) {}

  get size(): number {
    return this.count;
  }

  /** The number set for the pair, or -1. */
  get(high: number, low: number): number {
    return this.values[this.find(high, low)]! - 1;
  }

  set(high: number, low: number, value: number): void {
    if (2 * (this.count + 1) > this.values.length) this.grow();
    const slot = this.find(high, low);
    if (this.values[slot] === EMPTY) {
      this.high[slot] = high;
      this.low[slot] = low;
      this.count++;
    }
    this.values[slot] = value + 1;
  }

  /** The slot holding the pair, or the free slot where it would go (linear probing). */
  private find(high: number, low: number): number {
    const mask = this.values.length - 1;
    for (let slot = mix(low ^ Math.imul(high, 0x9e3779b1) ^ this.seed) & mask; ; slot = (slot + 1) & mask) {
      this.probes++;
      if (this.values[slot] === EMPTY || (this.high[slot] === high && this.low[slot] === low)) return slot;
    }
  }

  private grow(): void {
    const { high, low, values } = this;
    this.high = new Int32Array(values.length * 2);
    this.low = new Int32Array(values.length * 2);
    this.values = new Int32Array(values.length * 2);
    for (let slot = 0; slot < values.length; slot++) {
      if (values[slot] === EMPTY) continue;
      const target = this.find(high[slot]!, low[slot]!);
      this.high[target] = high[slot]!;
      this.low[target] = low[slot]!;
      this.values[target] = values[slot]!;
    }
  }
}

/**
 * Strings (session uuids) → numbers, keyed by a 64-bit hash of the string.
 * Two strings with one hash would share a number: the odds that any two of n
 * keys do are about n² / 2⁶⁵, one in ~370,000 at 10 million sessions, and the
 * cost would be two sessions' views read as one in the kNN model.
 */
export class StringIds {
  private readonly table: PairTable;

  /** `seed`: random unless a test needs a table to repeat another's hashing. */
  constructor(private readonly seed = randomSeed()) {
    this.table = new PairTable(seed);
  }

  get size(): number {
    return this.table.size;
  }

  get probes(): number {
    return this.table.probes;
  }

  /** The number set for this key, or -1. */
  get(key: string): number {
    hashInto(key, this.seed);
    return this.table.get(hashed[0]!, hashed[1]!);
  }

  /** Gives `key` a number ≥ 0 (replacing any it had). */
  set(key: string, value: number): void {
    hashInto(key, this.seed);
    this.table.set(hashed[0]!, hashed[1]!, value);
  }
}

/** Non-negative integers below 2⁵³ (product ids) → numbers, exactly: keyed by their two 32-bit halves (the low one as Int32Array stores it, signed). */
export class IntegerIds {
  private readonly table = new PairTable(randomSeed());

  get size(): number {
    return this.table.size;
  }

  /** The number set for this key, or -1. */
  get(key: number): number {
    return this.table.get(Math.floor(key / TWO_32), key | 0);
  }

  /** Gives `key` a number ≥ 0 (replacing any it had). */
  set(key: number, value: number): void {
    this.table.set(Math.floor(key / TWO_32), key | 0, value);
  }
}

/** hashInto's result: no array per call. */
const hashed = new Int32Array(2);

/** A 32-bit seed: tables are in-memory only, so the seed never needs to be known again. */
function randomSeed(): number {
  return (Math.random() * 2 ** 32) | 0;
}

/** FNV-1a and a multiply-xorshift hash over the string's UTF-16 code units, each started from the seed and finished by mix. */
function hashInto(key: string, seed: number): void {
  let a = 0x811c9dc5 ^ seed;
  let b = 0x9747b28c ^ key.length ^ Math.imul(seed, 0x9e3779b1);
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  hashed[0] = mix(a);
  hashed[1] = mix(b);
}

/** Murmur3's 32-bit finishing mix: every input bit reaches every output bit. */
function mix(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
