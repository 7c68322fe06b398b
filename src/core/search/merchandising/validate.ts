// Validation of search settings as the admin API and `aisle import` take them:
// the first problem is an InvalidInput naming its place from the top of the
// body, `keyword_groups[1].queries[0]`, unknown fields are refused (a
// misspelt `promote_mod` would otherwise be ignored without a word), and
// settings that fail are never written. Products and collections the shop
// does not have are valid (they may come later): see settingsWarnings.
import { InvalidInput, isPlainObject, onlyKnown, parseId, type Fields } from "../../ingest/fields.js";
import { MAX_TEXT_VALUE, type CatalogueLookup } from "../../sources/validate.js";
import { MAX_QUERY_LENGTH } from "../request.js";
import { words } from "../text.js";
import {
  MATCH_MODES,
  PROMOTE_MODES,
  SETTINGS_LIMITS as LIMITS,
  SYNONYM_TYPES,
  type KeywordGroup,
  type SearchSettings,
  type Synonym,
} from "./settings.js";

const SETTINGS_FIELDS = ["keyword_groups", "excluded_terms", "excluded_products", "excluded_collections", "excluded_tags", "synonyms"];
const GROUP_FIELDS = ["id", "queries", "match", "promoted", "promote_mode", "redirect", "hidden"];
const MAX_GROUP_ID = 64;

/** An array at `path` (absent: empty), at most `max` long; `least`: at least so many values. */
function listAt(value: unknown, path: string, max: number, least = 0): unknown[] {
  if (value === undefined || value === null) {
    if (least > 0) throw new InvalidInput(path, "is required");
    return [];
  }
  if (!Array.isArray(value)) throw new InvalidInput(path, "must be an array");
  if (value.length > max) throw new InvalidInput(path, `must have at most ${max} values`);
  if (value.length < least) throw new InvalidInput(path, `must have at least ${least} value${least === 1 ? "" : "s"}`);
  return value;
}

function idsAt(value: unknown, path: string, max: number): number[] {
  return listAt(value, path, max).map((item, index) => {
    const id = parseId(item);
    if (id === null) throw new InvalidInput(`${path}[${index}]`, "must be a positive integer id");
    return id;
  });
}

/** Words to match a query by: trimmed, as long as a query may be, holding at least one word the search reads. */
function phraseAt(value: unknown, path: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new InvalidInput(path, "must be a non-empty string");
  if (value.length > MAX_QUERY_LENGTH) throw new InvalidInput(path, `must be at most ${MAX_QUERY_LENGTH} characters`);
  if (words(value).length === 0) throw new InvalidInput(path, "has no letters or digits to match a query by");
  return value.trim();
}

function phrasesAt(value: unknown, path: string, max: number, least = 0): string[] {
  return listAt(value, path, max, least).map((item, index) => phraseAt(item, `${path}[${index}]`));
}

/** Tags compare as custom sources compare them: trimmed, without case. */
function tagsAt(value: unknown, path: string): string[] {
  return listAt(value, path, LIMITS.excluded).map((item, index) => {
    if (typeof item !== "string" || item.trim() === "") throw new InvalidInput(`${path}[${index}]`, "must be a non-empty string");
    if (item.length > MAX_TEXT_VALUE) throw new InvalidInput(`${path}[${index}]`, `must be at most ${MAX_TEXT_VALUE} characters`);
    return item.trim().toLowerCase();
  });
}

function choice<T extends string>(fields: Fields, name: string, allowed: readonly T[], fallback: T): T {
  const value = fields.raw(name);
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value))
    fields.fail(name, `must be one of ${allowed.join(", ")}`);
  return value as T;
}

/** An absolute http(s) address, or a path on the shop's own storefront ("/collections/sale"). */
function redirectAt(fields: Fields): string | null {
  const value = fields.raw("redirect");
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || value.trim() === "") fields.fail("redirect", "must be a non-empty string");
  const url = value.trim();
  if (url.length > LIMITS.redirectLength) fields.fail("redirect", `must be at most ${LIMITS.redirectLength} characters`);
  // A search box puts it in location.href as it is: nothing a browser would read another way.
  if (/[\s\p{Cc}]/u.test(url)) fields.fail("redirect", "must not contain spaces or control characters");
  if (url.startsWith("/") && !url.startsWith("//")) return url;
  let protocol: string | null = null;
  try {
    protocol = new URL(url).protocol;
  } catch {
    // Not an absolute address: refused below.
  }
  if (protocol !== "http:" && protocol !== "https:")
    fields.fail("redirect", "must be an http or https address, or a path on the storefront starting with /");
  return url;
}

