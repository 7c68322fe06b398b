import { describe, expect, it } from "vitest";
import { parseQuery } from "../../src/core/params/query.js";
import { QueryMemo } from "../../src/http/query-memo.js";

/** A memo that counts its derivations, as a route would use it: derived, then kept. */
function countingMemo(weigh?: (text: string) => number) {
  const derived: string[] = [];
  const memo = new QueryMemo((query) => {
    const text = query.get("q") ?? "";
    derived.push(text);
    return { ids: text.split(","), lines: [{ id: text }] };
  }, weigh);
  const ask = (text: string) => {
    const query = memo.get(`q=${text}`, parseQuery(`q=${text}`));
    if (!query.known) memo.keep(`q=${text}`, query.value);
    return query;
  };
  return { memo, derived, ask };
}

describe("QueryMemo", () => {
  it("derives a kept query text once, and answers the same value for it after", () => {
    const { derived, ask } = countingMemo();
    const first = ask("1,2");
    expect(first.known).toBe(false);
    const again = ask("1,2");
    expect(again).toEqual({ value: first.value, known: true });
    expect(again.value).toBe(first.value);
    expect(ask("3").value.ids).toEqual(["3"]);
    expect(derived).toEqual(["1,2", "3"]);
  });

  it("keeps only what it is told to keep", () => {
    const { memo, derived } = countingMemo();
    memo.get("q=1", parseQuery("q=1"));
    expect(memo.get("q=1", parseQuery("q=1")).known).toBe(false);
    expect(derived).toEqual(["1", "1"]);
    expect(memo.size).toBe(0);
  });

  it("keeps nothing of a query that fails to derive: it fails again", () => {
    let calls = 0;
    const memo = new QueryMemo((query) => {
      calls++;
      throw new Error(`bad ${query.get("q")}`);
    });
    expect(() => memo.get("q=x", parseQuery("q=x"))).toThrow("bad x");
    expect(() => memo.get("q=x", parseQuery("q=x"))).toThrow("bad x");
    expect(calls).toBe(2);
    expect(memo.size).toBe(0);
  });

  it("freezes what it derives, lists and their objects included, so no request can change it for the next", () => {
    const { ask } = countingMemo();
    const shared = ask("7").value;
    expect(() => shared.ids.push("8")).toThrow(TypeError);
    expect(() => {
      shared.lines[0]!.id = "9";
    }).toThrow(TypeError);
    expect(ask("7").value).toEqual({ ids: ["7"], lines: [{ id: "7" }] });
  });

  it("stays within its bytes under a flood of distinct queries, dropping the oldest first", () => {
    const { memo, ask } = countingMemo(() => 10_000);
    for (let i = 0; i < 10_000; i++) ask(`q${i}`);
    expect(memo.totalBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(memo.size).toBe(Math.floor((1024 * 1024) / 10_300));
    expect(ask("q9999").known).toBe(true);
    expect(ask("q0").known).toBe(false);
  });

  it("does not keep a query too long to be worth its room", () => {
    const { memo, ask } = countingMemo();
    ask("1,".repeat(2_000));
    expect(memo.size).toBe(0);
    ask("1,2");
    expect(memo.size).toBe(1);
  });
});
