// EASE's closed form as aisle computes it (src/core/recs/ease.ts), against a
// naive dense inversion and against the sweep one pivot at a time that the
// blocked inversion must reproduce, and the pure parts of the bought-together training
// around it: the blend the endpoint scores with, the penalty search and the
// validation carved from a shop's most recent orders.
import { describe, expect, it } from "vitest";
import { carveBasketCases } from "../../src/core/recs/basket-cases.js";
import { combineNeighbours } from "../../src/core/recs/copurchase.js";
import { easeBytes, easeWeights, invertSymmetric, regularisedGram, topOfRow, weightsFromInverse } from "../../src/core/recs/ease.js";
import { blendBoughtTogether } from "../../src/core/recs/fbt-blend.js";
import { walkGrid } from "../../src/core/recs/grid-walk.js";
import { Rng } from "../../src/core/random.js";

/** Gauss–Jordan elimination with partial pivoting on a full copy: the textbook inverse. */
function naiveInverse(matrix: number[][]): number[][] {
  const n = matrix.length;
  const a = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const divisor = a[col]![col]!;
    a[col] = a[col]!.map((x) => x / divisor);
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const factor = a[row]![col]!;
      a[row] = a[row]!.map((x, j) => x - factor * a[col]![j]!);
    }
  }
  return a.map((row) => row.slice(n));
}

/** B = I − P·diag(1/diag(P)) with a zero diagonal, from the naive inverse of XᵀX + λI. */
function naiveEase(size: number, baskets: number[][], lambda: number): number[][] {
  const gram = Array.from({ length: size }, (_, i) => Array.from({ length: size }, (_, j) => (i === j ? lambda : 0)));
  for (const basket of baskets) for (const i of basket) for (const j of basket) gram[i]![j]! += 1;
  const p = naiveInverse(gram);
  return p.map((row, i) => row.map((pij, j) => (i === j ? 0 : -pij / p[j]![j]!)));
}

/**
 * The sweep operator one pivot at a time over the upper triangle, the way
 * invertSymmetric worked before it swept blocks of pivots: the same
 * arithmetic in another order, so the two agree to rounding.
 */
function sweepOnePivotAtATime(a: Float64Array, size: number): void {
  const column = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    const pivot = a[k * size + k]!;
    for (let j = 0; j < size; j++) column[j] = j === k ? 0 : a[Math.min(j, k) * size + Math.max(j, k)]!;
    for (let i = 0; i < size; i++) for (let j = i; j < size; j++) a[i * size + j]! -= (column[i]! / pivot) * column[j]!;
    for (let j = 0; j < size; j++) if (j !== k) a[Math.min(j, k) * size + Math.max(j, k)] = column[j]! / pivot;
    a[k * size + k] = -1 / pivot;
  }
  for (let i = 0; i < size; i++) for (let j = i; j < size; j++) a[i * size + j] = -a[i * size + j]!;
}

/** A dense symmetric positive definite matrix RᵀR + I, R uniform in [−1, 1), with its lower triangle filled too. */
function randomSpd(rng: Rng, size: number): Float64Array {
  const r = Array.from({ length: size * size }, () => 2 * rng.next() - 1);
  const a = new Float64Array(size * size);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      let sum = i === j ? 1 : 0;
      for (let k = 0; k < size; k++) sum += r[k * size + i]! * r[k * size + j]!;
      a[i * size + j] = sum;
    }
  }
  return a;
}

/** The largest difference between two matrices' upper triangles, relative to the largest entry of the first. */
function upperRelativeError(expected: Float64Array, actual: Float64Array, size: number): number {
  let error = 0;
  let scale = 0;
  for (let i = 0; i < size; i++) {
    for (let j = i; j < size; j++) {
      error = Math.max(error, Math.abs(actual[i * size + j]! - expected[i * size + j]!));
      scale = Math.max(scale, Math.abs(expected[i * size + j]!));
    }
  }
  return error / scale;
}

function randomBaskets(rng: Rng, size: number, count: number): number[][] {
  return Array.from({ length: count }, () => [...new Set(Array.from({ length: rng.int(1, 5) }, () => rng.int(0, size - 1)))]);
}

