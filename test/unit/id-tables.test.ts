import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StringIds } from "../../src/core/recs/id-tables.js";

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
        fc.array(fc.tuple(fc.string({ maxLength: 12 }), fc.nat({ max: 1_000_000 })), { maxLength: 3_000 }),
        fc.array(fc.string({ maxLength: 12 })),
        (sets, probes) => answersLikeAMap(new StringIds(), sets, probes),
      ),
      { numRuns: 100 },
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
