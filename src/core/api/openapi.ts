import { DECIMAL } from "../money.js";
import type { ParamDef, ParamKind } from "../params/definitions.js";
import { MAX_DAYS, MAX_LIMIT, MAX_LIST_ITEMS, MAX_TEXT, PATTERNS } from "../params/parse.js";
import {
  components,
  DEPRECATED_ENDPOINT,
  EMPTY_ERROR,
  ERROR_MESSAGE,
  EVENT_RECEIPT,
  PRODUCT_LIST,
  PURCHASED_PRODUCT_LIST,
  QUICK_VIEW_REQUEST,
  QUICK_VIEW_RESULT,
  RECOMMENDED_PRODUCT_LIST,
  REDUCED_PRODUCT_LIST,
  SOURCE_LIST,
} from "./answers.js";
import type { AnswerDef, EndpointDef, EndpointTag, ErrorStyle } from "./endpoints.js";
import { answerExample, EXAMPLE_SEARCH_QUERY } from "./examples.js";
import type { JsonSchema } from "./schema.js";

/** A documented route that is not a storefront endpoint (admin, webhooks). */
export interface OperationDoc {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  operationId: string;
  tag: "Admin" | "Webhooks";
  summary: string;
  security?: "admin";
  requestBody?: string;
  /** Header parameters the route reads (besides authentication). */
  headers?: readonly { name: string; description: string }[];
  /** The status of a success, when it is not 200. */
  successStatus?: 201;
}

export interface DocumentOptions {
  version: string;
  /** Where clients reach the service; null: the host that serves the document. */
  publicUrl: string | null;
}

type Json = Record<string, unknown>;

const TAGS: readonly { name: EndpointTag | OperationDoc["tag"]; description: string }[] = [
  { name: "Product lists", description: "Lists of products in the platform's product format, for storefront widgets." },
  { name: "Shopper history", description: "What a session or a known customer viewed or bought, and what relates to it." },
  { name: "Events", description: "Behaviour events a storefront sends as shoppers view and add products." },
  { name: "Search", description: "Search as you type." },
  { name: "Sources", description: "The endpoints a storefront widget can be pointed at." },
  { name: "Admin", description: "Merchants and their catalogues, customers, orders and markets (admin token)." },
  { name: "Webhooks", description: "Changes the commerce platform sends." },
];

/** How each api_key parameter name is sent: the security schemes that describe it. */
const KEY_SCHEMES: Readonly<Record<string, readonly string[]>> = {
  key: ["storefrontKey"],
  "Service-Api-Key": ["serviceApiKeyQuery", "serviceApiKeyHeader"],
};

const PUBLIC_KEY = "The merchant's public API key. Storefront pages carry it, so it is no secret: it names the shop.";

const SECURITY_SCHEMES = {
  storefrontKey: { type: "apiKey", in: "query", name: "key", description: PUBLIC_KEY },
  serviceApiKeyQuery: { type: "apiKey", in: "query", name: "Service-Api-Key", description: PUBLIC_KEY },
  serviceApiKeyHeader: { type: "apiKey", in: "header", name: "Service-Api-Key", description: PUBLIC_KEY },
  adminToken: { type: "http", scheme: "bearer", description: "The admin token (AISLE_ADMIN_TOKEN, or the one kept in the data dir)." },
};

const ids = { type: "integer", minimum: 1 };
const list = (items: JsonSchema) => ({ type: "array", items, maxItems: MAX_LIST_ITEMS });

/** Each kind of query parameter as a schema; lists travel comma-separated (style form, explode false). */
const SCHEMA_BY_KIND: Record<Exclude<ParamKind, "api_key">, JsonSchema> = {
  id_list: list(ids),
  handle_list: list({ type: "string", pattern: PATTERNS.handle.source }),
  id: ids,
  limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT },
  flag: { type: "string", enum: ["yes", "no"] },
  pretty: { type: "string", enum: ["pretty"] },
  ns_key_list: list({ type: "string", pattern: PATTERNS.nsKey.source }),
  ns_list: list({ type: "string", pattern: PATTERNS.namespace.source }),
  country_code: { type: "string", pattern: PATTERNS.countryCode.source },
  decimal: { type: "string", pattern: DECIMAL.source },
  days: { type: "integer", minimum: 1, maximum: MAX_DAYS },
  uuid: { type: "string", format: "uuid" },
  email: { type: "string", format: "email" },
  handle: { type: "string", pattern: PATTERNS.handle.source },
  text: { type: "string", maxLength: MAX_TEXT },
};

