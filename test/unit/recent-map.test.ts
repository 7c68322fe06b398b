import { describe, expect, it } from "vitest";
import { RecentMap } from "../../src/stores/recent-map.js";

describe("RecentMap", () => {
  it("keeps at least the last `capacity` keys, and what was read lately", () => {
    const map = new RecentMap<string, number>(3);
    for (const [i, key] of ["a", "b", "c", "d"].entries()) map.set(key, i);
    // "d" started a new generation; a–c are the old one, still there.
    expect(["a", "b", "c", "d"].map((key) => map.get(key))).toEqual([0, 1, 2, 3]);
    // Four more keys fill two generations: a key nobody set or read meanwhile is gone.
    map.set("e", 4);
    map.set("f", 5);
    map.set("g", 6);
    map.set("h", 7);
    expect(map.get("a")).toBeUndefined();
    expect(["e", "f", "g", "h"].map((key) => map.get(key))).toEqual([4, 5, 6, 7]);
  });

  it("forgets everything on clear", () => {
    const map = new RecentMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    map.set("c", 3);
    map.clear();
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual([undefined, undefined, undefined]);
  });
});
