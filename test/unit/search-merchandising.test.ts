// Search merchandising's pure parts: synonym expansion in the query plan (with
// typos, stemming and completion), keyword groups and excluded terms matched on
// the normalised query, and validation naming the field.
import { describe, expect, it } from "vitest";
import { InvalidInput } from "../../src/core/ingest/fields.js";
import { compileSearchSettings } from "../../src/core/search/merchandising/compile.js";
import { noSearchSettings, type SearchSettings } from "../../src/core/search/merchandising/settings.js";
import { compileSynonyms, SYNONYM_WEIGHT, type SynonymTable } from "../../src/core/search/merchandising/synonyms.js";
import { validateSearchSettings } from "../../src/core/search/merchandising/validate.js";
import { boundedEditDistance } from "../../src/core/search/edits.js";
import type { TermStats } from "../../src/core/search/index-view.js";
import { DEFAULT_RANKING, planQuery, type QueryPlan } from "../../src/core/search/query-plan.js";

/** A catalogue's vocabulary as the planner reads it: each term with its document frequency. */
function vocabulary(dfs: Record<string, number>): TermStats {
  const terms = Object.keys(dfs);
  return {
    size: 1_000,
    df: (term) => dfs[term] ?? 0,
    completions: (prefix, max) =>
      terms
        .filter((term) => term !== prefix && term.startsWith(prefix))
        .sort((a, b) => dfs[b]! - dfs[a]! || a.localeCompare(b))
        .slice(0, max),
    nearTerms: (word, maxEdits) =>
      terms
        .filter((term) => term !== word && term[0] === word[0])
        .map((term) => ({ term, edits: boundedEditDistance(word, term, maxEdits) }))
        .filter(({ edits }) => edits <= maxEdits),
  };
}

// Sofas are titled "sofa" and tops "t-shirt" or "tee"; nothing is called a couch.
const SHOP = vocabulary({ sofa: 20, t: 30, shirt: 12, tee: 8, table: 15, coffee: 10, linen: 5, settee: 2 });

/** Each slot's alternatives as term → weight. */
const weights = (plan: QueryPlan) =>
  plan.slots.map((slot) => Object.fromEntries(slot.alternatives.map(({ term, weight }) => [term, weight])));

const table = (...rules: SearchSettings["synonyms"]): SynonymTable => compileSynonyms(rules)!;
const couch = table({ type: "two_way", synonyms: ["sofa", "couch", "settee"] });
const { typoWeight } = DEFAULT_RANKING;

describe("synonym expansion in the query plan", () => {
  it("leaves a plan as it was without synonyms, and with synonyms none of whose keys the query holds", () => {
    for (const query of ["sofa", "linen sof", "cofee table ", "t-shirt"])
      expect(planQuery(SHOP, query, DEFAULT_RANKING, null)).toEqual(planQuery(SHOP, query));
    for (const query of ["linen", "cofee table ", "t-shirt"])
      expect(planQuery(SHOP, query, DEFAULT_RANKING, couch)).toEqual(planQuery(SHOP, query));
    expect(compileSynonyms([])).toBeNull();
  });

  it("offers a word's synonyms in its own slot, a little below the word, sharing its idf", () => {
    const plan = planQuery(SHOP, "couch ", DEFAULT_RANKING, couch);
    expect(plan.slots).toHaveLength(1);
    // "couch" is in no product: its synonyms stand for it, found by their own dfs.
    expect(weights(plan)).toEqual([{ sofa: SYNONYM_WEIGHT, settee: SYNONYM_WEIGHT }]);
    const both = planQuery(SHOP, "sofa ", DEFAULT_RANKING, couch);
    expect(weights(both)).toEqual([{ sofa: 1, settee: SYNONYM_WEIGHT }]);
    // One slot's mass is its alternatives' dfs together: a word with synonyms weighs less per product, not more.
    expect(both.slots[0]!.idf).toBeLessThan(planQuery(SHOP, "sofa ").slots[0]!.idf);
  });

  it("expands a typo of a key, a stemmed form of it and the word being typed", () => {
    expect(weights(planQuery(SHOP, "cuoch ", DEFAULT_RANKING, couch))[0]).toMatchObject({ sofa: typoWeight * SYNONYM_WEIGHT });
    expect(weights(planQuery(SHOP, "couches ", DEFAULT_RANKING, couch))[0]).toMatchObject({ sofa: SYNONYM_WEIGHT });
    expect(weights(planQuery(SHOP, "cou", DEFAULT_RANKING, couch))[0]).toMatchObject({ sofa: typoWeight * SYNONYM_WEIGHT });
    // Completion is for the word being typed: not once it is finished, nor from a prefix too short to guess.
    expect(weights(planQuery(SHOP, "cou ", DEFAULT_RANKING, couch))[0]).not.toHaveProperty("sofa");
    expect(weights(planQuery(SHOP, "co", DEFAULT_RANKING, couch))[0]).not.toHaveProperty("sofa");
    // A misspelt word the index corrects expands through the correction: "sofs" → "sofa" → "settee".
    expect(weights(planQuery(SHOP, "sofs ", DEFAULT_RANKING, couch))[0]).toMatchObject({
      sofa: typoWeight,
      settee: typoWeight * SYNONYM_WEIGHT,
    });
  });

  it("keeps the index's own completions of the word being typed beside the synonyms", () => {
    const tees = table({ type: "two_way", synonyms: ["tee", "shirt"] });
    const plan = weights(planQuery(SHOP, "linen t", DEFAULT_RANKING, tees));
    expect(plan[1]).toMatchObject({ t: 1, tee: expect.any(Number), table: expect.any(Number) });
    expect(plan[1]!.shirt).toBeCloseTo(plan[1]!.tee! * SYNONYM_WEIGHT);
  });

  it("expands one way only, a phrase through its rarest word, and a phrase root in each of its slots", () => {
    const tee = table({ type: "one_way", root: "tee", synonyms: ["T-Shirt"] });
    expect(weights(planQuery(SHOP, "tee ", DEFAULT_RANKING, tee))).toEqual([{ tee: 1, shirt: SYNONYM_WEIGHT }]);
    expect(weights(planQuery(SHOP, "shirt ", DEFAULT_RANKING, tee))).toEqual([{ shirt: 1 }]);
    const phrase = table({ type: "one_way", root: "t-shirt", synonyms: ["tee"] });
    expect(weights(planQuery(SHOP, "t-shirt ", DEFAULT_RANKING, phrase))).toEqual([
      { t: 1, tee: SYNONYM_WEIGHT },
      { shirt: 1, tee: SYNONYM_WEIGHT },
    ]);
    // A phrase one of whose words no product holds stands for nothing.
    const absent = table({ type: "one_way", root: "tee", synonyms: ["tank top"] });
    expect(weights(planQuery(SHOP, "tee ", DEFAULT_RANKING, absent))).toEqual([{ tee: 1 }]);
  });
});

