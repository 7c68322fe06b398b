import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendEncoded, concatEncoded, decodeHistory, encodeHistory } from "../../src/core/recs/history-codec.js";
import { appendToHistory, type History } from "../../src/core/recs/history.js";
import type { BehaviourEvent } from "../../src/core/types.js";

const VERBS = ["viewed", "added", "removed"] as const;

const histories = fc
  .array(
    fc.record({
      product: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      verb: fc.constantFrom(...VERBS),
      at: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    }),
    { maxLength: 200, size: "max" },
  )
  .map((entries): History => ({
    products: entries.map((e) => e.product),
    verbs: entries.map((e) => e.verb),
    ats: entries.map((e) => e.at),
  }));

describe("history codec", () => {
  it("decodes what it encodes, for any history up to the kept length", () => {
    fc.assert(
      fc.property(histories, (history) => {
        expect(decodeHistory(encodeHistory(history))).toEqual(history);
      }),
    );
  });

  it("appends to an encoded history exactly as appendToHistory does to a decoded one, trimming to the kept length", () => {
    const event = fc.record({
      product_id: fc.integer({ min: 1, max: 10_000 }),
      verb: fc.constantFrom(...VERBS),
      at: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    });
    fc.assert(
      fc.property(histories, fc.array(event, { maxLength: 60 }), (history, added) => {
        const events = added.map((e): BehaviourEvent => ({ ...e, uuid: null, customer_id: 1, theme_id: null }));
        const expected = structuredClone(history);
        for (const e of events) appendToHistory(expected, e);
        const stored = history.products.length === 0 ? undefined : encodeHistory(history);
        expect(decodeHistory(appendEncoded(stored, events))).toEqual(expected);
      }),
    );
  });

  it("joins two encoded histories, keeping the last entries up to the limit", () => {
    fc.assert(
      fc.property(histories, histories, fc.integer({ min: 1, max: 250 }), (older, newer, limit) => {
        const joined = decodeHistory(
          concatEncoded(older.products.length === 0 ? undefined : encodeHistory(older), encodeHistory(newer), limit),
        );
        const keep = <T>(a: T[], b: T[]) => [...a, ...b].slice(-limit);
        expect(joined).toEqual({
          products: keep(older.products, newer.products),
          verbs: keep(older.verbs, newer.verbs),
          ats: keep(older.ats, newer.ats),
        });
      }),
    );
  });

  it("reads a history from a view into a larger buffer (as lmdb's getBinaryFast gives it)", () => {
    const history: History = { products: [2 ** 53 - 1, 5], verbs: ["added", "viewed"], ats: [1_700_000_000_000, 1_700_000_000_001] };
    const bytes = encodeHistory(history);
    const larger = new Uint8Array(bytes.length + 9);
    larger.set(bytes, 5);
    expect(decodeHistory(larger.subarray(5, 5 + bytes.length))).toEqual(history);
  });

  it("refuses bytes that are not whole entries or carry an unknown verb", () => {
    const bytes = encodeHistory({ products: [1], verbs: ["viewed"], ats: [1] });
    expect(() => decodeHistory(bytes.subarray(0, bytes.length - 1))).toThrow(/whole number/);
    const corrupt = bytes.slice();
    corrupt[bytes.length - 1] = 9;
    expect(() => decodeHistory(corrupt)).toThrow(/unknown verb/);
  });
});
