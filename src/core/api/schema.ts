// JSON Schemas (the 2020-12 dialect OpenAPI 3.1 uses) built from typed parts:
// each schema carries, for the compiler only, the TypeScript type it documents,
// and an object schema must name every field of that type with a schema of the
// field's exact type. A field added to a serialized type without its schema,
// a nullable field documented as never null, or an optional one documented as
// always there, fails the type check.

/** A JSON Schema as plain data, ready for a JSON document. */
export type JsonSchema = { readonly [keyword: string]: unknown };

declare const documents: unique symbol;

/**
 * A JSON Schema of values of type T. T is checked both ways (the marker is a
 * function of T to T): a schema of "active" does not pass for a string field,
 * nor one of string for a string-or-null field.
 */
export type Schema<T> = JsonSchema & { readonly [documents]?: (value: T) => T };

/** Annotations any schema may carry. */
export interface Annotations {
  description?: string;
  examples?: readonly unknown[];
  deprecated?: boolean;
}

/** The keys of T that may be left out. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/** The fields of T, each with the schema of its exact type; a field T may leave out takes `optional(…)`. */
export type Fields<T> = { [K in keyof T]-?: K extends OptionalKeys<T> ? Schema<T[K] | undefined> : Schema<T[K]> };

/** The one place a schema is given its type: each builder below states what its JSON describes. */
const describing = <T>(json: JsonSchema): Schema<T> => json as Schema<T>;

/** Schemas made by optional(): an object leaves their fields out of `required`. */
const optionalSchemas = new WeakSet<object>();

export const integer = (annotations: Annotations & { minimum?: number; maximum?: number } = {}): Schema<number> =>
  describing({ type: "integer", ...annotations });

export const number = (annotations: Annotations = {}): Schema<number> => describing({ type: "number", ...annotations });

export const boolean = (annotations: Annotations = {}): Schema<boolean> => describing({ type: "boolean", ...annotations });

export const string = (
  annotations: Annotations & { pattern?: string; format?: string; maxLength?: number; enum?: readonly string[] } = {},
): Schema<string> => describing({ type: "string", ...annotations });

/** Exactly one of `values`: for fields whose type is that union. */
export const literal = <const V extends string | boolean>(values: readonly V[], annotations: Annotations = {}): Schema<V> =>
  describing({ type: typeof values[0] === "boolean" ? "boolean" : "string", enum: values, ...annotations });

/** Any JSON value: for data kept as the platform sent it, whose fields the spec does not show. */
export const anyValue = (annotations: Annotations = {}): Schema<unknown> => describing({ ...annotations });

export const array = <T>(items: Schema<T>, annotations: Annotations & { maxItems?: number } = {}): Schema<T[]> =>
  describing({ type: "array", items, ...annotations });

/** An object whose fields, named by data (ids, for example), all hold values of one schema. */
export const record = <T>(values: Schema<T>, annotations: Annotations = {}): Schema<Record<string, T>> =>
  describing({ type: "object", additionalProperties: values, ...annotations });

/** T or null: a type list for plain types, anyOf around a reference. */
export function nullable<T>(schema: Schema<T>, annotations: Annotations = {}): Schema<T | null> {
  if (typeof schema.type === "string" && schema.enum === undefined)
    return describing({ ...schema, type: [schema.type, "null"], ...annotations });
  return describing({ anyOf: [schema, { type: "null" }], ...annotations });
}

/** A value of either schema. */
export const union = <A, B>(a: Schema<A>, b: Schema<B>, annotations: Annotations = {}): Schema<A | B> =>
  describing({ anyOf: [a, b], ...annotations });

/** A field that may be absent. */
export function optional<T>(schema: Schema<T>): Schema<T | undefined> {
  const marked = describing<T | undefined>({ ...schema });
  optionalSchemas.add(marked);
  return marked;
}

/**
 * An object of exactly these fields, in this order: every field not made
 * optional is required, and no other field may appear (a serializer that
 * starts writing one fails validation until it is documented).
 */
export function object<T>(fields: Fields<T>, annotations: Annotations = {}): Schema<T> {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, schema] of Object.entries(fields) as [string, JsonSchema][]) {
    properties[name] = schema;
    if (!optionalSchemas.has(schema)) required.push(name);
  }
  return describing({ type: "object", properties, required, additionalProperties: false, ...annotations });
}

/** As `object`, but other fields may appear: a request body that ignores the fields it does not read. */
export function objectIgnoringOthers<T>(fields: Fields<T>, annotations: Annotations = {}): Schema<T> {
  return describing({ ...object(fields, annotations), additionalProperties: true });
}

/** Named schemas, listed under components.schemas and referred to by $ref. */
export class SchemaComponents {
  private readonly byName = new Map<string, JsonSchema>();

  /** Registers `schema` as `name` and answers a reference to it. */
  add<T>(name: string, schema: Schema<T>): Schema<T> {
    if (this.byName.has(name)) throw new Error(`schema component ${name} is defined twice`);
    this.byName.set(name, schema);
    return describing({ $ref: `#/components/schemas/${name}` });
  }

  /** components.schemas of an OpenAPI document. */
  all(): Record<string, JsonSchema> {
    return Object.fromEntries(this.byName);
  }
}
