import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedEditDistance, editBudget } from "../../src/core/search/edits.js";
import { parseQuickViewRequest, BadSearchRequest, quickViewRequest } from "../../src/core/search/request.js";
import { family, headTerm, stem, terms, words } from "../../src/core/search/text.js";

/** Textbook optimal-string-alignment distance, the oracle for the bounded one. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

describe("search text", () => {
  it("lower-cases, splits letters from digits and spells units one way", () => {
    expect(words("BEHR 1-gal. #SC-141 18in. 3/4\" Pipe, 6' x 2.5 Inches")).toEqual([
      "behr",
      "1",
      "gal",
      "sc",
      "141",
      "18",
      "in",
      "3/4",
      "in",
      "pipe",
      "6",
      "ft",
      "x",
      "2.5",
      "in",
    ]);
    expect(words("Men's Crème Brûlée 20-Volt 1500 Watts")).toEqual(["mens", "creme", "brulee", "20", "volt", "1500", "watt"]);
  });

  it("stems plurals lightly and keeps words that only look plural", () => {
    expect(["batteries", "benches", "boxes", "lights", "hoses", "glass", "cactus", "axis", "bus", "2x4s"].map(stem)).toEqual([
      "battery",
      "bench",
      "box",
      "light",
      "hose",
      "glass",
      "cactus",
      "axis",
      "bus",
      "2x4s",
    ]);
    expect(terms("LED Light Bulbs")).toEqual(["led", "light", "bulb"]);
    expect(new Set(["lighting", "lighted", "light"].map(family)).size).toBe(1);
  });

  it("finds the head noun of a title before its details", () => {
    expect(headTerm("Delta Vero 1-Handle Shower Only Faucet Trim Kit in Chrome (Valve Not Included)")).toBe("kit");
    expect(headTerm("Whirlpool 1.9 cu. ft. Over the Range Convection Microwave in Stainless Steel")).toBe("microwave");
    expect(headTerm("Milwaukee 18 in. Drill Bits with Case")).toBe("bit");
    expect(headTerm("1/2 in. x 10 ft. Copper Pipe")).toBe("pipe");
    expect(headTerm("12 x 24")).toBeNull();
  });

  it("forgives no edit below 4 characters, one from 4 and two from 8", () => {
    expect([3, 4, 7, 8, 12].map(editBudget)).toEqual([0, 1, 1, 2, 2]);
  });

  it("bounded edit distance agrees with the textbook distance up to its bound", () => {
    const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "d"), maxLength: 10 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const exact = osa(a, b);
        expect(boundedEditDistance(a, b, max)).toBe(exact <= max ? exact : max + 1);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("quick-view request", () => {
  const parse = (body: unknown, query = "") =>
    parseQuickViewRequest(body === null ? null : new TextEncoder().encode(JSON.stringify(body)), new URLSearchParams(query));

  it("fills defaults and keeps the query exactly as sent", () => {
    // Nothing filtered or excluded, default prices, 10 suggestions: the plain request eval and benches build.
    expect(parse({ query: "  Drill " })).toEqual(quickViewRequest("  Drill ", 10));
  });

  it("reads the body first and the query string second", () => {
    expect(parse(null, "query=saw&limit=3&country_code=gb&format=pretty")).toMatchObject({
      query: "saw",
      limit: 3,
      countryCode: "GB",
      pretty: true,
    });
    expect(parse({ query: "drill", limit: 7 }, "query=saw&limit=3")).toMatchObject({ query: "drill", limit: 7 });
    expect(
      parse({
        query: "x",
        filters: { collections: ["12", 13] },
        exclude: { productIds: [5], collections: [{ collectionId: 9, hideProducts: true }] },
      }),
    ).toMatchObject({
      collectionIds: [12, 13],
      excludeProductIds: [5],
      excludeCollections: [{ collectionId: 9, hideProducts: true }],
    });
  });

  it("names the field of a bad request", () => {
    const problem = (body: unknown) => {
      try {
        parse(body);
        return "accepted";
      } catch (error) {
        expect(error).toBeInstanceOf(BadSearchRequest);
        return (error as Error).message;
      }
    };
    expect(problem({ query: "x", limit: 2.5 })).toMatch(/limit/);
    expect(problem({ query: "x", exclude: { productIds: [0] } })).toBe("exclude.productIds[0] must be an id");
    expect(problem({ query: "x", filters: [] })).toBe("filters must be an object");
    expect(problem({ query: "x", exclude: { collections: {} } })).toBe("exclude.collections must be an array");
  });
});