describe("EASE's closed form", () => {
  it("solves a hand-checkable case: two items always bought together, a third alone", () => {
    // G = [[2,2,0],[2,2,0],[0,0,1]] + λI with λ = 1: P's top block is [[3,2],[2,3]]⁻¹ = [[3,−2],[−2,3]]/5,
    // so B_01 = B_10 = −(−2/5)/(3/5) = 2/3, and the lone item says nothing (0).
    const weights = easeWeights(
      3,
      [
        { items: [0, 1], weight: 1 },
        { items: [0, 1], weight: 1 },
        { items: [2], weight: 1 },
      ],
      1,
    );
    const expected = [
      [0, 2 / 3, 0],
      [2 / 3, 0, 0],
      [0, 0, 0],
    ];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(weights[i * 3 + j]).toBeCloseTo(expected[i]![j]!, 12);
  });

  it("inverts like a naive dense elimination, and gives its B, on random baskets", () => {
    const rng = new Rng(7);
    for (const [size, lambda] of [
      [8, 0.5],
      [25, 3],
      [60, 20],
    ] as const) {
      const baskets = randomBaskets(rng, size, 4 * size);
      const gram = regularisedGram(
        size,
        baskets.map((items) => ({ items, weight: 1 })),
        lambda,
      );
      const full = Array.from({ length: size }, (_, i) =>
        Array.from({ length: size }, (_, j) => gram[Math.min(i, j) * size + Math.max(i, j)]!),
      );
      invertSymmetric(gram, size);
      const inverse = naiveInverse(full);
      for (let i = 0; i < size; i++) for (let j = i; j < size; j++) expect(gram[i * size + j]).toBeCloseTo(inverse[i]![j]!, 10);

      const weights = easeWeights(
        size,
        baskets.map((items) => ({ items, weight: 1 })),
        lambda,
      );
      const naive = naiveEase(size, baskets, lambda);
      for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) expect(weights[i * size + j]).toBeCloseTo(naive[i]![j]!, 10);
    }
  });

  it("inverts as the sweep one pivot at a time does, at sizes that are and are not whole blocks of pivots", () => {
    const rng = new Rng(11);
    for (const size of [1, 2, 15, 16, 17, 31, 33, 64, 100, 203]) {
      for (const matrix of [
        randomSpd(rng, size),
        regularisedGram(
          size,
          randomBaskets(rng, size, 3 * size).map((items) => ({ items, weight: 1 })),
          0.5,
        ),
      ]) {
        const expected = matrix.slice();
        sweepOnePivotAtATime(expected, size);
        const actual = matrix.slice();
        invertSymmetric(actual, size);
        expect(upperRelativeError(expected, actual, size), `size ${size}`).toBeLessThanOrEqual(1e-9);
      }
    }
  });

  it("reads and writes the upper triangle only", () => {
    const size = 37;
    const matrix = randomSpd(new Rng(5), size);
    for (let i = 1; i < size; i++) for (let j = 0; j < i; j++) matrix[i * size + j] = Number.NaN;
    invertSymmetric(matrix, size);
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) expect(Number.isNaN(matrix[i * size + j]!), `(${i}, ${j})`).toBe(j < i);
    }
  });

  it("gives a small shop the same lists as the sweep one pivot at a time", () => {
    // 150 products in 30 families of 5; most baskets stay within a family, some cross.
    const rng = new Rng(3);
    const size = 150;
    const baskets = Array.from({ length: 2_000 }, () => {
      const family = 5 * rng.int(0, 29);
      const items = Array.from({ length: rng.int(1, 4) }, () => (rng.chance(0.8) ? family + rng.int(0, 4) : rng.int(0, size - 1)));
      return { items: [...new Set(items)], weight: 1 };
    });
    const weights = easeWeights(size, baskets, 10);
    const expected = regularisedGram(size, baskets, 10);
    sweepOnePivotAtATime(expected, size);
    weightsFromInverse(expected, size);
    for (let i = 0; i < size; i++)
      expect(topOfRow(weights, size, i, 20).indices, `product ${i}`).toEqual(topOfRow(expected, size, i, 20).indices);
  });

  it("weights a basket as that many copies of it", () => {
    const once = easeWeights(
      3,
      [
        { items: [0, 1], weight: 3 },
        { items: [1, 2], weight: 1 },
      ],
      2,
    );
    const copies = easeWeights(
      3,
      [
        [0, 1],
        [0, 1],
        [0, 1],
        [1, 2],
      ].map((items) => ({ items, weight: 1 })),
      2,
    );
    for (let i = 0; i < 9; i++) expect(once[i]).toBeCloseTo(copies[i]!, 12);
  });

  it("refuses a matrix that is not positive definite, and lets a checkpoint stop a long inversion", () => {
    expect(() => invertSymmetric(Float64Array.from([1, 2, 2, 1]), 2)).toThrow(/not positive definite/);
    const size = 200;
    const gram = regularisedGram(size, [], 1);
    let calls = 0;
    expect(() =>
      invertSymmetric(gram, size, () => {
        if (++calls > 2) throw new Error("stopped");
      }),
    ).toThrow("stopped");
    expect(calls).toBe(3);
    // Uninterrupted, every 64 pivots: at pivots 0, 64, 128 and 192.
    let checkpoints = 0;
    invertSymmetric(regularisedGram(size, [], 1), size, () => checkpoints++);
    expect(checkpoints).toBe(4);
  });

  it("keeps a row's best positive weights, ties by index, and states its memory", () => {
    const weights = Float64Array.from([0, 0.5, -1, 0.5, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(topOfRow(weights, 4, 0, 10)).toEqual({ indices: [1, 3], weights: [0.5, 0.5] });
    expect(topOfRow(weights, 4, 1, 1)).toEqual({ indices: [0], weights: [2] });
    expect(topOfRow(weights, 4, 2, 10)).toEqual({ indices: [], weights: [] });
    expect(easeBytes(4_000)).toBe(128_000_000);
  });
});

