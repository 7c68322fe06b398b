// Validation of a custom source as the admin API and `aisle import` take it:
// the first problem is an InvalidInput naming its place, `rules[2].if.conditions[0].operator`,
// and a source that fails is never written. References to products and
// collections the shop does not have are valid (they may come later): see sourceReferences.
import { Fields, InvalidInput, isPlainObject, onlyKnown, parseId } from "../ingest/fields.js";
import { toCents } from "../money.js";
import { MAX_LIMIT } from "../params/parse.js";
import {
  BUILT_IN_SOURCES,
  FIELD_NAMES,
  FIELDS,
  MAX_CONDITIONS,
  MAX_PINS,
  MAX_RULES,
  MAX_VALUES,
  NUMERIC_OPERATORS,
  OPERATORS,
  RECOMMENDED_CONTEXTS,
  RETURN_KINDS,
  SOURCE_ID,
  type BuiltInSource,
  type Condition,
  type ConditionValue,
  type CustomSource,
  type FieldKind,
  type ProductMarks,
  type Rule,
  type RuleIf,
  type RuleReturn,
} from "./definition.js";

const MAX_NAME = 200;
const MAX_DESCRIPTION = 2_000;
/** The longest text a rule compares or returns by: longer catalogue values are never named by one. */
export const MAX_TEXT_VALUE = 255;

function oneOf<T extends string>(fields: Fields, name: string, allowed: readonly T[]): T {
  const value = fields.raw(name);
  if (value === undefined || value === null) fields.fail(name, "is required");
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value))
    fields.fail(name, `must be one of ${allowed.join(", ")}`);
  return value as T;
}

function limitedArray(fields: Fields, name: string, max: number, required = false): unknown[] {
  const items = fields.array(name, required);
  if (items.length > max) fields.fail(name, `must have at most ${max} values`);
  return items;
}

function texts(fields: Fields, name: string, max = MAX_VALUES): string[] {
  return limitedArray(fields, name, max).map((value, index) => text(value, `${fields.at(name)}[${index}]`));
}

function ids(fields: Fields, name: string, max = MAX_VALUES): number[] {
  return limitedArray(fields, name, max).map((value, index) => {
    const id = parseId(value);
    if (id === null) throw new InvalidInput(`${fields.at(name)}[${index}]`, "must be a positive integer id");
    return id;
  });
}

/** Texts compare without case or surrounding spaces: stored as they compare. */
function text(value: unknown, path: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new InvalidInput(path, "must be a non-empty string");
  if (value.length > MAX_TEXT_VALUE) throw new InvalidInput(path, `must be at most ${MAX_TEXT_VALUE} characters`);
  return value.trim().toLowerCase();
}

function conditionValue(kind: FieldKind, value: unknown, path: string): ConditionValue {
  switch (kind) {
    case "text":
      return text(value, path);
    case "id": {
      const id = parseId(value);
      if (id === null) throw new InvalidInput(path, "must be a positive integer id");
      return id;
    }
    case "number": {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof number !== "number" || !Number.isFinite(number)) throw new InvalidInput(path, "must be a number");
      return number;
    }
    case "money": {
      const cents = toCents(value);
      if (cents === null) throw new InvalidInput(path, 'must be a decimal amount like "30.00"');
      return cents;
    }
  }
}

function condition(fields: Fields): Condition {
  const field = oneOf(fields, "field", FIELD_NAMES);
  const operator = oneOf(fields, "operator", OPERATORS);
  const { kind } = FIELDS[field];
  const numericOperator = NUMERIC_OPERATORS.includes(operator);
  if (numericOperator && kind !== "number" && kind !== "money")
    fields.fail("operator", `${operator} compares numbers: ${field} is not one`);
  const raw = limitedArray(fields, "values", MAX_VALUES, true);
  if (raw.length === 0) fields.fail("values", "must have at least one value");
  if (numericOperator && raw.length !== 1) fields.fail("values", `${operator} takes exactly one value`);
  const values = raw.map((value, index) => conditionValue(kind, value, `${fields.at("values")}[${index}]`));
  return { field, operator, values };
}

