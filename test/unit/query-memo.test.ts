import { describe, expect, it } from "vitest";
import { QueryMemo } from "../../src/http/query-memo.js";

describe("QueryMemo", () => {
  it("derives a query text once, and answers the same value for it after", () => {
    const derived: string[] = [];
    const memo = new QueryMemo((text) => {
      derived.push(text);
      return { ids: text.split(",") };
    });
    const first = memo.get("1,2");
    expect(memo.get("1,2")).toBe(first);
    expect(memo.get("3")).toEqual({ ids: ["3"] });
    expect(derived).toEqual(["1,2", "3"]);
  });

  it("keeps nothing of a query that fails to derive: it fails again", () => {
    let calls = 0;
    const memo = new QueryMemo((text) => {
      calls++;
      throw new Error(`bad ${text}`);
    });
    expect(() => memo.get("x")).toThrow("bad x");
    expect(() => memo.get("x")).toThrow("bad x");
    expect(calls).toBe(2);
    expect(memo.size).toBe(0);
  });

  it("freezes what it shares, lists inside included, so no request can change it for the next", () => {
    const memo = new QueryMemo((text) => ({ ids: [text], lines: [{ id: text }] }));
    const shared = memo.get("7");
    expect(() => shared.ids.push("8")).toThrow(TypeError);
    expect(() => {
      shared.lines[0]!.id = "9";
    }).toThrow(TypeError);
    expect(memo.get("7")).toEqual({ ids: ["7"], lines: [{ id: "7" }] });
  });

  it("stays bounded under a flood of distinct queries, dropping the oldest first", () => {
    const memo = new QueryMemo((text) => text.length);
    for (let i = 0; i < 10_000; i++) memo.get(`q${i}`);
    expect(memo.size).toBe(2_048);
    let rederived = 0;
    const counting = new QueryMemo((text) => {
      rederived++;
      return text;
    });
    for (let i = 0; i < 2_049; i++) counting.get(`q${i}`);
    rederived = 0;
    counting.get("q2048");
    counting.get("q0");
    expect(rederived).toBe(1);
  });
});
