// The typed client's types as TypeScript source, from an OpenAPI 3.1 document
// (write-api-types.ts writes them to client/src/api.ts): an interface per
// component schema, the query parameters, body and answer of each selected
// operation, and the table the client calls them by.
// It reads the subset of JSON Schema /openapi.json uses: $ref, anyOf, type
// (or a list of types), enum, properties/required, items.

/** The parts of a JSON Schema the generator reads. */
interface SchemaObject {
  $ref?: string;
  anyOf?: SchemaObject[];
  enum?: unknown[];
  type?: string | string[];
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  description?: string;
}

interface WithContent {
  content?: Record<string, { schema?: SchemaObject }>;
}

interface OperationObject {
  operationId: string;
  tags?: string[];
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; deprecated?: boolean; description?: string; schema: SchemaObject }[];
  requestBody?: WithContent;
  responses: Record<string, WithContent>;
}

/** The parts of an OpenAPI 3.1 document the generator reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, SchemaObject>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string }>;
  };
}

export interface GenerateOptions {
  /** Operations whose first tag is one of these become client methods. */
  tags: readonly string[];
  /** Says where the file comes from and how to write it again. */
  header: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function comment(text: string | undefined, indent = ""): string {
  if (!text) return "";
  return `${indent}/** ${text.replace(/\*\//g, "*\\/")} */\n`;
}

function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

const componentName = (ref: string): string => ref.replace("#/components/schemas/", "");

/** The TypeScript type of a schema; `readonlyArrays` for what callers pass in. */
function typeOf(schema: SchemaObject, readonlyArrays = false): string {
  if (schema.$ref) return componentName(schema.$ref);
  if (schema.anyOf) return schema.anyOf.map((part) => typeOf(part, readonlyArrays)).join(" | ");
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length === 0) return "unknown";
  return types.map((type) => plainType(type, schema, readonlyArrays)).join(" | ");
}

function plainType(type: string, schema: SchemaObject, readonlyArrays: boolean): string {
  switch (type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const items = typeOf(schema.items ?? {}, readonlyArrays);
      const element = /[ |]/.test(items) ? `(${items})` : items;
      return readonlyArrays ? `readonly ${element}[]` : `${element}[]`;
    }
    case "object":
      return objectType(schema, readonlyArrays);
    default:
      throw new Error(`typescript-from-openapi: unsupported type ${type}`);
  }
}

function objectType(schema: SchemaObject, readonlyArrays: boolean): string {
  const properties = Object.entries(schema.properties ?? {});
  const { additionalProperties } = schema;
  if (properties.length === 0) {
    if (additionalProperties === false) return "Record<string, never>";
    return typeof additionalProperties === "object"
      ? `Record<string, ${typeOf(additionalProperties, readonlyArrays)}>`
      : "Record<string, unknown>";
  }
  return `{\n${members(schema, readonlyArrays)}}`;
}

function members(schema: SchemaObject, readonlyArrays: boolean): string {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .map(([name, property]) => {
      const optional = required.has(name) ? "" : "?";
      return `${comment(property.description)}${propertyName(name)}${optional}: ${typeOf(property, readonlyArrays)};\n`;
    })
    .join("");
}

function component(name: string, schema: SchemaObject): string {
  const doc = comment(schema.description);
  if (schema.type === "object" && Object.keys(schema.properties ?? {}).length > 0) {
    return `${doc}export interface ${name} {\n${members(schema, false)}}\n`;
  }
  return `${doc}export type ${name} = ${typeOf(schema)};\n`;
}

const pascal = (id: string): string => `${id[0]!.toUpperCase()}${id.slice(1)}`;

interface Operation {
  id: string;
  method: string;
  path: string;
  definition: OperationObject;
}

function selectedOperations(document: OpenApiDocument, tags: readonly string[]): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, definition] of Object.entries(item)) {
      if (tags.includes(definition.tags?.[0] ?? ""))
        operations.push({ id: definition.operationId, method: method.toUpperCase(), path, definition });
    }
  }
  return operations;
}

/** The query parameter that carries the key, from the operation's security schemes; null when it takes none. */
function keyOf(document: OpenApiDocument, operation: Operation): { name: string; required: boolean } | null {
  const requirements = operation.definition.security ?? [];
  const schemes = requirements.flatMap((requirement) => Object.keys(requirement)).map((name) => document.components.securitySchemes[name]);
  const inQuery = schemes.find((scheme) => scheme?.type === "apiKey" && scheme.in === "query");
  if (!inQuery?.name) return null;
  return { name: inQuery.name, required: !requirements.some((requirement) => Object.keys(requirement).length === 0) };
}

function paramsInterface(name: string, operation: Operation): string {
  // Path parameters are given with the query's: the client puts them in the path.
  const parameters = (operation.definition.parameters ?? []).filter((p) => (p.in === "query" || p.in === "path") && !p.deprecated);
  const body = parameters
    .map((p) => `${comment(p.description)}${propertyName(p.name)}${p.required ? "" : "?"}: ${typeOf(p.schema, true)};\n`)
    .join("");
  const summary = comment(`The query parameters of ${operation.method} ${operation.path} (${operation.definition.summary}).`);
  // An empty interface would accept any object: an operation without parameters takes none.
  if (body === "") return `${summary}export type ${name} = Record<string, never>;\n`;
  return `${summary}export interface ${name} {\n${body}}\n`;
}

function answerType(operation: Operation): string {
  const success = Object.entries(operation.definition.responses).find(([status]) => /^2\d\d$/.test(status));
  const schema = success?.[1].content?.["application/json"]?.schema;
  return schema ? typeOf(schema) : "never";
}

function bodyType(operation: Operation): string {
  const schema = operation.definition.requestBody?.content?.["application/json"]?.schema;
  return schema ? typeOf(schema) : "undefined";
}

/** The TypeScript source of the client's types, unformatted. */
export function typescriptFromOpenApi(document: OpenApiDocument, options: GenerateOptions): string {
  const operations = selectedOperations(document, options.tags);
  const parts: string[] = [options.header, ""];
  for (const [name, schema] of Object.entries(document.components.schemas)) parts.push(component(name, schema));
  for (const operation of operations) parts.push(paramsInterface(`${pascal(operation.id)}Params`, operation));
  parts.push(
    `${comment("Each operation's query parameters, request body (undefined: none) and success answer (never: it always fails).")}export interface Operations {`,
    ...operations.map(
      (operation) =>
        `${comment(`${operation.method} ${operation.path}: ${operation.definition.summary}`)}` +
        `${operation.id}: { params: ${pascal(operation.id)}Params; body: ${bodyType(operation)}; answer: ${answerType(operation)} };`,
    ),
    "}",
    "",
    `${comment("How each operation is called: its method and path, the query parameter that carries the key, whether it sends a body.")}export interface OperationInfo {`,
    'method: "GET" | "POST";',
    "path: string;",
    "key: { name: string; required: boolean } | null;",
    "body: boolean;",
    "}",
    "",
    "export const OPERATIONS = {",
    ...operations.map((operation) => {
      const info = {
        method: operation.method,
        path: operation.path,
        key: keyOf(document, operation),
        body: operation.definition.requestBody !== undefined,
      };
      return `${operation.id}: ${JSON.stringify(info)},`;
    }),
    "} as const satisfies Record<keyof Operations, OperationInfo>;",
    "",
  );
  return parts.join("\n");
}
