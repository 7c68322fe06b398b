import { describe, expect, it } from "vitest";
import { STATIC_PRODUCTS } from "../../src/core/api/endpoints.js";
import { P } from "../../src/core/params/definitions.js";
import { canonicalParams, parseParams } from "../../src/core/params/parse.js";

const parse = (query: string) => parseParams(STATIC_PRODUCTS.params, new URLSearchParams(query));

describe("parseParams", () => {
  it("applies defaults and types every value", () => {
    const result = parse("key=k&ids=3,1,3&handles=a-b,c&metafields=yes&filter_oos=no&country_code=gb&format=pretty");
    expect(result).toEqual({
      ok: true,
      params: {
        key: "k",
        ids: [3, 1],
        handles: ["a-b", "c"],
        metafields: true,
        filter_oos: false,
        limit: 5,
        country_code: "GB",
        format: true,
      },
    });
  });

  it("names the parameter and the bad value", () => {
    expect(parse("key=k&ids=1,x")).toEqual({ ok: false, message: 'Invalid ids: "x" is not an id' });
    expect(parse("key=k&limit=51")).toEqual({ ok: false, message: "Invalid limit: must be a whole number from 1 to 50" });
    expect(parse("key=k&filter_oos=maybe")).toEqual({ ok: false, message: "Invalid filter_oos: allowed values are yes and no" });
    expect(parse("ids=1")).toEqual({ ok: false, message: "Missing required endpoint arg: key" });
    expect(parse(`key=k&ids=${Array.from({ length: 251 }, (_, i) => i + 1).join(",")}`)).toMatchObject({ ok: false });
  });

  it("ignores unknown parameters and treats empty values as absent", () => {
    expect(parse("key=k&_=12345&limit=&ids=")).toEqual({ ok: true, params: { key: "k", limit: 5, filter_oos: true } });
  });

  it("parses decimals to cents", () => {
    const def = { ...P.limit, name: "price", kind: "decimal" as const, default: null };
    expect(parseParams([def], new URLSearchParams("price=19.9"))).toEqual({ ok: true, params: { price: 1990 } });
    expect(parseParams([def], new URLSearchParams("price=1e3"))).toMatchObject({ ok: false });
  });

  it("gives requests that mean the same thing one canonical form", () => {
    const a = parse("key=k1&ids=1,2&limit=5&bust_cache=yes");
    const b = parse("ids=1,2&key=k2");
    if (!a.ok || !b.ok) throw new Error("parse failed");
    const canonical = (params: typeof a.params) => canonicalParams(STATIC_PRODUCTS.params, params);
    expect(canonical(a.params)).toBe(canonical(b.params));
    expect(canonical(a.params)).toBe("filter_oos=true&ids=1,2&limit=5");
    // Sorted by name, each parameter once, whatever order the query gave them in.
    const c = parse("limit=5&ids=1,2&country_code=ca&metafield_ns=reviews&key=k");
    if (!c.ok) throw new Error("parse failed");
    expect(canonical(c.params)).toBe("country_code=CA&filter_oos=true&ids=1,2&limit=5&metafield_ns=reviews");
  });

  it("accepts presentment_prices as the deprecated spelling of country_code; country_code wins when both come", () => {
    expect(parse("key=k&ids=1&presentment_prices=ca")).toMatchObject({ ok: true, params: { country_code: "CA" } });
    expect(parse("key=k&ids=1&presentment_prices=ca&country_code=GB")).toMatchObject({ ok: true, params: { country_code: "GB" } });
    expect(parse("key=k&ids=1&presentment_prices=canada")).toMatchObject({ ok: false });
  });
});