function keywordGroup(value: unknown, path: string): KeywordGroup {
  const fields = onlyKnown(value, path, GROUP_FIELDS);
  return {
    id: fields.nonEmptyString("id", MAX_GROUP_ID),
    queries: phrasesAt(fields.raw("queries"), fields.at("queries"), LIMITS.queriesPerGroup, 1),
    match: choice(fields, "match", MATCH_MODES, "exact"),
    promoted: idsAt(fields.raw("promoted"), fields.at("promoted"), LIMITS.productsPerGroup),
    promote_mode: choice(fields, "promote_mode", PROMOTE_MODES, "pin"),
    redirect: redirectAt(fields),
    hidden: idsAt(fields.raw("hidden"), fields.at("hidden"), LIMITS.productsPerGroup),
  };
}

function synonym(value: unknown, path: string): Synonym {
  if (!isPlainObject(value)) throw new InvalidInput(path, "must be a JSON object");
  const type = value.type;
  if (typeof type !== "string" || !(SYNONYM_TYPES as readonly string[]).includes(type))
    throw new InvalidInput(`${path}.type`, `must be one of ${SYNONYM_TYPES.join(", ")}`);
  if (type === "one_way") {
    const fields = onlyKnown(value, path, ["type", "root", "synonyms"]);
    return {
      type,
      root: phraseAt(fields.raw("root"), fields.at("root")),
      synonyms: phrasesAt(fields.raw("synonyms"), fields.at("synonyms"), LIMITS.synonymsPerRule, 1),
    };
  }
  const fields = onlyKnown(value, path, ["type", "synonyms"]);
  return { type: "two_way", synonyms: phrasesAt(fields.raw("synonyms"), fields.at("synonyms"), LIMITS.synonymsPerRule, 2) };
}

/** Search settings from untrusted JSON, in their stored form (texts trimmed, tags lower case, defaults filled in). */
export function validateSearchSettings(value: unknown): SearchSettings {
  if (!isPlainObject(value)) throw new InvalidInput("settings", "must be a JSON object");
  for (const name of Object.keys(value)) {
    if (!SETTINGS_FIELDS.includes(name))
      throw new InvalidInput(name, `is not a field of search settings (fields: ${SETTINGS_FIELDS.join(", ")})`);
  }
  const keywordGroups = listAt(value.keyword_groups, "keyword_groups", LIMITS.keywordGroups).map((item, index) =>
    keywordGroup(item, `keyword_groups[${index}]`),
  );
  const firstWithId = new Map<string, number>();
  keywordGroups.forEach((group, index) => {
    const first = firstWithId.get(group.id);
    if (first !== undefined) throw new InvalidInput(`keyword_groups[${index}].id`, `repeats the id of keyword_groups[${first}]`);
    firstWithId.set(group.id, index);
  });
  return {
    keyword_groups: keywordGroups,
    excluded_terms: phrasesAt(value.excluded_terms, "excluded_terms", LIMITS.excluded),
    excluded_products: idsAt(value.excluded_products, "excluded_products", LIMITS.excluded),
    excluded_collections: idsAt(value.excluded_collections, "excluded_collections", LIMITS.excluded),
    excluded_tags: tagsAt(value.excluded_tags, "excluded_tags"),
    synonyms: listAt(value.synonyms, "synonyms", LIMITS.synonymRules).map((item, index) => synonym(item, `synonyms[${index}]`)),
  };
}

/** The products and collections the settings name that the shop lacks, one line each: `keyword_groups[0].promoted[1]: no product 7100000099999`. */
export function settingsWarnings(settings: SearchSettings, has: CatalogueLookup): string[] {
  const warnings: string[] = [];
  const check = (path: string, kind: keyof CatalogueLookup, ids: readonly number[]) =>
    ids.forEach((id, index) => {
      if (!has[kind](id)) warnings.push(`${path}[${index}]: no ${kind} ${id}`);
    });
  settings.keyword_groups.forEach((group, index) => {
    check(`keyword_groups[${index}].promoted`, "product", group.promoted);
    check(`keyword_groups[${index}].hidden`, "product", group.hidden);
  });
  check("excluded_products", "product", settings.excluded_products);
  check("excluded_collections", "collection", settings.excluded_collections);
  return warnings;
}
