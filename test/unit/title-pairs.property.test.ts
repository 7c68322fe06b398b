import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Slot } from "../../src/core/search/query-plan.js";
import { alternativeFlags, mergedFlags, possiblePairs, postingFlags, titleBitsWith } from "../../src/core/search/title-pairs.js";

const TERMS = ["ember", "s", "season", "embers", "red", "mug", "redmug"];

/** Pairs of neighbouring words whose alternatives stand side by side in the title, as the ranker counts them. */
function adjacentPairs(title: string[], slots: Slot[]): number {
  let pairs = 0;
  for (let s = 0; s + 1 < slots.length; s++) {
    const left = new Set(slots[s]!.alternatives.map(({ term }) => term));
    const right = new Set(slots[s + 1]!.alternatives.map(({ term }) => term));
    if (title.some((term, p) => p + 1 < title.length && left.has(term) && right.has(title[p + 1]!))) pairs++;
  }
  return pairs;
}

/** The title bits pass 1 records of a title: per slot, each alternative's posting as its mark says (title count, shifted). */
function recorded(title: string[], slots: Slot[]): number {
  let bits = 0;
  slots.forEach((slot, position) => {
    const base = alternativeFlags(slots, position);
    let flags = 0;
    let held = false;
    slot.alternatives.forEach(({ term }, j) => {
      const count = title.filter((t) => t === term).length;
      if (count === 0) return;
      const posting = postingFlags(base[j]!, count << 1);
      flags = held ? mergedFlags(flags, posting) : posting;
      held = true;
    });
    bits = titleBitsWith(bits, position, flags);
  });
  return bits;
}

const slotArb: fc.Arbitrary<Slot> = fc
  .uniqueArray(fc.constantFrom(...TERMS), { minLength: 1, maxLength: 3 })
  .map((terms) => ({ alternatives: terms.map((term) => ({ term, weight: 1 })), idf: 1 }));

describe("title pairs", () => {
  it("never bound a title's adjacent pairs below what it holds", () => {
    fc.assert(
      fc.property(
        fc.array(slotArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(...TERMS), { maxLength: 6 }),
        (slots, title) => {
          const matched = slots.filter((slot) => slot.alternatives.some(({ term }) => title.includes(term))).length;
          const bound = possiblePairs(recorded(title, slots), slots.length, Math.max(0, matched - 1));
          expect(bound).toBeGreaterThanOrEqual(adjacentPairs(title, slots));
          expect(bound).toBeLessThanOrEqual(Math.max(0, matched - 1));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("bound no pair where the title holds only a term both words share, once", () => {
    // "ember s": the compound "embers" is offered to both words.
    const slots: Slot[] = [
      { alternatives: [{ term: "ember", weight: 1 }], idf: 1 },
      { alternatives: ["ember", "s", "season"].map((term) => ({ term, weight: 1 })), idf: 1 },
    ];
    expect(possiblePairs(recorded(["ember", "candle"], slots), 2, 1)).toBe(0);
    expect(possiblePairs(recorded(["ember", "ember"], slots), 2, 1)).toBe(1);
    expect(possiblePairs(recorded(["ember", "season"], slots), 2, 1)).toBe(1);
  });

  it("keep the flags of every word a query may have, the sixteenth's in the top bit too", () => {
    // Every word in the title, each free of a shared term: every neighbouring pair is possible.
    const slots: Slot[] = Array.from({ length: 16 }, (_, i) => ({ alternatives: [{ term: `w${i}`, weight: 1 }], idf: 1 }));
    const title = slots.map((slot) => slot.alternatives[0]!.term);
    expect(possiblePairs(recorded(title, slots), 16, 0)).toBe(15);
    expect(possiblePairs(recorded(title.slice(0, 15), slots), 16, 0)).toBe(14);
  });

  it("bound a query of more words than it keeps flags for by the fallback given", () => {
    expect(possiblePairs(0, 17, 5)).toBe(5);
  });
});
