import { detached } from "../detached-string.js";
import { parseId } from "../ingest/fields.js";
import { toCents } from "../money.js";
import type { CartLine, KindValues, ParamDef } from "./definitions.js";
import type { QueryParams } from "./query.js";

export const MAX_LIMIT = 50;
export const MAX_LIST_ITEMS = 250;
export const MAX_TEXT = 1_000;
export const MAX_DAYS = 365;
/** A cart parameter's JSON: room for MAX_LIST_ITEMS lines. */
export const MAX_CART_TEXT = 20_000;
export const MAX_QUANTITY = 999_999;

/** What values of the pattern-checked kinds look like (/openapi.json states the same patterns). */
export const PATTERNS = {
  handle: /^[\w-]{1,255}$/u,
  nsKey: /^[^.\s]+\.[^.\s]+$/,
  namespace: /^[^.\s]+$/,
  countryCode: /^[A-Za-z]{2}$/,
} as const;

export type ParamValue = KindValues[keyof KindValues];

/** What a parameter parses to: one of its allowed values, or its kind's value. */
type ValueOf<D extends ParamDef> = D extends { allowed: readonly (infer A)[] } ? A : KindValues[D["kind"]];

/** Required, or with a default: a parsed request always has it. */
type AlwaysPresent<D extends ParamDef> = D extends { required: true } ? true : D extends { default: string } ? true : false;

/**
 * Parsed parameters by name, typed from the endpoint's definitions; a parameter
 * that was absent and has no default is missing (undefined).
 */
export type ParsedParams<Defs extends readonly ParamDef[] = readonly ParamDef[]> = {
  [D in Defs[number] as D["name"]]: AlwaysPresent<D> extends true ? ValueOf<D> : ValueOf<D> | undefined;
};

export type ParseResult<Defs extends readonly ParamDef[]> = { ok: true; params: ParsedParams<Defs> } | { ok: false; message: string };

/**
 * Validates a query string against an endpoint's parameter definitions.
 * Unknown parameters are ignored (storefronts add cache-busters of their own);
 * a known parameter with a bad value is an error that names it.
 */
export function parseParams<const Defs extends readonly ParamDef[]>(defs: Defs, query: QueryParams): ParseResult<Defs> {
  const params: Record<string, ParamValue> = {};
  for (const def of defs) {
    const raw = query.get(def.name) ?? firstAlias(def, query);
    const trimmed = raw === null ? "" : raw.trim();
    const text = trimmed === "" ? def.default : trimmed;
    if (text === null) {
      if (def.required) return { ok: false, message: `Missing required endpoint arg: ${def.name}` };
      continue;
    }
    const parsed = parseValue(def, text);
    if (typeof parsed === "object" && parsed !== null && "problem" in parsed) {
      return { ok: false, message: `Invalid ${def.name}: ${parsed.problem}` };
    }
    params[def.name] = parsed;
  }
  // Each definition put its own name with its kind's value: the shape ParsedParams<Defs> describes.
  return { ok: true, params: params as ParsedParams<Defs> };
}

type Problem = { problem: string };

function firstAlias(def: ParamDef, query: QueryParams): string | null {
  if (def.aliases === undefined) return null;
  for (const alias of def.aliases) {
    const raw = query.get(alias);
    if (raw !== null) return raw;
  }
  return null;
}

function parseValue(def: ParamDef, text: string): ParamValue | Problem {
  switch (def.kind) {
    case "api_key":
    case "text":
      if (text.length > MAX_TEXT) return { problem: `must be at most ${MAX_TEXT} characters` };
      if (def.allowed && !def.allowed.includes(text)) return { problem: `allowed values are ${def.allowed.join(", ")}` };
      return text;
    case "uuid":
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)
        ? detached(text.toLowerCase())
        : { problem: "must be a UUID like 3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e" };
    case "email":
      return text.length <= 320 && /^[^\s@]+@[^\s@]+$/.test(text) ? text : { problem: "must be an email address" };
    case "handle":
      return PATTERNS.handle.test(text) ? text : { problem: `"${clip(text)}" is not a product handle` };
    case "id":
      return parseId(text) ?? { problem: `"${clip(text)}" is not an id` };
    case "id_list":
      return parseList(text, (item) => parseId(item), "is not an id");
    case "handle_list":
      return parseList(text, (item) => (PATTERNS.handle.test(item) ? item : null), "is not a product handle");
    case "ns_key_list":
      return parseList(text, (item) => (PATTERNS.nsKey.test(item) ? item : null), "is not of the form namespace.key");
    case "ns_list":
      return parseList(text, (item) => (PATTERNS.namespace.test(item) ? item : null), "is not a namespace");
    case "limit": {
      const limit = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
      if (!(limit >= 1 && limit <= MAX_LIMIT)) return { problem: `must be a whole number from 1 to ${MAX_LIMIT}` };
      return limit;
    }
    case "days": {
      const days = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
      return days >= 1 && days <= MAX_DAYS ? days : { problem: `must be a whole number of days from 1 to ${MAX_DAYS}` };
    }
    case "flag":
      if (text === "yes") return true;
      if (text === "no") return false;
      return { problem: "allowed values are yes and no" };
    case "pretty":
      return text === "pretty" ? true : { problem: "the allowed value is pretty" };
    case "country_code":
      return PATTERNS.countryCode.test(text) ? text.toUpperCase() : { problem: "must be an ISO 3166-1 alpha-2 code like CA" };
    case "decimal": {
      const cents = toCents(text);
      return cents === null ? { problem: `"${clip(text)}" is not a decimal amount` } : cents;
    }
    case "quantity_list":
      return parseQuantities(text);
    case "cart":
      return parseCart(text);
  }
}

