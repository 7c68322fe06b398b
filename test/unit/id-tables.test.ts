import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IntegerIds, StringIds } from "../../src/core/recs/id-tables.js";

// Arrays drawn in full ("size: max": fast-check otherwise keeps them to a few entries, and nothing
// grows); a failure ends the run at once ("endOnFailure"): shrinking thousands of entries takes minutes.

/** Sets every pair in both the table and a Map, then every key set and every probe must read the same from both. */
function answersLikeAMap<K>(
  table: { get(key: K): number; set(key: K, value: number): void; size: number },
  sets: [K, number][],
  probes: K[],
): void {
  const reference = new Map<K, number>();
  for (const [key, value] of sets) {
    table.set(key, value);
    reference.set(key, value);
  }
  expect(table.size).toBe(reference.size);
  for (const key of [...reference.keys(), ...probes]) expect(table.get(key)).toBe(reference.get(key) ?? -1);
}

describe("StringIds", () => {
  it("answers like a Map for any strings, through growth", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 12 }), fc.nat({ max: 1_000_000 })), { maxLength: 3_000, size: "max" }),
        fc.array(fc.string({ maxLength: 12 })),
        (sets, probes) => answersLikeAMap(new StringIds(), sets, probes),
      ),
      { numRuns: 100, endOnFailure: true },
    );
  });

  it("keeps 200k uuids apart", () => {
    const table = new StringIds();
    const uuids = Array.from({ length: 200_000 }, () => randomUUID());
    uuids.forEach((uuid, i) => table.set(uuid, i));
    expect(table.size).toBe(uuids.length);
    expect(uuids.every((uuid, i) => table.get(uuid) === i)).toBe(true);
    expect(table.get(randomUUID())).toBe(-1);
  });
});

describe("IntegerIds", () => {
  it("answers like a Map for integers up to 2^53, exactly", () => {
    // Keys that differ only in their high half, or only in their low half, included.
    const key = fc.oneof(
      fc.maxSafeNat(),
      fc.nat({ max: 50 }).map((n) => n * 2 ** 32 + 7),
      fc.nat({ max: 50 }).map((n) => 2 ** 40 + n),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.nat({ max: 1_000_000 })), { maxLength: 3_000, size: "max" }), fc.array(key), (sets, probes) =>
        answersLikeAMap(new IntegerIds(), sets, probes),
      ),
      { numRuns: 100, endOnFailure: true },
    );
  });
});

describe("hash flooding", () => {
  /**
   * Uuids that all start probing at one slot of a table seeded with `seed`:
   * found by trial, as an attacker who knew the seed could.
   */
  function collidingUuids(seed: number, count: number): string[] {
    const probe = new StringIds(seed);
    const first = randomUUID();
    probe.set(first, 0);
    const found = [first];
    while (found.length < count) {
      const candidate = randomUUID();
      const before = probe.probes;
      probe.get(candidate);
      // Two probes: it starts at the first key's slot (the one after is free).
      if (probe.probes - before === 2) found.push(candidate);
    }
    return found;
  }

  it("keeps crafted colliding uuids cheap: each table hashes with its own seed", () => {
    const uuids = collidingUuids(12_345, 400);
    const attacked = new StringIds(12_345);
    uuids.forEach((uuid, i) => attacked.set(uuid, i));
    // Against the seed they were crafted for, probing is quadratic: the attack is real.
    expect(attacked.probes).toBeGreaterThan(50 * uuids.length);
    const seeded = new StringIds();
    uuids.forEach((uuid, i) => seeded.set(uuid, i));
    expect(seeded.probes).toBeLessThan(5 * uuids.length);
    expect(uuids.every((uuid, i) => seeded.get(uuid) === i)).toBe(true);
  });
});
