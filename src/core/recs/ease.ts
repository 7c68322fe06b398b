// EASE (Steck, "Embarrassingly Shallow Autoencoders", 2019): a linear
// item-to-item model with a closed form. With X the baskets × items matrix,
// G = XᵀX and P = (G + λI)⁻¹, the weights are B = I − P·diag(1/diag(P)) with
// a zero diagonal, so B_ij = −P_ij / P_jj: how much having item i in a basket
// says about item j, every other item's share explained away. A basket's
// scores are the sum of its items' rows.
//
// Everything works on one dense size × size Float64Array, row-major, in place:
// the Gram matrix becomes its inverse, then B. That is the whole memory cost
// (8·size² bytes) and the inverse the whole time cost (size³/2 multiply-adds).

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
 * its upper triangle only (the lower one is left as it was). It sweeps each
 * pivot in turn (the sweep operator: after all of them the matrix holds −A⁻¹),
 * which needs no pivoting for a positive definite matrix and touches half the
 * matrix per pivot, row by row. `checkpoint` is called every CHECKPOINT_PIVOTS
 * pivots: a caller that must stop (a service shutting down) throws from it.
 */
export function invertSymmetric(a: Float64Array, size: number, checkpoint?: () => void): void {
  const column = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    if (checkpoint !== undefined && k % CHECKPOINT_PIVOTS === 0) checkpoint();
    const rowK = k * size;
    const pivot = a[rowK + k]!;
    if (!(pivot > 0)) throw new Error(`invertSymmetric: the matrix is not positive definite (pivot ${k} is ${pivot})`);
    // Column k, read from the upper triangle: above the diagonal it is column k, beyond it row k.
    for (let j = 0; j < k; j++) column[j] = a[j * size + k]!;
    for (let j = k + 1; j < size; j++) column[j] = a[rowK + j]!;
    column[k] = 0;
    for (let i = 0; i < size; i++) {
      const factor = column[i]! / pivot;
      if (factor === 0) continue;
      const rowI = i * size;
      for (let j = i; j < size; j++) a[rowI + j]! -= factor * column[j]!;
    }
    for (let j = 0; j < k; j++) a[j * size + k] = column[j]! / pivot;
    for (let j = k + 1; j < size; j++) a[rowK + j] = column[j]! / pivot;
    a[rowK + k] = -1 / pivot;
  }
  for (let i = 0; i < size; i++) for (let j = i; j < size; j++) a[i * size + j] = -a[i * size + j]!;
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
  order.sort((a, b) => row[b]! - row[a]! || a - b);
  const top = order.slice(0, k);
  return { indices: top, weights: top.map((j) => row[j]!) };
}
