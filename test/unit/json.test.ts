import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteBuilder } from "../../src/core/byte-builder.js";
import { jsonBytes, nestedDeeperThan, withTopLevelField } from "../../src/core/json.js";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("withTopLevelField", () => {
  it("gives the same JSON as serializing the object with the field, compact or pretty, in its own buffer or a reused one", () => {
    const reused = new ByteBuilder();
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 4 }), fc.jsonValue(), fc.boolean(), (data, value, pretty) => {
        const body = jsonBytes({ data }, pretty);
        const stamped = decode(withTopLevelField(body, "metadata", value, pretty));
        expect(JSON.parse(stamped)).toEqual(JSON.parse(JSON.stringify({ data, metadata: value })));
        if (pretty) expect(stamped).toBe(decode(jsonBytes({ data, metadata: value }, true)));
        expect(decode(withTopLevelField(body, "metadata", value, pretty, reused))).toBe(stamped);
      }),
    );
  });
});

/** The depth of a JSON value, recursively: the top level is 1, a primitive 0. */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe("nestedDeeperThan", () => {
  it("agrees with a recursive depth on any JSON value, at any bound", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 8 }), (value, max) => {
        expect(nestedDeeperThan(value, max)).toBe(depthOf(value) > max);
      }),
    );
  });

  it("walks nesting far past what recursion survives", () => {
    const deep = (levels: number) => JSON.parse("[".repeat(levels) + '{"a":1}' + "]".repeat(levels)) as unknown;
    expect(nestedDeeperThan(deep(100_000), 64)).toBe(true);
    expect(nestedDeeperThan(deep(63), 64)).toBe(false);
    expect(nestedDeeperThan(deep(64), 64)).toBe(true);
  });
});
