import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeySlots } from "../../src/core/recs/key-slots.js";

// Arrays drawn in full ("size: max": fast-check otherwise keeps them to a few entries, and nothing
// grows); a failure ends the run at once ("endOnFailure"): shrinking thousands of entries takes minutes.

// Keys that differ only in their high half, or only in their low half, included.
const key = fc.oneof(
  fc.nat({ max: 5_000 }),
  fc.maxSafeNat(),
  fc.nat({ max: 50 }).map((n) => n * 2 ** 32 + 7),
  fc.nat({ max: 50 }).map((n) => 2 ** 40 + n),
);

describe("KeySlots", () => {
  it("hands out slots in order of first sight and finds them like a Map, through growth and clears", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(key, { maxLength: 3_000, size: "max" }), { minLength: 1, maxLength: 4 }),
        fc.array(key),
        (rounds, probes) => {
          const slots = new KeySlots();
          for (const keys of rounds) {
            slots.clear();
            const reference = new Map<number, number>();
            for (const k of keys) {
              if (!reference.has(k)) reference.set(k, reference.size);
              expect(slots.slotOf(k)).toBe(reference.get(k));
            }
            expect(slots.size).toBe(reference.size);
            for (const k of [...reference.keys(), ...probes]) expect(slots.find(k)).toBe(reference.get(k) ?? -1);
            for (const [k, slot] of reference) expect(slots.keyOf(slot)).toBe(k);
          }
        },
      ),
      { numRuns: 60, endOnFailure: true },
    );
  });
});
