// Holds HTTP exchanges to the service's OpenAPI document: the status must be one
// the operation documents, and a JSON body must match the status's schema
// (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it).
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { STOREFRONT_ENDPOINTS } from "../../src/core/api/endpoints.js";
import { buildOpenApi } from "../../src/core/api/openapi.js";
import { ADMIN_OPERATIONS } from "../../src/http/routes/admin.js";
import { WEBHOOK_OPERATIONS } from "../../src/http/routes/webhooks.js";
import { VERSION } from "../../src/version.js";

type Json = Record<string, any>;

/** /openapi.json as a service started by the tests serves it (no public URL). */
export function servedOpenApi(): Json {
  return buildOpenApi(STOREFRONT_ENDPOINTS, [...ADMIN_OPERATIONS, ...WEBHOOK_OPERATIONS], { version: VERSION, publicUrl: null }) as Json;
}

export interface Exchange {
  method: string;
  /** Path and query. */
  url: URL;
  status: number;
  /** The response body as text. */
  body: string;
  /** The request body, when it was text. */
  requestBody: string | null;
}

interface Operation {
  path: string;
  pattern: RegExp;
  /** Literal segments: an exact path wins over a template that also fits (as the router decides). */
  literals: number;
  method: string;
  definition: Json;
}

const COMPONENTS_ID = "https://aisle.invalid/components";

/** The document's $refs, pointed at the components schema registered with ajv. */
function retargeted(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(retargeted);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === "$ref" && typeof value === "string" ? value.replace("#/components/schemas/", `${COMPONENTS_ID}#/$defs/`) : retargeted(value),
    ]),
  );
}

export class OpenApiChecker {
  private readonly ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: retargeted(document.components.schemas) });
    for (const [path, item] of Object.entries(document.paths as Json)) {
      const segments = path.split("/");
      const pattern = new RegExp(`^${segments.map((s) => (s.startsWith("{") ? "[^/]+" : s.replace(/[.-]/g, "\\$&"))).join("/")}$`);
      const literals = segments.filter((s) => !s.startsWith("{")).length;
      for (const [method, definition] of Object.entries(item as Json)) {
        this.operations.push({ path, pattern, literals, method: method.toUpperCase(), definition: definition as Json });
      }
    }
  }

  /** The documented operation an exchange is, or undefined for routes the document leaves out (health, metrics, unknown paths). */
  operation(method: string, pathname: string): Operation | undefined {
    const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
    const fits = this.operations.filter((op) => op.pattern.test(path) && op.method === method);
    return fits.sort((a, b) => b.literals - a.literals)[0];
  }

  /** What about the exchange the document does not allow; empty when it does, or when it documents no such operation. */
  problems(exchange: Exchange): string[] {
    const operation = this.operation(exchange.method, exchange.url.pathname);
    if (!operation) return [];
    const where = `${exchange.method} ${operation.path} → ${exchange.status}`;
    const problems: string[] = [];
    const responses = operation.definition.responses as Json;
    const response = responses[String(exchange.status)] ?? responses.default;
    if (!response) return [`${where}: the status is not documented`];
    const schema = response.content?.["application/json"]?.schema;
    if (schema)
      problems.push(
        ...this.schemaProblems(`${where} body`, `${operation.path}|${exchange.method}|${exchange.status}`, schema, exchange.body),
      );
    // A request the service accepted must be one the document describes (where it describes more than "any body").
    const requestSchema = operation.definition.requestBody?.content?.["application/json"]?.schema;
    if (
      requestSchema &&
      Object.keys(requestSchema).length > 0 &&
      exchange.status === 200 &&
      exchange.requestBody !== null &&
      exchange.requestBody.trim() !== ""
    ) {
      problems.push(
        ...this.schemaProblems(
          `${where} request body`,
          `${operation.path}|${exchange.method}|request`,
          requestSchema,
          exchange.requestBody,
        ),
      );
    }
    return problems;
  }

  private schemaProblems(what: string, key: string, schema: unknown, text: string): string[] {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return [`${what} is not JSON: ${text.slice(0, 200)}`];
    }
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(retargeted(schema) as object);
      this.validators.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${what}: ${error.instancePath || "(root)"} ${error.message} ${JSON.stringify(error.params)}`,
    );
  }
}
