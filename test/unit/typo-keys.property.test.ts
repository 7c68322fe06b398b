import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedEditDistance } from "../../src/core/search/edits.js";
import { termTypoKeys, wordTypoKeys } from "../../src/core/search/typo-keys.js";

// Typo candidates come from shared deletion keys: every term a word's typo
// budget reaches (same first letter, within the budget's edits) must share a
// key with it. Terms are words edited once or twice after their first letter,
// over a few letters, so that edits also land on repeated letters.

const textArb = (minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom("a", "b", "c", "d"), { minLength, maxLength }).map((letters) => letters.join(""));

describe("typo keys", () => {
  it("are shared by every term within a word's edit budget that starts with its letter", () => {
    fc.assert(
      fc.property(
        // A word forgiven two edits is the stem of one of 8 letters or more: 6 at least.
        fc.oneof(
          textArb(1, 12).map((word) => ({ word, maxEdits: 1 })),
          textArb(6, 12).map((word) => ({ word, maxEdits: 2 })),
        ),
        fc.array(fc.tuple(fc.constantFrom("insert", "delete", "substitute", "swap"), fc.nat(), fc.constantFrom("a", "b", "c", "d")), {
          minLength: 1,
          maxLength: 2,
        }),
        ({ word, maxEdits }, edits) => {
          // The term: the word with its first letter kept and up to two edits after it.
          let term = word;
          for (const [kind, at, letter] of edits.slice(0, maxEdits)) {
            const i = 1 + (at % Math.max(1, term.length));
            if (kind === "insert") term = term.slice(0, i) + letter + term.slice(i);
            else if (kind === "delete" && i < term.length) term = term.slice(0, i) + term.slice(i + 1);
            else if (kind === "substitute" && i < term.length) term = term.slice(0, i) + letter + term.slice(i + 1);
            else if (kind === "swap" && i + 1 < term.length) term = term.slice(0, i) + term[i + 1] + term[i] + term.slice(i + 2);
          }
          fc.pre(term !== word && boundedEditDistance(word, term, maxEdits) <= maxEdits);
          const keys = new Set(termTypoKeys(term));
          expect(wordTypoKeys(word, maxEdits).some((key) => keys.has(key))).toBe(true);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it("file nothing too long for the edit distance to match but exactly", () => {
    expect(termTypoKeys("a".repeat(63))).toEqual([]);
    expect(wordTypoKeys("a".repeat(63), 2)).toEqual([]);
    expect(boundedEditDistance("a".repeat(63), `${"a".repeat(62)}b`, 2)).toBe(3);
  });
});
