import { describe, expect, it } from "vitest";
import { GenerationalCache } from "../../src/core/generational-cache.js";

/** Every value costs 10 bytes: a generation of 30 bytes holds 3. */
const cache = () => new GenerationalCache<string>(30, () => 10);

describe("GenerationalCache", () => {
  it("answers what was set, by group and id, and nothing of another group", () => {
    const values = cache();
    values.set("a", 1, "a1");
    values.set("b", 1, "b1");
    expect(values.get("a", 1)).toBe("a1");
    expect(values.get("b", 1)).toBe("b1");
    expect(values.get("a", 2)).toBeUndefined();
    expect(values.get("c", 1)).toBeUndefined();
  });

  it("holds at most two generations, dropping the values not used since the older one began", () => {
    const values = cache();
    for (let id = 1; id <= 8; id++) values.set("g", id, `v${id}`);
    // 1-3 filled a generation and became the old one, 4-6 the next (1-3 dropped); 7 and 8 are young.
    expect(values.size).toBe(5);
    expect([1, 2, 3].map((id) => values.get("g", id))).toEqual([undefined, undefined, undefined]);
    expect([4, 7, 8].map((id) => values.get("g", id))).toEqual(["v4", "v7", "v8"]);
  });

  it("keeps a value used again: a hit in the old generation moves it to the young one", () => {
    const values = cache();
    for (let id = 1; id <= 3; id++) values.set("g", id, `v${id}`);
    values.set("g", 4, "v4");
    // 1-3 are old now; using 2 makes it young again, so it outlives the next turn.
    expect(values.get("g", 2)).toBe("v2");
    values.set("g", 5, "v5");
    values.set("g", 6, "v6");
    expect(values.get("g", 2)).toBe("v2");
    expect(values.get("g", 1)).toBeUndefined();
  });

  it("holds nothing once cleared", () => {
    const values = cache();
    values.set("g", 1, "v1");
    values.set("g", 2, "v2");
    values.set("g", 3, "v3");
    values.set("g", 4, "v4");
    values.clear();
    expect(values.size).toBe(0);
    expect([1, 4].map((id) => values.get("g", id))).toEqual([undefined, undefined]);
  });
});
