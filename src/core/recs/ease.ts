// EASE (Steck, "Embarrassingly Shallow Autoencoders", 2019): a linear
// item-to-item model with a closed form. With X the baskets × items matrix,
// G = XᵀX and P = (G + λI)⁻¹, the weights are B = I − P·diag(1/diag(P)) with
// a zero diagonal, so B_ij = −P_ij / P_jj: how much having item i in a basket
// says about item j, every other item's share explained away. A basket's
// scores are the sum of its items' rows.
//
// Everything works on one dense size × size Float64Array, row-major, in place:
// the Gram matrix becomes its inverse, then B. That is nearly the whole memory
// cost (8·size² bytes; the inversion adds 256·size for copies of 16 rows) and
// the inverse the whole time cost (size³/2 multiply-adds).
import { byScoreThenId, topInOrder } from "./ranking.js";

/** A basket as dense item indices (0 … size − 1, distinct) and what it counts for. */
export interface WeightedBasket {
  items: readonly number[];
  weight: number;
}

/**
 * Baskets of items (product ids, stock codes) as EASE reads them: each item
 * numbered densely in order of first appearance, every basket weighing 1.
 */
export function denseBaskets<T>(itemLists: readonly (readonly T[])[]): { items: T[]; indexOf: Map<T, number>; baskets: WeightedBasket[] } {
  const items: T[] = [];
  const indexOf = new Map<T, number>();
  const baskets = itemLists.map((list) => ({
    items: list.map((item) => {
      let index = indexOf.get(item);
      if (index === undefined) {
        index = items.length;
        indexOf.set(item, index);
        items.push(item);
      }
      return index;
    }),
    weight: 1,
  }));
  return { items, indexOf, baskets };
}

/** Bytes the model's one matrix takes for `size` items. */
export function easeBytes(size: number): number {
  return 8 * size * size;
}

/** How often a long inversion calls its checkpoint: a few times a second for thousands of items. */
const CHECKPOINT_PIVOTS = 64;

/**
 * Pivots swept together in one pass over the matrix. Sweeping one pivot at a
 * time streams the whole upper triangle per pivot (36 MB at 3,000 items), so
 * the loop waits on memory; a block of 16 reads and writes each entry once per
 * 16 pivots, with 16 multiply-adds on data in cache for each (subtractRank16
 * is written out for this size). 16 also divides CHECKPOINT_PIVOTS, so
 * checkpoints fall on block starts.
 */
const BLOCK = 16;

/** The Gram matrix XᵀX (weighted by each basket's weight) plus λ on the diagonal; only its upper triangle is filled. */
export function regularisedGram(size: number, baskets: readonly WeightedBasket[], lambda: number): Float64Array {
  const gram = new Float64Array(size * size);
  for (const { items, weight } of baskets) {
    for (const i of items) {
      for (const j of items) if (i <= j) gram[i * size + j]! += weight;
    }
  }
  for (let i = 0; i < size; i++) gram[i * size + i]! += lambda;
  return gram;
}

/**
 * Inverts a symmetric positive definite matrix in place, reading and writing
 * its upper triangle only (the lower one is left as it was). It applies the
 * sweep operator to every pivot (after all of them the matrix holds −A⁻¹, then
 * negated), which needs no pivoting for a positive definite matrix. Sweeps
 * commute and sweeping a block of pivots K at once is the same as sweeping
 * them in turn: with M = A_KK and C = A_K· the block's rows,
 *   A_KK ← −M⁻¹,  A_KR ← M⁻¹·C_R,  A_RR ← A_RR − C_Rᵀ·M⁻¹·C_R (R: every other index),
 * so each block sweeps its pivots exactly on a copy of its rows, then updates
 * the rest of the matrix in one pass (a rank-BLOCK update).
 * `checkpoint` is called every CHECKPOINT_PIVOTS pivots: a caller that must
 * stop (a service shutting down) throws from it.
 */
