// The similar-products model every shop has from its first product on: a sign
// random projection of the product's hashed text features (the trained
// model's features, without the product's own id). It needs no catalogue and
// no training, so a product's vector is written in the same transaction as the
// product, and similar lists exist once the write is acknowledged. A trained
// model (text, then behaviour) replaces it when one exists.
import { WorstFirstHeap } from "../worst-first-heap.js";
import { DEFAULT_HASHING, productFeatures, type HashingScheme, type ProductText } from "./features.js";

export const STARTER_DIMS = 64;

/** The largest bucket count the trained models use; no product id feature. */
const STARTER_SCHEME: HashingScheme = { ...DEFAULT_HASHING, buckets: 1 << 18, weights: { ...DEFAULT_HASHING.weights, id: 0 } };

/** Components are stored as signed bytes: a unit vector times this. */
const SCALE = 127;

/** Two 32-bit hashes of a bucket: the signs of its 64 random directions. */
function signBits(bucket: number, half: 0 | 1): number {
  let h = Math.imul(bucket ^ (half === 0 ? 0x9e3779b9 : 0x85ebca6b), 0x27d4eb2d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  return h ^ (h >>> 15);
}

/** The product's starter vector: unit length, as signed bytes (64 bytes a product). */
export function starterVector(product: ProductText): Int8Array {
  const { ids, weights } = productFeatures(product, STARTER_SCHEME);
  const sum = new Float64Array(STARTER_DIMS);
  for (let index = 0; index < ids.length; index++) {
    const weight = weights[index]!;
    for (const half of [0, 1] as const) {
      const bits = signBits(ids[index]!, half);
      for (let bit = 0; bit < 32; bit++) sum[half * 32 + bit]! += (bits >>> bit) & 1 ? weight : -weight;
    }
  }
  let squares = 0;
  for (const value of sum) squares += value * value;
  const norm = Math.sqrt(squares);
  return Int8Array.from(sum, (value) => (norm === 0 ? 0 : Math.round((SCALE * value) / norm)));
}

/**
 * Products most like the inputs by their starter vectors, best first, the
 * inputs left out: every vector scored against the inputs' summed direction
 * (a scan: a shop waits on it only until its trained model exists).
 */
export function nearestByStarter(
  inputs: readonly Int8Array[],
  inputIds: ReadonlySet<number>,
  vectors: Iterable<{ id: number; vector: Int8Array }>,
  k: number,
): number[] {
  if (inputs.length === 0) return [];
  const query = starterQuery(inputs);
  const best: { id: number; score: number }[] = [];
  for (const { id, vector } of vectors) {
    if (inputIds.has(id)) continue;
    let score = 0;
    for (let dim = 0; dim < STARTER_DIMS; dim++) score += query[dim]! * vector[dim]!;
    if (score <= 0) continue;
    if (best.length < k) best.push({ id, score });
    else if (score > best[best.length - 1]!.score) best[best.length - 1] = { id, score };
    else continue;
    best.sort((a, b) => b.score - a.score || a.id - b.id);
  }
  return best.map(({ id }) => id);
}

/** The inputs' summed direction, which every product is scored against. */
export function starterQuery(inputs: readonly Int8Array[]): Float64Array {
  const query = new Float64Array(STARTER_DIMS);
  for (const vector of inputs) for (let dim = 0; dim < STARTER_DIMS; dim++) query[dim]! += vector[dim]!;
  return query;
}

/**
 * The signs of a starter vector (or query) as two 32-bit words: products
 * whose signs differ in fewer of the 64 directions point closer to it, so a
 * count of differing bits shortlists the products worth a full score.
 */
export function starterSignature(vector: ArrayLike<number>): [number, number] {
  const words: [number, number] = [0, 0];
  for (let dim = 0; dim < STARTER_DIMS; dim++) if (vector[dim]! > 0) words[dim >> 5] = (words[dim >> 5]! | (1 << (dim & 31))) >>> 0;
  return words;
}

/** How many of the 64 directions two signatures' signs differ in. */
export function signatureDistance(low: number, high: number, query: readonly [number, number]): number {
  return bitCount((low ^ query[0]) >>> 0) + bitCount((high ^ query[1]) >>> 0);
}

/** Bits set in a 32-bit word. */
function bitCount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The `capacity` products whose signatures differ least from a query's (ties: lower id), offered one at a time. */
export class SignatureShortlist extends WorstFirstHeap {
  private readonly kept: Float64Array;
  /** Differing bits, by position. */
  private readonly distances: Uint8Array;

  constructor(capacity: number) {
    super(capacity);
    this.kept = new Float64Array(capacity);
    this.distances = new Uint8Array(capacity);
  }

  /** A distance above this cannot be kept (the worst kept once full; 64, the most there is, before). */
  get bound(): number {
    return this.full ? this.distances[0]! : 64;
  }

  offer(id: number, distance: number): void {
    if (!this.full) {
      this.kept[this.size] = id;
      this.distances[this.size] = distance;
      this.pushed();
    } else if (distance < this.distances[0]! || (distance === this.distances[0]! && id < this.kept[0]!)) {
      this.kept[0] = id;
      this.distances[0] = distance;
      this.replacedWorst();
    }
  }

  /** The shortlisted ids, closest first. */
  ids(): number[] {
    return Array.from({ length: this.size }, (_, i) => i)
      .sort((a, b) => this.distances[a]! - this.distances[b]! || this.kept[a]! - this.kept[b]!)
      .map((i) => this.kept[i]!);
  }

  protected worseAt(a: number, b: number): boolean {
    const { distances, kept } = this;
    return distances[a]! > distances[b]! || (distances[a] === distances[b] && kept[a]! > kept[b]!);
  }

  protected swap(a: number, b: number): void {
    const { kept, distances } = this;
    [kept[a], kept[b]] = [kept[b]!, kept[a]!];
    [distances[a], distances[b]] = [distances[b]!, distances[a]!];
  }
}
