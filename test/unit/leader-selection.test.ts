import { describe, expect, it } from "vitest";
import { LeaderSelection } from "../../src/core/search/leaders.js";

describe("LeaderSelection", () => {
  it("keeps the best postings offered (ties: the lower doc), handed out in doc order", () => {
    let state = 11;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const offered = Array.from({ length: 500 }, (_, i) => ({ doc: (i * 7919) % 1_000, score: Math.floor(next() * 40) }));
    const selection = new LeaderSelection(32);
    for (const { doc, score } of offered) selection.offer(doc, doc + 1, doc % 3, score);

    const expected = [...offered].sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, 32);
    const block = selection.take();
    expect(block.count).toBe(32);
    expect([...block.docs]).toEqual(expected.map(({ doc }) => doc).sort((a, b) => a - b));
    expect([...block.lengths]).toEqual([...block.docs].map((doc) => doc + 1));
    expect([...block.marks]).toEqual([...block.docs].map((doc) => doc % 3));
  });

  it("hands out everything offered when fewer than its capacity", () => {
    const selection = new LeaderSelection(8);
    for (const doc of [5, 1, 3]) selection.offer(doc, 1, 0, -doc);
    expect([...selection.take().docs]).toEqual([1, 3, 5]);
  });
});