/** A value as the parameter's schema types it: the definitions keep defaults and examples as query-string text. */
function typedValue(kind: ParamKind, text: string): unknown {
  switch (kind) {
    case "id":
    case "limit":
    case "days":
      return Number(text);
    case "id_list":
      return text.split(",").map(Number);
    case "handle_list":
    case "ns_key_list":
    case "ns_list":
      return text.split(",");
    default:
      return text;
  }
}

function parameter(def: ParamDef, kind: Exclude<ParamKind, "api_key">): Json {
  const schema: Json = { ...SCHEMA_BY_KIND[kind], ...(def.allowed ? { enum: def.allowed } : {}) };
  if (def.default !== null) schema.default = typedValue(kind, def.default);
  const isList = schema.type === "array";
  return {
    name: def.name,
    in: "query",
    required: def.required,
    description: def.description,
    ...(isList ? { style: "form", explode: false } : {}),
    schema,
    example: typedValue(kind, def.example),
  };
}

/** An endpoint's query parameters (its key is a security scheme), with older spellings after each. */
function parameters(endpoint: EndpointDef): Json[] {
  return endpoint.params.flatMap((def) => {
    const { kind } = def;
    if (kind === "api_key") return [];
    const current = parameter(def, kind);
    const older = (def.aliases ?? []).map((alias) => ({
      ...current,
      name: alias,
      required: false,
      deprecated: true,
      description: `Deprecated spelling of ${def.name}.`,
    }));
    return [current, ...older];
  });
}

/** Who may call the endpoint: its key's schemes, or none needed when the key is optional. */
function security(endpoint: EndpointDef): Json[] {
  const key = endpoint.params.find((def) => def.kind === "api_key");
  if (!key) return [];
  const schemes = KEY_SCHEMES[key.name];
  if (!schemes) throw new Error(`no security scheme describes the key parameter ${key.name}`);
  return [...schemes.map((scheme) => ({ [scheme]: [] })), ...(key.required ? [] : [{}])];
}

function answerSchema(answer: AnswerDef): JsonSchema {
  switch (answer.kind) {
    case "products":
      if (answer.purchases) return PURCHASED_PRODUCT_LIST;
      if (answer.projection === "full") return PRODUCT_LIST;
      return answer.cacheInfo ? RECOMMENDED_PRODUCT_LIST : REDUCED_PRODUCT_LIST;
    case "event_receipt":
      return EVENT_RECEIPT;
    case "sources":
      return SOURCE_LIST;
    case "quick_view":
      return QUICK_VIEW_RESULT;
    case "deprecated_not_found":
      return DEPRECATED_ENDPOINT;
  }
}

const header = (description: string, schema: JsonSchema = { type: "string" }) => ({ description, schema });

/** Answers computed in the worker pool and cached (product lists, search) say how fresh they are. */
const CACHED_ANSWER_HEADERS = {
  Age: header("Seconds since the answer was computed (0: computed for this request).", { type: "integer", minimum: 0 }),
};

const RATE_LIMIT_HEADERS = {
  "Retry-After": header("Seconds to wait.", { type: "integer", minimum: 0 }),
  "RateLimit-Limit": header("Requests allowed in a burst.", { type: "integer" }),
  "RateLimit-Remaining": header("Requests left.", { type: "integer" }),
  "RateLimit-Reset": header("Seconds until the bucket is full again.", { type: "integer" }),
};

const json = (schema: JsonSchema, example?: unknown) => ({ "application/json": { schema, ...(example === undefined ? {} : { example }) } });

/** A failure in the endpoint's error style: `{error}`, or the spec's empty object with the message in X-Aisle-Error. */
function failure(style: ErrorStyle, description: string, headers: Json = {}): Json {
  if (style === "message") return { description, headers, content: json(ERROR_MESSAGE) };
  return {
    description: `${description} The body is the spec's empty object; the message is in the X-Aisle-Error header.`,
    headers: { ...headers, "X-Aisle-Error": header("What was wrong.") },
    content: json(EMPTY_ERROR, {}),
  };
}

/**
 * Failures found before the endpoint is known (a URL too long, a server
 * shutting down) are always `{error}`, whatever the endpoint's own style.
 */