export function invertSymmetric(a: Float64Array, size: number, checkpoint?: () => void): void {
  const before = new Float64Array(BLOCK * size);
  const after = new Float64Array(BLOCK * size);
  for (let first = 0; first < size; first += BLOCK) {
    if (checkpoint !== undefined && first % CHECKPOINT_PIVOTS === 0) checkpoint();
    const end = Math.min(first + BLOCK, size);
    readBlockRows(a, size, first, end, before);
    after.set(before);
    sweepBlockRows(after, size, first, end);
    updateOutsideBlock(a, size, first, end, before, after);
    writeBlockRows(a, size, first, end, after);
  }
  for (let i = 0; i < size; i++) for (let j = i; j < size; j++) a[i * size + j] = -a[i * size + j]!;
}

/**
 * Rows first … end − 1 of the symmetric matrix, whole, from the upper
 * triangle, into `rows` column by column: column j's BLOCK values at j·BLOCK,
 * so that the update reads one run of memory per entry. A short last block's
 * missing rows are zeros, which add nothing to the update.
 */
function readBlockRows(a: Float64Array, size: number, first: number, end: number, rows: Float64Array): void {
  rows.fill(0);
  for (let k = first; k < end; k++) {
    const r = k - first;
    for (let j = 0; j < k; j++) rows[j * BLOCK + r] = a[j * size + k]!;
    for (let j = k; j < size; j++) rows[j * BLOCK + r] = a[k * size + j]!;
  }
}

/** Sweeps pivots first … end − 1 in turn on the block's rows alone: the rows the whole matrix's sweep would leave there. */
function sweepBlockRows(rows: Float64Array, size: number, first: number, end: number): void {
  for (let k = first; k < end; k++) {
    const r = k - first;
    const pivot = rows[k * BLOCK + r]!;
    if (!(pivot > 0)) throw new Error(`invertSymmetric: the matrix is not positive definite (pivot ${k} is ${pivot})`);
    for (let other = 0; other < end - first; other++) {
      if (other === r) continue;
      const factor = rows[k * BLOCK + other]! / pivot;
      if (factor === 0) continue;
      for (let j = 0; j < size; j++) rows[j * BLOCK + other]! -= factor * rows[j * BLOCK + r]!;
      rows[k * BLOCK + other] = factor;
    }
    for (let j = 0; j < size; j++) rows[j * BLOCK + r]! /= pivot;
    rows[k * BLOCK + r] = -1 / pivot;
  }
}

/**
 * A_ij −= Σ_r before_ri · after_rj over the upper triangle outside the block's
 * rows and columns: before holds the block's rows as they were (C), after as
 * swept (M⁻¹·C). A row whose entries in the block's columns are all zero has
 * nothing to subtract, which skips much of a sparse Gram matrix's first blocks.
 */
function updateOutsideBlock(a: Float64Array, size: number, first: number, end: number, before: Float64Array, after: Float64Array): void {
  for (let i = 0; i < first; i++) {
    if (isZeroRun(before, i * BLOCK)) continue;
    subtractRank16(a, i * size, i, first, before, i * BLOCK, after);
    subtractRank16(a, i * size, end, size, before, i * BLOCK, after);
  }
  for (let i = end; i < size; i++) {
    if (!isZeroRun(before, i * BLOCK)) subtractRank16(a, i * size, i, size, before, i * BLOCK, after);
  }
}

function isZeroRun(values: Float64Array, offset: number): boolean {
  for (let r = 0; r < BLOCK; r++) if (values[offset + r] !== 0) return false;
  return true;
}

/**
 * a[row + j] −= Σ_r c_r · after[j·16 + r] for j in from … to − 1, c the 16
 * values at coefficients[at …]. Written out so that the coefficients stay in
 * registers, and summed as a tree: a left-to-right sum would wait on each
 * addition in turn.
 */