function ruleIf(fields: Fields): RuleIf {
  const join = fields.has("join") ? oneOf(fields, "join", ["and", "or"] as const) : "and";
  const items = limitedArray(fields, "conditions", MAX_CONDITIONS, true);
  if (items.length === 0) fields.fail("conditions", "must have at least one condition (leave out if for a rule that always matches)");
  const conditions = items.map((item, index) =>
    condition(onlyKnown(item, `${fields.at("conditions")}[${index}]`, ["field", "operator", "values"])),
  );
  return { join, conditions };
}

function builtIn(fields: Fields, name: string): BuiltInSource {
  return oneOf(fields, name, BUILT_IN_SOURCES);
}

function ruleReturn(value: unknown, path: string): RuleReturn {
  const kind = oneOf(Fields.of(value, path), "kind", RETURN_KINDS);
  switch (kind) {
    case "products": {
      const fields = onlyKnown(value, path, ["kind", "product_ids"]);
      const productIds = ids(fields, "product_ids");
      if (productIds.length === 0) fields.fail("product_ids", "must have at least one id");
      return { kind, product_ids: productIds };
    }
    case "collection":
      return { kind, collection_id: onlyKnown(value, path, ["kind", "collection_id"]).id("collection_id") };
    case "tags":
    case "vendors":
    case "product_types": {
      const fields = onlyKnown(value, path, ["kind", kind]);
      const values = texts(fields, kind);
      if (values.length === 0) fields.fail(kind, "must have at least one value");
      return { kind, [kind]: values } as RuleReturn;
    }
    case "input_products":
    case "nothing":
      onlyKnown(value, path, ["kind"]);
      return { kind };
    case "source": {
      const fields = onlyKnown(value, path, ["kind", "source", "context"]);
      const source = builtIn(fields, "source");
      if (!fields.has("context")) return { kind, source };
      if (source !== "recommended") fields.fail("context", "only recommended takes a context");
      return { kind, source, context: oneOf(fields, "context", RECOMMENDED_CONTEXTS) };
    }
  }
}

function marks(fields: Fields, name: string): ProductMarks {
  const nested = fields.optionalObject(name);
  if (nested === null) return { tags: [], collection_ids: [] };
  const known = onlyKnown(fields.raw(name), fields.at(name), ["tags", "collection_ids"]);
  return { tags: texts(known, "tags"), collection_ids: ids(known, "collection_ids") };
}

function rule(value: unknown, path: string): Rule {
  const fields = onlyKnown(value, path, ["if", "return", "exit_if_matched", "pin", "boost", "bury", "exclude"]);
  if (!fields.has("return")) fields.fail("return", "is required");
  const exclude = fields.optionalObject("exclude");
  const excluded = exclude === null ? null : onlyKnown(fields.raw("exclude"), fields.at("exclude"), ["product_ids", "collection_ids"]);
  const pins = limitedArray(fields, "pin", MAX_PINS).map((item, index) => {
    const pin = onlyKnown(item, `${fields.at("pin")}[${index}]`, ["product_id", "position"]);
    const position = pin.integer("position", Number.NaN, 1);
    if (Number.isNaN(position)) pin.fail("position", "is required");
    if (position > MAX_LIMIT) pin.fail("position", `must be at most ${MAX_LIMIT}, the largest limit`);
    return { product_id: pin.id("product_id"), position };
  });
  const condition = fields.optionalObject("if");
  return {
    if: condition === null ? null : ruleIf(onlyKnown(fields.raw("if"), fields.at("if"), ["join", "conditions"])),
    return: ruleReturn(fields.raw("return"), fields.at("return")),
    exit_if_matched: fields.boolean("exit_if_matched", false),
    pin: pins,
    boost: marks(fields, "boost"),
    bury: marks(fields, "bury"),
    exclude: { product_ids: excluded ? ids(excluded, "product_ids") : [], collection_ids: excluded ? ids(excluded, "collection_ids") : [] },
  };
}

