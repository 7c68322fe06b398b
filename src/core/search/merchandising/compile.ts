// Search settings compiled once per version of them: keyword groups looked up
// by normalised query, excluded terms as runs of index terms, the exclusion
// lists as sets, synonyms as the planner's table. What a query asks of them
// (rulesFor) is then a map lookup and a short scan.
import { stem, words } from "../text.js";
import type { SearchSettings } from "./settings.js";
import { compileSynonyms, type SynonymTable } from "./synonyms.js";

/** What the matched keyword groups and excluded terms make of one query. */
export interface QueryRules {
  /** The query holds an excluded term: it answers nothing. */
  blocked: boolean;
  /** Shown first, in this order, when the request may show them. */
  pinned: readonly number[];
  /** Ranked higher, when they match the query. */
  boosted: ReadonlySet<number>;
  /** Never shown for this query. */
  hidden: ReadonlySet<number>;
  redirect: string | null;
  /** The matched groups' positions, for cache keys: queries matching the same groups rank alike. */
  key: string;
}

export interface CompiledSearchSettings {
  rulesFor(query: string): QueryRules;
  readonly excludedProducts: ReadonlySet<number>;
  readonly excludedCollections: ReadonlySet<number>;
  readonly excludedTags: readonly string[];
  readonly synonyms: SynonymTable | null;
}

const NOTHING: ReadonlySet<number> = new Set();
const NO_RULES: QueryRules = { blocked: false, pinned: [], boosted: NOTHING, hidden: NOTHING, redirect: null, key: "" };
const BLOCKED: QueryRules = { ...NO_RULES, blocked: true };

/**
 * The query as keyword groups match it, the way the search reads words: lower
 * case, accents dropped, punctuation and runs of spaces as one space.
 */
function normaliseQuery(query: string): string {
  return words(query).join(" ");
}

/** Whether `run` occurs in `within`, in order and side by side. */
function holdsRun(within: readonly string[], run: readonly string[]): boolean {
  for (let start = 0; start + run.length <= within.length; start++) {
    if (run.every((term, i) => within[start + i] === term)) return true;
  }
  return false;
}

/** The compiled settings; null when they set nothing, so search runs exactly as without merchandising. */
export function compileSearchSettings(settings: SearchSettings): CompiledSearchSettings | null {
  const { keyword_groups: groups, excluded_terms, excluded_products, excluded_collections, excluded_tags, synonyms } = settings;
  const setsNothing =
    groups.length +
      excluded_terms.length +
      excluded_products.length +
      excluded_collections.length +
      excluded_tags.length +
      synonyms.length ===
    0;
  if (setsNothing) return null;

  const exact = new Map<string, number[]>();
  const prefixes: { prefix: string; group: number }[] = [];
  groups.forEach((group, position) => {
    for (const query of new Set(group.queries.map(normaliseQuery))) {
      if (group.match === "prefix") prefixes.push({ prefix: query, group: position });
      else exact.set(query, [...(exact.get(query) ?? []), position]);
    }
  });
  // Stemmed as the query's words are: an excluded "sword" also answers nothing to "swords".
  const excludedRuns = excluded_terms.map((term) => words(term).map(stem));

  const rulesFor = (query: string): QueryRules => {
    const queryTerms = words(query).map(stem);
    if (excludedRuns.some((run) => holdsRun(queryTerms, run))) return BLOCKED;
    const normalised = normaliseQuery(query);
    const matched = new Set(exact.get(normalised));
    for (const { prefix, group } of prefixes) if (normalised.startsWith(prefix)) matched.add(group);
    if (matched.size === 0) return NO_RULES;
    // In the settings' order: the first group's pins come first, its redirect wins.
    const positions = [...matched].sort((a, b) => a - b);
    const hidden = new Set(positions.flatMap((position) => groups[position]!.hidden));
    const promoted = (mode: "pin" | "boost") =>
      positions
        .flatMap((position) => (groups[position]!.promote_mode === mode ? groups[position]!.promoted : []))
        .filter((id) => !hidden.has(id));
    return {
      blocked: false,
      pinned: [...new Set(promoted("pin"))],
      boosted: new Set(promoted("boost")),
      hidden,
      redirect: positions.map((position) => groups[position]!.redirect).find((redirect) => redirect !== null) ?? null,
      key: positions.join(","),
    };
  };

  return {
    rulesFor,
    excludedProducts: new Set(excluded_products),
    excludedCollections: new Set(excluded_collections),
    excludedTags: excluded_tags,
    synonyms: compileSynonyms(synonyms),
  };
}