function subtractRank16(
  a: Float64Array,
  row: number,
  from: number,
  to: number,
  coefficients: Float64Array,
  at: number,
  after: Float64Array,
): void {
  const c0 = coefficients[at]!;
  const c1 = coefficients[at + 1]!;
  const c2 = coefficients[at + 2]!;
  const c3 = coefficients[at + 3]!;
  const c4 = coefficients[at + 4]!;
  const c5 = coefficients[at + 5]!;
  const c6 = coefficients[at + 6]!;
  const c7 = coefficients[at + 7]!;
  const c8 = coefficients[at + 8]!;
  const c9 = coefficients[at + 9]!;
  const c10 = coefficients[at + 10]!;
  const c11 = coefficients[at + 11]!;
  const c12 = coefficients[at + 12]!;
  const c13 = coefficients[at + 13]!;
  const c14 = coefficients[at + 14]!;
  const c15 = coefficients[at + 15]!;
  for (let j = from, q = from * 16; j < to; j++, q += 16) {
    const quad0 = c0 * after[q]! + c1 * after[q + 1]! + (c2 * after[q + 2]! + c3 * after[q + 3]!);
    const quad1 = c4 * after[q + 4]! + c5 * after[q + 5]! + (c6 * after[q + 6]! + c7 * after[q + 7]!);
    const quad2 = c8 * after[q + 8]! + c9 * after[q + 9]! + (c10 * after[q + 10]! + c11 * after[q + 11]!);
    const quad3 = c12 * after[q + 12]! + c13 * after[q + 13]! + (c14 * after[q + 14]! + c15 * after[q + 15]!);
    a[row + j]! -= quad0 + quad1 + (quad2 + quad3);
  }
}

/** The swept block rows back into the upper triangle: row k's entries before the diagonal are column k's. */
function writeBlockRows(a: Float64Array, size: number, first: number, end: number, rows: Float64Array): void {
  for (let k = first; k < end; k++) {
    const r = k - first;
    for (let j = 0; j < k; j++) a[j * size + k] = rows[j * BLOCK + r]!;
    for (let j = k; j < size; j++) a[k * size + j] = rows[j * BLOCK + r]!;
  }
}

/**
 * Turns P (its upper triangle) into the full weight matrix B in place:
 * B_ij = −P_ij / P_jj, B_ii = 0. Row i then holds item i's weights for every item.
 */
export function weightsFromInverse(p: Float64Array, size: number): void {
  const diagonal = new Float64Array(size);
  for (let i = 0; i < size; i++) diagonal[i] = p[i * size + i]!;
  for (let i = 0; i < size; i++) {
    p[i * size + i] = 0;
    for (let j = i + 1; j < size; j++) {
      const pij = p[i * size + j]!;
      p[i * size + j] = -pij / diagonal[j]!;
      p[j * size + i] = -pij / diagonal[i]!;
    }
  }
}

/** EASE's weight matrix B for baskets over `size` items, row-major (row i: item i's weights). */
export function easeWeights(size: number, baskets: readonly WeightedBasket[], lambda: number, checkpoint?: () => void): Float64Array {
  const matrix = regularisedGram(size, baskets, lambda);
  invertSymmetric(matrix, size, checkpoint);
  weightsFromInverse(matrix, size);
  return matrix;
}

/** Row i's `k` largest positive weights, best first (ties by index): what a product's stored list keeps. */
export function topOfRow(weights: Float64Array, size: number, i: number, k: number): { indices: number[]; weights: number[] } {
  const row = weights.subarray(i * size, (i + 1) * size);
  const order: number[] = [];
  for (let j = 0; j < size; j++) if (row[j]! > 0) order.push(j);
  // Only the first k are kept: select them, then sort those alone (a row holds thousands of positive weights).
  const top = topInOrder(order, k, (a, b) => byScoreThenId(row[a]!, row[b]!, a, b));
  return { indices: top, weights: top.map((j) => row[j]!) };
}