function parseQuantity(value: unknown): number | null {
  const quantity = typeof value === "string" && /^\d{1,6}$/.test(value.trim()) ? Number(value) : value;
  return typeof quantity === "number" && Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_QUANTITY ? quantity : null;
}

/** Unlike the id lists, repeats are kept: each quantity belongs to the line at its place. */
function parseQuantities(text: string): number[] | Problem {
  const items = text.split(",").map((item) => item.trim());
  if (items.length > MAX_LIST_ITEMS) return { problem: `at most ${MAX_LIST_ITEMS} values are allowed` };
  const quantities: number[] = [];
  for (const item of items) {
    const quantity = parseQuantity(item);
    if (quantity === null) return { problem: `"${clip(item)}" is not a quantity from 1 to ${MAX_QUANTITY}` };
    quantities.push(quantity);
  }
  return quantities;
}

function parseCart(text: string): CartLine[] | Problem {
  if (text.length > MAX_CART_TEXT) return { problem: `must be at most ${MAX_CART_TEXT} characters` };
  let cart: unknown;
  try {
    cart = JSON.parse(text);
  } catch {
    return { problem: 'must be JSON like {"items":[{"variant_id":41000000000011,"quantity":2}]}' };
  }
  const items = typeof cart === "object" && cart !== null && "items" in cart ? cart.items : undefined;
  if (!Array.isArray(items)) return { problem: "must be a JSON object with an items array" };
  if (items.length > MAX_LIST_ITEMS) return { problem: `at most ${MAX_LIST_ITEMS} items are allowed` };
  const lines: CartLine[] = [];
  for (const [index, item] of items.entries()) {
    if (typeof item !== "object" || item === null) return { problem: `items[${index}] must be an object` };
    const line = item as Record<string, unknown>;
    const productId = line.product_id === undefined || line.product_id === null ? null : parseId(line.product_id);
    const variantId = line.variant_id === undefined || line.variant_id === null ? null : parseId(line.variant_id);
    if (productId === null && line.product_id != null) return { problem: `items[${index}].product_id is not an id` };
    if (variantId === null && line.variant_id != null) return { problem: `items[${index}].variant_id is not an id` };
    if (productId === null && variantId === null) return { problem: `items[${index}] needs a product_id or a variant_id` };
    const quantity = line.quantity === undefined ? 1 : parseQuantity(line.quantity);
    if (quantity === null) return { problem: `items[${index}].quantity must be a whole number from 1 to ${MAX_QUANTITY}` };
    lines.push({ product_id: productId, variant_id: variantId, quantity });
  }
  return lines;
}

function parseList<T extends number | string>(text: string, parseItem: (item: string) => T | null, problem: string): T[] | Problem {
  const items = text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  if (items.length > MAX_LIST_ITEMS) return { problem: `at most ${MAX_LIST_ITEMS} values are allowed` };
  const values: T[] = [];
  for (const item of items) {
    const value = parseItem(item);
    if (value === null) return { problem: `"${clip(item)}" ${problem}` };
    if (!values.includes(value)) values.push(value);
  }
  return values;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** What says which answer to give, but not what the answer is: left out of the canonical form. */
const CACHE_CONTROLS: readonly string[] = ["key", "bust_cache"];

/** Per endpoint's definitions, their names in canonical order without the cache controls: sorted once, not per request. */
const canonicalNames = new WeakMap<readonly ParamDef[], readonly string[]>();

/**
 * The parameters parsed by `defs` in a canonical form (sorted by name,
 * defaults applied, cache controls dropped): two requests that mean the same
 * thing share one cache entry.
 */
export function canonicalParams(defs: readonly ParamDef[], params: Readonly<Record<string, ParamValue | undefined>>): string {
  let names = canonicalNames.get(defs);
  if (names === undefined) {
    names = [...new Set(defs.map((def) => def.name))].filter((name) => !CACHE_CONTROLS.includes(name)).sort();
    canonicalNames.set(defs, names);
  }
  let text = "";
  for (const name of names) {
    const value = params[name];
    if (value !== undefined) text += `${text === "" ? "" : "&"}${name}=${canonicalValue(value)}`;
  }
  return text;
}

/** Lists of plain values as their comma-separated text; a cart's lines, objects, as JSON. */
function canonicalValue(value: ParamValue): string {
  return Array.isArray(value) && value.some((item) => typeof item === "object") ? JSON.stringify(value) : String(value);
}