describe("the bought-together blend", () => {
  const ease = { ids: [10, 11], weights: [0.4, 0.2] };
  const copurchase = { ids: [11, 12, 1], weights: [0.5, 0.3, 9] };

  it("is today's co-purchase scores exactly without a trained model", () => {
    const inputs = [
      { ease: undefined, copurchase },
      { ease: undefined, copurchase: { ids: [12], weights: [1] } },
    ];
    const exclude = new Set([1]);
    expect(blendBoughtTogether(inputs, null, exclude)).toEqual(combineNeighbours([copurchase, { ids: [12], weights: [1] }], exclude));
  });

  it("mixes a covered input's lists by the chosen share, and counts an uncovered input's co-purchase list whole", () => {
    const blend = { copurchaseWeight: 0.25, copurchaseScale: 2 };
    const covered = blendBoughtTogether([{ ease, copurchase }], blend, new Set([1]));
    expect(Object.fromEntries(covered)).toEqual({ 10: 0.75 * 0.4, 11: 0.75 * 0.2 + 0.25 * 2 * 0.5, 12: 0.25 * 2 * 0.3 });
    const uncovered = blendBoughtTogether([{ ease: undefined, copurchase }], blend, new Set([1]));
    expect(Object.fromEntries(uncovered)).toEqual({ 11: 2 * 0.5, 12: 2 * 0.3 });
    // All of it EASE: co-purchase lists of covered inputs are not read at all.
    expect(Object.fromEntries(blendBoughtTogether([{ ease, copurchase }], { copurchaseWeight: 0, copurchaseScale: 2 }, new Set()))).toEqual(
      {
        10: 0.4,
        11: 0.2,
      },
    );
  });
});

describe("the penalty search", () => {
  it("walks from the middle towards the best value, fitting only what it needs, the first of equal scores kept", () => {
    const values = [1, 2, 4, 8, 16, 32, 64];
    const tried: number[] = [];
    const best = walkGrid(
      values,
      (value) => {
        tried.push(value);
        return { value, score: -Math.abs(Math.log2(value) - 1) };
      },
      (result) => result.score,
    );
    expect(best.value).toBe(2);
    expect(tried).toEqual([8, 4, 2, 1]);
    const flat: number[] = [];
    expect(
      walkGrid(
        values,
        (value) => (flat.push(value), value),
        () => 0,
      ),
    ).toBe(8);
    expect(flat).toEqual([8, 4, 16]);
  });
});

describe("validation carved from a shop's most recent orders", () => {
  it("holds out the last share, keeps products the earlier orders had, and asks for the last from the first five at most", () => {
    const baskets = [
      { items: [1, 2, 3, 4, 5, 6, 7], at: 1 },
      { items: [8, 9], at: 2 },
      { items: [1, 2, 3, 4, 5, 6, 7, 8], at: 3 },
      { items: [42, 1, 9], at: 4 },
      { items: [2, 42], at: 5 },
    ];
    const { train, cases } = carveBasketCases(baskets, 0.6);
    expect(train).toEqual(baskets.slice(0, 2));
    expect(cases).toEqual([
      { query: [1, 2, 3, 4, 5], target: 8 },
      { query: [1], target: 9 },
    ]);
  });
});
