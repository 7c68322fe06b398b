// The quick-view search request: a JSON body
// {query, limit?, filters?: {collections?, hideOutOfStock?}, exclude?: {productIds?, collections?: [{collectionId, hideProducts?}]}},
// with query, limit and country_code also accepted in the query string.
import { parseId } from "../ingest/fields.js";
import { MAX_LIMIT } from "../params/parse.js";
import type { QueryParams } from "../params/query.js";
import type { MerchantId } from "../types.js";

export const DEFAULT_SEARCH_LIMIT = 10;
/** Longer than any search box input; bounds the work a request can ask for. */
export const MAX_QUERY_LENGTH = 200;
export const MAX_IDS = 250;

export interface QuickViewRequest {
  /** Exactly as sent: echoed back as data.query so clients can drop answers to older keystrokes. */
  query: string;
  limit: number;
  /** Only products of these collections; null: any. */
  collectionIds: number[] | null;
  excludeProductIds: number[];
  excludeCollections: { collectionId: number; hideProducts: boolean }[];
  /** Out-of-stock products are never shown (default: shown after every available one). */
  hideOutOfStock: boolean;
  countryCode: string | null;
  pretty: boolean;
}

export interface QuickViewTask {
  kind: "quick_view";
  merchantId: MerchantId;
  request: QuickViewRequest;
}

/** A request of nothing but a query and a limit: what parseQuickViewRequest makes of a body that sends only those. */
export function quickViewRequest(query: string, limit = DEFAULT_SEARCH_LIMIT): QuickViewRequest {
  return {
    query,
    limit,
    collectionIds: null,
    excludeProductIds: [],
    excludeCollections: [],
    hideOutOfStock: false,
    countryCode: null,
    pretty: false,
  };
}

export class BadSearchRequest extends Error {}

type Json = Record<string, unknown>;

function objectAt(value: unknown, path: string): Json {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new BadSearchRequest(`${path} must be an object`);
  return value as Json;
}

function idsAt(value: unknown, path: string): number[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new BadSearchRequest(`${path} must be an array of ids`);
  if (value.length > MAX_IDS) throw new BadSearchRequest(`${path} may hold at most ${MAX_IDS} ids`);
  return value.map((item, i) => idAt(item, `${path}[${i}]`));
}

function idAt(value: unknown, path: string): number {
  const id = parseId(value);
  if (id === null) throw new BadSearchRequest(`${path} must be an id`);
  return id;
}

function flagAt(value: unknown, path: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw new BadSearchRequest(`${path} must be true or false`);
  return value;
}

function limitFrom(value: unknown): number {
  if (value === undefined || value === null || value === "") return DEFAULT_SEARCH_LIMIT;
  const limit = typeof value === "number" ? value : typeof value === "string" && /^\d{1,4}$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new BadSearchRequest(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
  return limit;
}

function countryFrom(value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string" || !/^[A-Za-z]{2}$/.test(value.trim()))
    throw new BadSearchRequest("country_code must be an ISO 3166-1 alpha-2 code like CA");
  return value.trim().toUpperCase();
}

/**
 * Validates a request from its body (JSON, may be empty) and query string.
 * The body wins where both carry a field. Throws BadSearchRequest naming the field.
 */
export function parseQuickViewRequest(body: Uint8Array | null, query: QueryParams): QuickViewRequest {
  let json: Json = {};
  const text = body === null ? "" : new TextDecoder().decode(body).trim();
  if (text !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new BadSearchRequest("body must be JSON");
    }
    json = objectAt(parsed, "body");
  }
  const rawQuery = json.query ?? query.get("query");
  if (rawQuery === undefined || rawQuery === null) throw new BadSearchRequest("query is required");
  if (typeof rawQuery !== "string") throw new BadSearchRequest("query must be a string");
  if (rawQuery.length > MAX_QUERY_LENGTH) throw new BadSearchRequest(`query must be at most ${MAX_QUERY_LENGTH} characters`);

  const filters = objectAt(json.filters, "filters");
  const exclude = objectAt(json.exclude, "exclude");
  const rawExcludedCollections = exclude.collections ?? [];
  if (!Array.isArray(rawExcludedCollections)) throw new BadSearchRequest("exclude.collections must be an array");
  if (rawExcludedCollections.length > MAX_IDS) throw new BadSearchRequest(`exclude.collections may hold at most ${MAX_IDS} entries`);
  const excludeCollections = rawExcludedCollections.map((item: unknown, i) => {
    const entry = objectAt(item, `exclude.collections[${i}]`);
    return {
      collectionId: idAt(entry.collectionId, `exclude.collections[${i}].collectionId`),
      hideProducts: flagAt(entry.hideProducts, `exclude.collections[${i}].hideProducts`),
    };
  });
  const collectionIds =
    filters.collections === undefined || filters.collections === null ? null : idsAt(filters.collections, "filters.collections");

  return {
    query: rawQuery,
    limit: limitFrom(json.limit ?? query.get("limit") ?? undefined),
    collectionIds,
    excludeProductIds: idsAt(exclude.productIds, "exclude.productIds"),
    excludeCollections,
    hideOutOfStock: flagAt(filters.hideOutOfStock, "filters.hideOutOfStock"),
    // presentment_prices: the deprecated spelling, as on the product lists.
    countryCode: countryFrom(json.country_code ?? query.get("country_code") ?? query.get("presentment_prices") ?? undefined),
    pretty: query.get("format") === "pretty",
  };
}

/** The request in a canonical form for the response cache (the exact query included: it is echoed). */
export function canonicalSearchRequest(request: QuickViewRequest): string {
  return JSON.stringify([
    request.query,
    request.limit,
    request.collectionIds === null ? null : [...request.collectionIds].sort((a, b) => a - b),
    [...request.excludeProductIds].sort((a, b) => a - b),
    [...request.excludeCollections].sort((a, b) => a.collectionId - b.collectionId),
    request.hideOutOfStock,
    request.countryCode,
    request.pretty,
  ]);
}
