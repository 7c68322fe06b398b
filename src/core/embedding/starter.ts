// The similar-products model every shop has from its first product on: a sign
// random projection of the product's hashed text features (the trained
// model's features, without the product's own id). It needs no catalogue and
// no training, so a product's vector is written in the same transaction as the
// product, and similar lists exist once the write is acknowledged. A trained
// model (text, then behaviour) replaces it when one exists.
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
  const query = new Float64Array(STARTER_DIMS);
  for (const vector of inputs) for (let dim = 0; dim < STARTER_DIMS; dim++) query[dim]! += vector[dim]!;
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
