// Products that read alike, for the bought-together model: each product's
// nearest products by the starter vectors every product has from its first
// write (a projection of its hashed text, src/core/embedding/starter.ts).
// Shoppers often buy a product's siblings together (the same bag in another
// colour), and text finds siblings that too few orders pair to count. The
// training adds them to each product's EASE list at a weight it chooses on the
// shop's own held-out orders (0 when they do not help); see train-fbt.ts.
import type { WeightedIds } from "./copurchase.js";
import { topOfRow } from "./ease.js";

/** Rows scored between two calls of the caller's checkpoint (a few milliseconds at 3,600 products). */
const ROWS_BETWEEN_CHECKPOINTS = 256;

export interface ProductVector {
  id: number;
  vector: Int8Array;
}

/**
 * Each product's `k` nearest others among `products` by the cosine of their
 * vectors, best first, positive cosines only. Starter vectors are unit vectors
 * scaled alike, so a dot product ranks as the cosine does; it is divided by
 * the vectors' squared scale to be the cosine. Every pair is scored: products²
 * × dimensions multiply-adds (3,600 products of 64 dimensions: about 1 s).
 * `checkpoint` is called between rows: it may throw to stop the work.
 */
export function textNeighbourLists(
  products: readonly ProductVector[],
  k: number,
  checkpoint: () => void = () => {},
): Map<number, WeightedIds> {
  const lists = new Map<number, WeightedIds>();
  const count = products.length;
  if (count === 0) return lists;
  // One flat array of every vector: the pair loop reads it without a call or a closure per pair.
  const dims = products[0]!.vector.length;
  const flat = new Int8Array(count * dims);
  products.forEach(({ vector }, i) => flat.set(vector, i * dims));
  let squaredScale = 0;
  for (let i = 0; i < count; i++) squaredScale = Math.max(squaredScale, dot(flat, i * dims, i * dims, dims));
  if (squaredScale === 0) return lists;
  const row = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    if (i % ROWS_BETWEEN_CHECKPOINTS === 0) checkpoint();
    for (let j = 0; j < count; j++) row[j] = j === i ? 0 : dot(flat, i * dims, j * dims, dims) / squaredScale;
    const top = topOfRow(row, count, 0, k);
    if (top.indices.length > 0) lists.set(products[i]!.id, { ids: top.indices.map((j) => products[j]!.id), weights: top.weights });
  }
  return lists;
}

function dot(flat: Int8Array, a: number, b: number, dims: number): number {
  let sum = 0;
  for (let d = 0; d < dims; d++) sum += flat[a + d]! * flat[b + d]!;
  return sum;
}

/**
 * `base` + `factor` × `extra`, a product missing from a list adding 0 there
 * (as the endpoint sums its inputs' lists), its `k` best positive scores, best
 * first (ties by id).
 */
export function addWeighted(base: WeightedIds | undefined, extra: WeightedIds | undefined, factor: number, k: number): WeightedIds {
  const sums = new Map<number, number>();
  base?.ids.forEach((id, index) => sums.set(id, base.weights[index]!));
  if (factor !== 0) extra?.ids.forEach((id, index) => sums.set(id, (sums.get(id) ?? 0) + factor * extra.weights[index]!));
  const top = [...sums]
    .filter(([, score]) => score > 0)
    .sort(([a, x], [b, y]) => y - x || a - b)
    .slice(0, k);
  return { ids: top.map(([id]) => id), weights: top.map(([, score]) => score) };
}
