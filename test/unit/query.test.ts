import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseQuery } from "../../src/core/params/query.js";

/** Query strings built from the characters that matter to parsing: separators, escapes, and plain text. */
const queries = fc
  .array(fc.constantFrom("a", "b", "key", "uuid", "=", "&", "%", "%2", "%41", "%zz", "+", " ", "é", "?", "-", "1"), { maxLength: 30 })
  .map((parts) => parts.join(""));

const NAMES = ["a", "b", "key", "uuid", "", "a b", "A", "ab"];

describe("parseQuery", () => {
  it("reads every name as URLSearchParams does, escapes or not", () => {
    fc.assert(
      fc.property(queries, (raw) => {
        const ours = parseQuery(raw);
        const standard = new URLSearchParams(raw);
        for (const name of NAMES) expect(ours.get(name)).toBe(standard.get(name));
      }),
      { numRuns: 2_000 },
    );
  });

  it("gives the first of repeated names, an empty value for a bare name, and null for an absent one", () => {
    const query = parseQuery("limit=5&limit=9&flag&empty=&&x=a=b");
    expect(query.get("limit")).toBe("5");
    expect(query.get("flag")).toBe("");
    expect(query.get("empty")).toBe("");
    expect(query.get("x")).toBe("a=b");
    expect(query.get("missing")).toBeNull();
    expect(parseQuery("").get("limit")).toBeNull();
  });
});
