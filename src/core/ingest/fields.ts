import { toCents, formatCents } from "../money.js";
import { normaliseTimestamp } from "../timestamps.js";

/**
 * Thrown by ingest validation. `path` names the object and field the way an
 * operator finds it in their file: `products[3].variants[0].price`.
 */
export class InvalidInput extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
  }
}

const SHORT_TEXT_MAX = 1_000;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads typed fields out of one untrusted JSON object, naming the exact path of
 * the first problem. Defaults live at the call site, next to the field they fill.
 */
export class Fields {
  private constructor(
    private readonly source: Record<string, unknown>,
    readonly path: string,
  ) {}

  static of(value: unknown, path: string): Fields {
    if (!isPlainObject(value)) throw new InvalidInput(path, "must be a JSON object");
    return new Fields(value, path);
  }

  at(name: string): string {
    return `${this.path}.${name}`;
  }

  has(name: string): boolean {
    return this.source[name] !== undefined;
  }

  raw(name: string): unknown {
    return this.source[name];
  }

  fail(name: string, problem: string): never {
    throw new InvalidInput(this.at(name), problem);
  }

  /** A positive integer id; numeric strings are accepted because some exports quote ids. */
  id(name: string): number {
    const id = parseId(this.source[name]);
    if (id === null) this.fail(name, this.has(name) ? "must be a positive integer id" : "is required");
    return id;
  }

  optionalId(name: string): number | null {
    const value = this.source[name];
    if (value === undefined || value === null) return null;
    return this.id(name);
  }

  string(name: string, fallback?: string, max = SHORT_TEXT_MAX): string {
    const value = this.source[name];
    if (value === undefined || value === null) {
      if (fallback === undefined) this.fail(name, "is required");
      return fallback;
    }
    if (typeof value !== "string") this.fail(name, "must be a string");
    if (value.length > max) this.fail(name, `must be at most ${max} characters`);
    return value;
  }

  nonEmptyString(name: string, max = SHORT_TEXT_MAX): string {
    const value = this.string(name, undefined, max);
    if (value.trim() === "") this.fail(name, "must not be empty");
    return value;
  }

  nullableString(name: string, max = SHORT_TEXT_MAX): string | null {
    const value = this.source[name];
    if (value === undefined || value === null) return null;
    return this.string(name, undefined, max);
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.source[name];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "boolean") this.fail(name, "must be true or false");
    return value;
  }

  integer(name: string, fallback: number, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number {
    const value = this.source[name];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "number" || !Number.isSafeInteger(value)) this.fail(name, "must be an integer");
    if (value < min) this.fail(name, `must be at least ${min}`);
    if (value > max) this.fail(name, `must be at most ${max}`);
    return value;
  }

  number(name: string, fallback: number): number {
    const value = this.source[name];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "number" || !Number.isFinite(value)) this.fail(name, "must be a number");
    return value;
  }

  /** A decimal amount, returned in the platform's two-decimal string form. */
  decimal(name: string): string {
    const value = this.source[name];
    if (value === undefined || value === null) this.fail(name, "is required");
    const cents = toCents(value);
    if (cents === null || cents < 0) this.fail(name, 'must be a non-negative decimal amount like "19.99"');
    return formatCents(cents);
  }

  nullableDecimal(name: string): string | null {
    const value = this.source[name];
    if (value === undefined || value === null || value === "") return null;
    return this.decimal(name);
  }

  timestamp(name: string, fallback?: string): string {
    const value = this.source[name];
    if (value === undefined || value === null) {
      if (fallback === undefined) this.fail(name, "is required");
      return fallback;
    }
    const normalised = typeof value === "string" ? normaliseTimestamp(value) : null;
    if (normalised === null) this.fail(name, "must be an ISO 8601 timestamp with a UTC offset");
    return normalised;
  }

  nullableTimestamp(name: string): string | null {
    const value = this.source[name];
    if (value === undefined || value === null) return null;
    return this.timestamp(name);
  }

  array(name: string, required = false): unknown[] {
    const value = this.source[name];
    if (value === undefined || value === null) {
      if (required) this.fail(name, "is required");
      return [];
    }
    if (!Array.isArray(value)) this.fail(name, "must be an array");
    return value;
  }

  idList(name: string): number[] {
    return this.array(name).map((value, index) => {
      const id = parseId(value);
      if (id === null) throw new InvalidInput(`${this.at(name)}[${index}]`, "must be a positive integer id");
      return id;
    });
  }

  stringList(name: string): string[] {
    return this.array(name).map((value, index) => {
      if (typeof value !== "string") throw new InvalidInput(`${this.at(name)}[${index}]`, "must be a string");
      return value;
    });
  }

  /** Nested objects of an array field, each with its own path. */
  objects(name: string, required = false): Fields[] {
    return this.array(name, required).map((value, index) => Fields.of(value, `${this.at(name)}[${index}]`));
  }

  optionalObject(name: string): Fields | null {
    const value = this.source[name];
    if (value === undefined || value === null) return null;
    return Fields.of(value, this.at(name));
  }
}

/** Rejects fields the format does not have: a misspelt `exit_if_match` would otherwise be ignored without a word. */
export function onlyKnown(value: unknown, path: string, known: readonly string[]): Fields {
  const fields = Fields.of(value, path);
  for (const name of Object.keys(value as Record<string, unknown>)) {
    if (!known.includes(name)) fields.fail(name, `is not a field of this object (fields: ${known.join(", ")})`);
  }
  return fields;
}

export function parseId(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value === "string" && /^[1-9]\d{0,15}$/.test(value)) {
    const id = Number(value);
    return Number.isSafeInteger(id) ? id : null;
  }
  return null;
}

export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