describe("keyword groups and excluded terms", () => {
  const settings: SearchSettings = {
    ...noSearchSettings(),
    keyword_groups: [
      { id: "sale", queries: ["Sale"], match: "exact", promoted: [1, 2], promote_mode: "pin", redirect: "/sale", hidden: [2] },
      { id: "gifts", queries: ["gift"], match: "prefix", promoted: [3], promote_mode: "boost", redirect: "/gifts", hidden: [] },
      { id: "gift-pins", queries: ["gift"], match: "exact", promoted: [4, 1], promote_mode: "pin", redirect: null, hidden: [] },
    ],
    excluded_terms: ["Pocket Knife", "gun"],
  };
  const compiled = compileSearchSettings(settings)!;

  it("matches exactly or by prefix on the normalised query, first group's redirect first", () => {
    expect(compiled.rulesFor(" SALE ")).toMatchObject({ pinned: [1], redirect: "/sale" });
    expect(compiled.rulesFor("sales").redirect).toBeNull();
    const gift = compiled.rulesFor("Gift");
    expect(gift).toMatchObject({ pinned: [4, 1], redirect: "/gifts" });
    expect([...gift.boosted]).toEqual([3]);
    expect(compiled.rulesFor("gift wrap")).toMatchObject({ pinned: [], redirect: "/gifts" });
    expect(compiled.rulesFor("gif").key).toBe("");
  });

  it("answers nothing to a query holding an excluded term as whole words, stemmed", () => {
    for (const query of ["Pocket  KNIFE", "red pocket knife set", "guns"]) expect(compiled.rulesFor(query).blocked, query).toBe(true);
    for (const query of ["knife pocket", "pocket", "gunmetal"]) expect(compiled.rulesFor(query).blocked, query).toBe(false);
  });

  it("compiles settings that set nothing to nothing", () => {
    expect(compileSearchSettings(noSearchSettings())).toBeNull();
  });
});

describe("search settings validation", () => {
  const failure = (value: unknown) => {
    try {
      validateSearchSettings(value);
    } catch (error) {
      if (error instanceof InvalidInput) return error.message;
      throw error;
    }
    return null;
  };

  it("names the field of the first problem, from the top of the body", () => {
    expect(
      failure({
        keyword_groups: [
          { id: "a", queries: ["x"] },
          { id: "b", queries: ["ok", " "] },
        ],
      }),
    ).toBe("keyword_groups[1].queries[1]: must be a non-empty string");
    expect(failure({ keyword_groups: [{ id: "a", queries: [] }] })).toBe("keyword_groups[0].queries: must have at least 1 value");
    expect(failure({ synonyms: [{ type: "two_way", synonyms: ["a", "b"], root: "c" }] })).toMatch(/^synonyms\[0\]\.root: is not a field/);
    expect(failure({ keyword_groups: [{ id: "a", queries: ["x"], redirect: "//evil.example" }] })).toMatch(
      /^keyword_groups\[0\]\.redirect: /,
    );
    expect(failure({ excluded_collections: "90" })).toBe("excluded_collections: must be an array");
  });

  it("fills defaults, trims texts and lower-cases tags", () => {
    expect(
      validateSearchSettings({
        keyword_groups: [{ id: "a", queries: [" Sale "], redirect: "https://shop.example.com/sale" }],
        excluded_tags: [" Clearance "],
      }),
    ).toEqual({
      ...noSearchSettings(),
      keyword_groups: [
        {
          id: "a",
          queries: ["Sale"],
          match: "exact",
          promoted: [],
          promote_mode: "pin",
          redirect: "https://shop.example.com/sale",
          hidden: [],
        },
      ],
      excluded_tags: ["clearance"],
    });
  });
});
