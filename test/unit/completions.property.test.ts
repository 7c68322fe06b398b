import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COMPLETION_LIST_LENGTH,
  listedPrefixes,
  topCompletions,
  updatedCompletions,
  type Completion,
} from "../../src/core/search/completions.js";

// A prefix's stored list is patched by every df change of a term under it,
// and read again from the dictionary only when a patch cannot tell. Here
// batches of random df changes (a write changes many terms at once, applied
// in any order) run against a list and a plain map of every term's df: after
// each batch the list must be exactly the map's first terms.

/** More terms than a list holds, so lists fill up and terms fall off their ends. */
const TERMS = Array.from({ length: COMPLETION_LIST_LENGTH + 7 }, (_, i) => `dr${String.fromCharCode(97 + i)}`);

const batchArb = fc.array(fc.tuple(fc.constantFrom(...TERMS), fc.integer({ min: 0, max: 6 })), { minLength: 1, maxLength: 6 });

function expected(dfs: Map<string, number>): Completion[] {
  return topCompletions(
    [...dfs].filter(([, df]) => df > 0).map(([term, df]) => ({ term, df })),
    COMPLETION_LIST_LENGTH,
  );
}

describe("a prefix's completion list", () => {
  it("stays its prefix's first terms through batches of df changes, applied in any order", () => {
    fc.assert(
      fc.property(fc.array(batchArb, { minLength: 1, maxLength: 30 }), (batches) => {
        const dfs = new Map<string, number>();
        let list: readonly Completion[] = [];
        for (const batch of batches) {
          // The dictionary holds the whole batch before any list is patched, as a write's commit has it.
          for (const [term, df] of batch) dfs.set(term, df);
          for (const term of new Set(batch.map(([term]) => term))) list = updatedCompletions(list, term, dfs.get(term)!) ?? expected(dfs);
          expect(list).toEqual(expected(dfs));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("is kept for a term's first one to four characters, never for half a surrogate pair", () => {
    expect(listedPrefixes("drill")).toEqual(["d", "dr", "dri", "dril"]);
    expect(listedPrefixes("in")).toEqual(["i", "in"]);
    expect(listedPrefixes("𠀀ab")).toEqual(["𠀀", "𠀀a", "𠀀ab"]);
  });
});