function otherFailures(style: ErrorStyle): Json {
  const description =
    "Other failures: 404 (the merchant is gone), 413 (body too large), 414 (URL too long), 500, 503 (busy or shutting down).";
  if (style === "message") return { description, content: json(ERROR_MESSAGE) };
  return {
    description: `${description} Empty object with X-Aisle-Error, or {error} when the endpoint was not reached yet.`,
    headers: { "X-Aisle-Error": header("What was wrong, with an empty body.") },
    content: json({ anyOf: [EMPTY_ERROR, ERROR_MESSAGE] }),
  };
}

function responses(endpoint: EndpointDef, endpoints: readonly EndpointDef[]): Json {
  const { answer, errorStyle } = endpoint;
  const example = answerExample(answer, endpoints);
  if (answer.kind === "deprecated_not_found") {
    return {
      "404": { description: "Always: the endpoint is deprecated.", content: json(answerSchema(answer), example) },
      default: otherFailures(errorStyle),
    };
  }
  const cached = answer.kind === "products" || answer.kind === "quick_view";
  return {
    "200": {
      description: "Success.",
      ...(cached ? { headers: CACHED_ANSWER_HEADERS } : {}),
      content: json(answerSchema(answer), example),
    },
    "400": failure(errorStyle, "Invalid parameters, body or key."),
    "429": failure(errorStyle, "Over the rate limit of the key's merchant.", RATE_LIMIT_HEADERS),
    default: otherFailures(errorStyle),
  };
}

function storefrontOperation(endpoint: EndpointDef, endpoints: readonly EndpointDef[]): Json {
  return {
    operationId: endpoint.operationId,
    tags: [endpoint.tag],
    summary: endpoint.name,
    description: endpoint.description,
    deprecated: endpoint.deprecated ?? false,
    security: security(endpoint),
    parameters: parameters(endpoint),
    ...(endpoint.answer.kind === "quick_view"
      ? {
          requestBody: {
            required: false,
            description: "The search; a JSON body (sent as text/plain too, so browsers need no preflight).",
            content: json(QUICK_VIEW_REQUEST, { query: EXAMPLE_SEARCH_QUERY, limit: 5, filters: { hideOutOfStock: true } }),
          },
        }
      : {}),
    responses: responses(endpoint, endpoints),
  };
}

function otherOperation(operation: OperationDoc): Json {
  const pathParams = [...operation.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  const headerParams = (operation.headers ?? []).map(({ name, description }) => ({
    name,
    in: "header",
    required: true,
    description,
    schema: { type: "string" },
  }));
  const admin = operation.security === "admin";
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    security: admin ? [{ adminToken: [] }] : [],
    parameters: [...pathParams, ...headerParams],
    ...(operation.requestBody
      ? {
          requestBody: {
            description: operation.requestBody,
            content: { "application/json": { schema: {} }, "application/x-ndjson": { schema: {} } },
          },
        }
      : {}),
    responses: {
      [String(operation.successStatus ?? 200)]: { description: "Success." },
      "400": failure("message", "Invalid request."),
      "401": failure("message", admin ? "Missing or invalid admin token." : "The signature does not match."),
      default: otherFailures("message"),
    },
  };
}

/** OpenAPI 3.1 from the same definitions the server validates with and the types its serializers write. */
export function buildOpenApi(endpoints: readonly EndpointDef[], operations: readonly OperationDoc[], options: DocumentOptions): object {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (path: string, method: string, operation: unknown) => {
    const openApiPath = path.replace(/:(\w+)/g, "{$1}");
    paths[openApiPath] = { ...paths[openApiPath], [method.toLowerCase()]: operation };
  };
  for (const endpoint of endpoints) add(endpoint.path, endpoint.method, storefrontOperation(endpoint, endpoints));
  for (const operation of operations) add(operation.path, operation.method, otherOperation(operation));
  return {
    openapi: "3.1.0",
    info: {
      title: "aisle storefront API",
      version: options.version,
      description:
        "Product lists, recommendations, behaviour events and quick-view search for a shop's storefront (the Storefront Product Recommendation API), and the admin and webhook routes that bring a shop's data in.",
    },
    servers: [{ url: options.publicUrl ?? "/", description: options.publicUrl ? "This service" : "The host that serves this document" }],
    tags: TAGS,
    paths,
    components: { schemas: components.all(), securitySchemes: SECURITY_SCHEMES },
  };
}
