// The text neighbours the bought-together training adds to each product's EASE
// list (src/core/recs/text-neighbours.ts): nearest products by the cosine of
// their starter vectors, against a direct computation, and the sum of two
// best-first lists, against the sum of the whole rows they were cut from.
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/random.js";
import { addWeighted, textNeighbourLists } from "../../src/core/recs/text-neighbours.js";

/** A random direction as a starter vector stores it: a unit vector × 127, rounded to signed bytes. */
function randomVector(rng: Rng, dims: number): Int8Array {
  const raw = Array.from({ length: dims }, () => rng.next() * 2 - 1);
  const norm = Math.hypot(...raw);
  return Int8Array.from(raw, (value) => Math.round((127 * value) / norm));
}

function dot(a: Int8Array, b: Int8Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d]! * b[d]!;
  return sum;
}

function cosine(a: Int8Array, b: Int8Array): number {
  return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
}

describe("text neighbours", () => {
  it("lists each product's nearest others by cosine, best first, positive only, at most k, never itself", () => {
    const rng = new Rng(7);
    const products = Array.from({ length: 60 }, (_, i) => ({ id: 100 + i, vector: randomVector(rng, 16) }));
    const k = 8;
    const lists = textNeighbourLists(products, k);
    expect(lists.size).toBe(products.length);
    // Rounded to bytes, the vectors' norms differ a little: the weights are dot products over the largest squared norm.
    const squaredScale = Math.max(...products.map(({ vector }) => dot(vector, vector)));
    for (const { id, vector } of products) {
      const expected = products
        .filter((other) => other.id !== id)
        .map((other) => ({ id: other.id, weight: dot(vector, other.vector) / squaredScale, cosine: cosine(vector, other.vector) }))
        .filter((other) => other.weight > 0)
        .sort((a, b) => b.weight - a.weight || a.id - b.id)
        .slice(0, k);
      const list = lists.get(id)!;
      expect(list.ids).toEqual(expected.map((other) => other.id));
      list.weights.forEach((weight, index) => {
        expect(weight).toBe(expected[index]!.weight);
        expect(Math.abs(weight - expected[index]!.cosine)).toBeLessThan(0.02);
      });
    }
  });

  it("gives no list to a product that points away from every other, and none at all to zero vectors", () => {
    const up = Int8Array.from([127, 0]);
    const lists = textNeighbourLists(
      [
        { id: 1, vector: up },
        { id: 2, vector: Int8Array.from([90, 90]) },
        { id: 3, vector: Int8Array.from([-90, -90]) },
      ],
      5,
    );
    expect(lists.get(1)!.ids).toEqual([2]);
    expect(lists.get(1)!.weights[0]).toBeCloseTo(Math.SQRT1_2, 2);
    expect(lists.has(3)).toBe(false);
    expect(textNeighbourLists([{ id: 1, vector: new Int8Array(4) }], 5).size).toBe(0);
    expect(textNeighbourLists([], 5).size).toBe(0);
  });

  it("adds two lists as the endpoint would add them (a product missing from one adds 0 there), their best k kept", () => {
    const rng = new Rng(11);
    const size = 200;
    const k = 20;
    const sparse = (share: number) => {
      const ids = Array.from({ length: size }, (_, id) => id).filter(() => rng.chance(share));
      return { ids, weights: ids.map(() => rng.next() * 2 - 1) };
    };
    for (let trial = 0; trial < 20; trial++) {
      const base = sparse(0.2);
      const extra = sparse(0.3);
      const factor = rng.next() * 2;
      const row = new Float64Array(size);
      base.ids.forEach((id, index) => (row[id]! += base.weights[index]!));
      extra.ids.forEach((id, index) => (row[id]! += factor * extra.weights[index]!));
      const expected = [...row.keys()]
        .filter((id) => row[id]! > 0)
        .sort((a, b) => row[b]! - row[a]! || a - b)
        .slice(0, k);
      const summed = addWeighted(base, extra, factor, k);
      expect(summed.ids).toEqual(expected);
      summed.weights.forEach((weight, index) => expect(weight).toBeCloseTo(row[expected[index]!]!, 12));
    }
  });

  it("leaves the base list as it is at factor 0 or without an extra list", () => {
    const base = { ids: [5, 3, 9], weights: [0.9, 0.5, 0.1] };
    const extra = { ids: [9, 4], weights: [1, 1] };
    expect(addWeighted(base, extra, 0, 10)).toEqual(base);
    expect(addWeighted(base, undefined, 0.5, 10)).toEqual(base);
    expect(addWeighted(base, extra, 1, 2)).toEqual({ ids: [9, 4], weights: [1.1, 1] });
    expect(addWeighted(undefined, extra, 0.5, 10)).toEqual({ ids: [4, 9], weights: [0.5, 0.5] });
  });
});
