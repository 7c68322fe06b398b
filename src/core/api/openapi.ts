import type { ParamDef, ParamKind } from "../params/definitions.js";
import { MAX_LIMIT } from "../params/parse.js";
import type { EndpointDef } from "./endpoints.js";

/** A documented route that is not a storefront endpoint (admin, webhooks, health). */
export interface OperationDoc {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  summary: string;
  security?: "admin";
  requestBody?: string;
}

const SCHEMA_BY_KIND: Record<ParamKind, Record<string, unknown>> = {
  api_key: { type: "string" },
  id_list: { type: "string", pattern: "^\\d+(,\\d+)*$" },
  handle_list: { type: "string" },
  id: { type: "string", pattern: "^\\d+$" },
  limit: { type: "string", pattern: "^\\d+$", description: `1 to ${MAX_LIMIT}` },
  flag: { type: "string", enum: ["yes", "no"] },
  pretty: { type: "string", enum: ["pretty"] },
  ns_key_list: { type: "string" },
  ns_list: { type: "string" },
  country_code: { type: "string", pattern: "^[A-Za-z]{2}$" },
  decimal: { type: "string", pattern: "^-?\\d+(\\.\\d{1,2})?$" },
  days: { type: "string", pattern: "^\\d+$", description: "1 to 365" },
  uuid: { type: "string", format: "uuid" },
  email: { type: "string", format: "email" },
  handle: { type: "string" },
  text: { type: "string" },
};

function parameter(def: ParamDef): Record<string, unknown> {
  const schema: Record<string, unknown> = { ...SCHEMA_BY_KIND[def.kind], ...(def.allowed ? { enum: def.allowed } : {}) };
  if (def.default !== null) schema.default = def.default;
  return { name: def.name, in: "query", required: def.required, description: def.description, example: def.example, schema };
}

/** An older spelling of a parameter, still accepted. */
function deprecatedSpelling(def: ParamDef, alias: string): Record<string, unknown> {
  return { ...parameter(def), name: alias, required: false, deprecated: true, description: `Deprecated spelling of ${def.name}.` };
}

/** OpenAPI 3.1 from the same definitions the server validates with. */
export function buildOpenApi(endpoints: readonly EndpointDef[], operations: readonly OperationDoc[], version: string): object {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (path: string, method: string, operation: unknown) => {
    const openApiPath = path.replace(/:(\w+)/g, "{$1}");
    paths[openApiPath] = { ...paths[openApiPath], [method.toLowerCase()]: operation };
  };
  for (const endpoint of endpoints) {
    add(endpoint.path, endpoint.method, {
      summary: endpoint.name,
      description: endpoint.description,
      deprecated: endpoint.deprecated ?? false,
      parameters: endpoint.params.flatMap((def) => [parameter(def), ...(def.aliases ?? []).map((alias) => deprecatedSpelling(def, alias))]),
      responses: {
        "200": { description: "Success", content: { "application/json": { schema: { type: "object" } } } },
        "400": { description: endpoint.errorStyle === "message" ? "{error: <message>}" : "Empty object" },
      },
    });
  }
  for (const operation of operations) {
    const pathParams = [...operation.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    add(operation.path, operation.method, {
      summary: operation.summary,
      parameters: pathParams,
      ...(operation.security ? { security: [{ adminToken: [] }] } : {}),
      ...(operation.requestBody
        ? {
            requestBody: {
              description: operation.requestBody,
              content: { "application/json": { schema: {} }, "application/x-ndjson": { schema: {} } },
            },
          }
        : {}),
      responses: { "200": { description: "Success" }, "400": { description: "{error: <message>}" } },
    });
  }
  return {
    openapi: "3.1.0",
    info: { title: "aisle storefront API", version },
    paths,
    components: { securitySchemes: { adminToken: { type: "http", scheme: "bearer" } } },
  };
}
