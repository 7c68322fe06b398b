// A merchant's search merchandising for quick-view search: keyword groups
// (promoted products, a redirect, hidden products for some queries), global
// exclusions, and synonyms. This is the stored form: validation
// (validate.ts) fills every default, and compile.ts turns it into what a
// worker matches queries against.

export const MATCH_MODES = ["exact", "prefix"] as const;
export type MatchMode = (typeof MATCH_MODES)[number];

export const PROMOTE_MODES = ["pin", "boost"] as const;
export type PromoteMode = (typeof PROMOTE_MODES)[number];

export interface KeywordGroup {
  id: string;
  /** Matched on the normalised query: equal to one of them ("exact"), or starting with one ("prefix"). */
  queries: string[];
  match: MatchMode;
  /** "pin": first, in this order; "boost": ranked higher, when they match the query. */
  promoted: number[];
  promote_mode: PromoteMode;
  /** Where a search box may jump instead (data.redirect); null: none. */
  redirect: string | null;
  /** Never shown for these queries. */
  hidden: number[];
}

/** A query for the root also finds its synonyms; not the other way. */
export interface OneWaySynonym {
  type: "one_way";
  root: string;
  synonyms: string[];
}

/** Each word finds every other. */
export interface TwoWaySynonym {
  type: "two_way";
  synonyms: string[];
}

export type Synonym = OneWaySynonym | TwoWaySynonym;
export const SYNONYM_TYPES = ["one_way", "two_way"] as const;

export interface SearchSettings {
  keyword_groups: KeywordGroup[];
  /** A query holding one of these (as whole words) answers nothing. */
  excluded_terms: string[];
  /** Never in any answer, for any query. */
  excluded_products: number[];
  /** Neither suggested nor any of their products shown. */
  excluded_collections: number[];
  /** Products with any of these tags (lower case) are never shown. */
  excluded_tags: string[];
  synonyms: Synonym[];
}

/** What a merchant has before writing any (and after a reset): search answers as if merchandising did not exist. */
export function noSearchSettings(): SearchSettings {
  return { keyword_groups: [], excluded_terms: [], excluded_products: [], excluded_collections: [], excluded_tags: [], synonyms: [] };
}

/** The settings as stored, with the merchant's settings version they were written at (0: never written). */
export interface StoredSearchSettings {
  settings: SearchSettings;
  version: number;
}

/**
 * Bounds on one record: far above what a shop curates by hand, low enough that
 * the record stays a few hundred KB, compiles in a few milliseconds, and a
 * misspelt word is compared with at most a few thousand synonym keys.
 */
export const SETTINGS_LIMITS = {
  keywordGroups: 1_000,
  queriesPerGroup: 100,
  productsPerGroup: 250,
  excluded: 5_000,
  synonymRules: 1_000,
  synonymsPerRule: 20,
  redirectLength: 2_048,
} as const;
