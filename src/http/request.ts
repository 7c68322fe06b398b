// What every route does with a request before its own work: parse the query
// against the endpoint's definitions, read the body as text or JSON, name the
// session or customer an endpoint is about. Failures are ApiErrors naming the problem.
import type { EndpointDef } from "../core/api/endpoints.js";
import { MAX_JSON_NESTING, nestedDeeperThan } from "../core/json.js";
import { parseParams, type ParsedParams } from "../core/params/parse.js";
import { isMerchantId } from "../core/ingest/records.js";
import type { ParamDef } from "../core/params/definitions.js";
import type { QueryParams } from "../core/params/query.js";
import type { Merchant } from "../core/types.js";
import { ApiError } from "../errors.js";
import type { Store } from "../stores/store.js";
import type { RequestInfo } from "./router.js";

export function parseQueryParams<Defs extends readonly ParamDef[]>(endpoint: EndpointDef<Defs>, query: QueryParams): ParsedParams<Defs> {
  const parsed = parseParams(endpoint.params, query);
  if (!parsed.ok) throw new ApiError("invalid_params", parsed.message);
  return parsed.params;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function bodyText(request: RequestInfo): string {
  try {
    return utf8.decode(request.body ?? new Uint8Array(0));
  } catch {
    throw new ApiError("invalid_body", "Request body is not valid UTF-8");
  }
}

/** The body as one JSON value; `what` names it in the error (e.g. the webhook topic). */
export function bodyJson(request: RequestInfo, what: string): unknown {
  const text = bodyText(request);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("invalid_body", `${what} body is not valid JSON`);
  }
  if (nestedDeeperThan(value, MAX_JSON_NESTING))
    throw new ApiError("invalid_body", `${what} body nests arrays and objects more than ${MAX_JSON_NESTING} levels deep`);
  return value;
}

const MISSING_SESSION_OR_CUSTOMER = "Missing required args. You must pass either platform_customer_id or uuid.";

/** Endpoints about a shopper take a session uuid, a customer id, or both; neither is the spec's 400. */
export function requireSessionOrCustomer(uuid: string | null, customerId: number | null): void {
  if (uuid === null && customerId === null) throw new ApiError("invalid_params", MISSING_SESSION_OR_CUSTOMER);
}

/**
 * The same, on the query as sent, before its parameters are parsed: the spec
 * gives this 400 whenever both are absent, so it comes before what else the
 * request lacks or gets wrong.
 */
export function requireSessionOrCustomerIn(query: QueryParams): void {
  const given = (name: string) => (query.get(name)?.trim() ?? "") !== "";
  if (!given("uuid") && !given("platform_customer_id")) throw new ApiError("invalid_params", MISSING_SESSION_OR_CUSTOMER);
}

/** The merchant a path's `:merchant` names; text that cannot be a merchant id names none, without a store lookup. */
export function merchantInPath(store: Store, request: RequestInfo): Merchant | undefined {
  const id = request.params.merchant ?? "";
  return isMerchantId(id) ? store.catalogue.merchant(id) : undefined;
}

/** Client text quoted in an error message, cut short: a 100 KB path must not come back as a 100 KB message. */
export function quoted(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
