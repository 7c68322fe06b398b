import { describe, expect, it } from "vitest";
import { SignatureShortlist, signatureDistance, STARTER_DIMS, starterSignature } from "../../src/core/embedding/starter.js";

/** Differing bits between two signatures, counted one bit at a time. */
function differing(a: readonly [number, number], b: readonly [number, number]): number {
  let count = 0;
  for (let bit = 0; bit < 64; bit++) if (((a[bit >> 5]! >>> (bit & 31)) & 1) !== ((b[bit >> 5]! >>> (bit & 31)) & 1)) count++;
  return count;
}

describe("starter signatures", () => {
  it("hold the sign of each of the 64 directions", () => {
    const vector = Int8Array.from({ length: STARTER_DIMS }, (_, dim) => (dim % 3 === 0 ? 5 : -5));
    const [low, high] = starterSignature(vector);
    for (let dim = 0; dim < STARTER_DIMS; dim++)
      expect(((dim < 32 ? low : high) >>> (dim & 31)) & 1, `dim ${dim}`).toBe(dim % 3 === 0 ? 1 : 0);
  });

  it("shortlist the products differing in fewest bits (ties: lower id), closest first", () => {
    let state = 5;
    const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0);
    const query: [number, number] = [next(), next()];
    const offered = Array.from({ length: 3_000 }, (_, i) => ({ id: i + 1, signature: [next(), next()] as [number, number] }));
    const shortlist = new SignatureShortlist(40);
    for (const { id, signature } of offered) {
      const distance = signatureDistance(signature[0], signature[1], query);
      expect(distance).toBe(differing(signature, query));
      if (distance <= shortlist.bound) shortlist.offer(id, distance);
    }
    const expected = [...offered]
      .sort((a, b) => differing(a.signature, query) - differing(b.signature, query) || a.id - b.id)
      .slice(0, 40)
      .map(({ id }) => id);
    expect(shortlist.ids()).toEqual(expected);
  });
});
