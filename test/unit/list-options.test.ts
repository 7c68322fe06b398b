import { setFlagsFromString } from "node:v8";
import { describe, expect, it } from "vitest";
import { listOptionsFrom, withListOptions } from "../../src/core/products/query.js";

// V8's own check of two objects' hidden classes: what the functions reading lists key their caches on.
setFlagsFromString("--allow-natives-syntax");
const sameShape = new Function("a", "b", "return %HaveSameMap(a, b)") as (a: object, b: object) => boolean;

describe("list options", () => {
  const list = listOptionsFrom({ limit: 7, excluded_ids: [3] }, "full", { ranked: true });

  it("changed with withListOptions: the changes, the rest as they were, the list itself untouched", () => {
    const changed = withListOptions(list, { restrictTo: [1, 2], excludedIds: [3, 4] });
    expect(changed).toStrictEqual({ ...list, restrictTo: [1, 2], excludedIds: [3, 4] });
    expect(list.restrictTo).toBeNull();
    expect(list.excludedIds).toEqual([3]);
  });

  it("keep one shape however they are made, where a spread copy would be of another", () => {
    expect(sameShape(list, listOptionsFrom({}, "reduced"))).toBe(true);
    expect(sameShape(list, withListOptions(list, { restrictTo: [1] }))).toBe(true);
    expect(sameShape(list, withListOptions(withListOptions(list, { limit: 1 }), { excludedIds: [] }))).toBe(true);
    // What withListOptions replaces, of another shape in the V8 of Node 20 (which `engines` pins): the check tells the two apart.
    expect(sameShape(list, { ...list, restrictTo: [1] })).toBe(false);
  });
});