/**
 * A custom source from untrusted JSON, in its stored form (texts trimmed and
 * lower case, money in cents, defaults filled in). `id`: the id the path
 * names, which the body's may only repeat.
 */
export function validateSource(value: unknown, id?: string): CustomSource {
  if (!isPlainObject(value)) throw new InvalidInput("source", "must be a JSON object");
  const fields: Fields = onlyKnown(value, "source", ["id", "name", "description", "rules", "fallback"]);
  const bodyId = fields.has("id") ? fields.string("id") : undefined;
  if (id !== undefined && bodyId !== undefined && bodyId !== id) fields.fail("id", `must be ${id}, the id in the path`);
  const sourceId = id ?? bodyId;
  if (sourceId === undefined) fields.fail("id", "is required");
  if (!SOURCE_ID.test(sourceId))
    fields.fail("id", "must be 1 to 64 lower-case letters, digits, - or _, starting with a letter or digit (it is a URL path segment)");
  const rules = limitedArray(fields, "rules", MAX_RULES, true);
  return {
    id: sourceId,
    name: fields.nonEmptyString("name", MAX_NAME),
    description: fields.string("description", "", MAX_DESCRIPTION),
    // Paths name rules from the top of the source: `rules[2]` is the third rule.
    rules: rules.map((item, index) => rule(item, `rules[${index}]`)),
    fallback: fields.has("fallback") && fields.raw("fallback") !== null ? builtIn(fields, "fallback") : null,
  };
}

/** A product or collection a source names, and where. */
export interface SourceReference {
  path: string;
  kind: "product" | "collection";
  id: number;
}

/** Every product and collection the source names: those the shop lacks are the answer's warnings. */
export function sourceReferences(source: CustomSource): SourceReference[] {
  const found: SourceReference[] = [];
  const add = (path: string, kind: SourceReference["kind"], list: readonly number[]) =>
    list.forEach((id, index) => found.push({ path: `${path}[${index}]`, kind, id }));
  source.rules.forEach((rule, r) => {
    const at = `rules[${r}]`;
    rule.if?.conditions.forEach((condition, c) => {
      const path = `${at}.if.conditions[${c}].values`;
      if (condition.field === "cart.product_ids") add(path, "product", condition.values as number[]);
      if (condition.field === "product.collection_ids") add(path, "collection", condition.values as number[]);
    });
    if (rule.return.kind === "products") add(`${at}.return.product_ids`, "product", rule.return.product_ids);
    if (rule.return.kind === "collection")
      found.push({ path: `${at}.return.collection_id`, kind: "collection", id: rule.return.collection_id });
    rule.pin.forEach((pin, p) => found.push({ path: `${at}.pin[${p}].product_id`, kind: "product", id: pin.product_id }));
    add(`${at}.boost.collection_ids`, "collection", rule.boost.collection_ids);
    add(`${at}.bury.collection_ids`, "collection", rule.bury.collection_ids);
    add(`${at}.exclude.product_ids`, "product", rule.exclude.product_ids);
    add(`${at}.exclude.collection_ids`, "collection", rule.exclude.collection_ids);
  });
  return found;
}

/** What the shop has, for warnings. */
export interface CatalogueLookup {
  product(id: number): boolean;
  collection(id: number): boolean;
}

/** The references the shop lacks, one line each: `rules[1].return.product_ids[0]: no product 7100000099999`. */
export function referenceWarnings(source: CustomSource, has: CatalogueLookup): string[] {
  return sourceReferences(source)
    .filter((reference) => !has[reference.kind](reference.id))
    .map((reference) => `${reference.path}: no ${reference.kind} ${reference.id}`);
}
