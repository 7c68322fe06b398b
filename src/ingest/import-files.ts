import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { InvalidInput, isPlainObject } from "../core/ingest/fields.js";
import { formatTimestamp } from "../core/timestamps.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { INGEST_KINDS, validateBatch, writeBatch, type ValidBatch } from "./ingest.js";
import { parseObjectsWithLines } from "./payload.js";
import { checkSettingsCount, checkSettingsObject, isSettingsKind, SETTINGS_KINDS, writeSettings } from "./settings-import.js";

/** What a file may hold: catalogue records, then what refers to them (custom sources, search settings). */
export const IMPORT_KINDS = [...INGEST_KINDS, ...SETTINGS_KINDS] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export function isImportKind(value: string): value is ImportKind {
  return (IMPORT_KINDS as readonly string[]).includes(value);
}

/**
 * A file's objects of one kind, each checked, in the form they are written in.
 * Into a data dir: catalogue records in their stored form, settings as read
 * (their write validates them). To a cluster's stream: everything as read,
 * as the admin API's write commands carry objects (each node normalises them).
 */
export interface FileBatch {
  /** The file, and the bundle key within it: for messages. */
  file: string;
  kind: ImportKind;
  items: unknown[];
}

/** "stored": to write into a data dir; "read": to publish. */
export type BatchForm = "stored" | "read";

/** Objects are written in transactions of this many (on a cluster, at most this many to a message), so progress can be shown and memory stays flat. */
export const WRITE_CHUNK = 1_000;

export interface ImportProgress {
  start(total: number): void;
  advance(count: number): void;
  stop(): void;
}

/** Problems listed per file before giving up: enough to fix a file in one go, not a wall of text. */
const MAX_REPORTED = 20;

/** Some objects of a file are invalid: each named by file, NDJSON line (or array index) and field. Nothing was written. */
export class InvalidImport extends InvalidInput {
  constructor(file: string, problems: string[], total: number) {
    const shown = total > problems.length ? `, the first ${problems.length} listed` : "";
    super(
      file,
      `${total} invalid object${total === 1 ? "" : "s"}${shown}; nothing was written\n${problems.map((line) => `  ${line}`).join("\n")}`,
    );
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EACCES" ? "not readable" : String(code);
    throw new InvalidInput(file, `cannot be read: ${why}`);
  }
}

/** A bundle names its kinds as keys: {products: [...], orders: [...], sources: [...]}. */
function isBundle(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).some(isImportKind);
}

/**
 * Validates each object on its own, so every invalid one (up to MAX_REPORTED)
 * is reported at once, by NDJSON line when the file has lines.
 */
function validateFile(file: string, kind: ImportKind, items: unknown[], lines: number[] | null, now: string, form: BatchForm): FileBatch {
  const stored: unknown[] = [];
  const problems: string[] = [];
  let invalid = 0;
  if (isSettingsKind(kind)) checkSettingsCount(file, kind, items.length);
  items.forEach((item, index) => {
    try {
      if (isSettingsKind(kind)) checkSettingsObject(kind, item, index);
      else {
        const normalised = validateBatch(kind, [item], now, index).items;
        if (form === "stored") stored.push(...normalised);
      }
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error;
      invalid++;
      if (problems.length < MAX_REPORTED) problems.push(problemAt(error, kind, index, lines));
    }
  });
  if (invalid > 0) throw new InvalidImport(file, problems, invalid);
  return { file, kind, items: form === "stored" && !isSettingsKind(kind) ? stored : items };
}

/** "line 3: title: must not be empty" for NDJSON; "products[2].title: must not be empty" for a JSON array. */
function problemAt(error: InvalidInput, kind: ImportKind, index: number, lines: number[] | null): string {
  if (lines === null) return error.message;
  const prefix = `${kind}[${index}]`;
  const field = error.path.startsWith(`${prefix}.`) ? error.path.slice(prefix.length + 1) : null;
  return `line ${lines[index]}: ${field === null ? "" : `${field}: `}${error.problem}`;
}

/**
 * The kind of a file's objects: as told, or from the file name
 * (`products.ndjson`, `shop-orders.json`), or per key of a bundle object
 * `{products: [...], orders: [...]}`.
 */
function batchesOfFile(file: string, told: ImportKind | undefined, now: string, form: BatchForm): FileBatch[] {
  const text = readText(file);
  const name = basename(file);
  const fromName = IMPORT_KINDS.find((kind) => name.toLowerCase().includes(kind));
  const { items, lines } = parseObjectsWithLines(text, name);
  const kind = told ?? fromName;
  if (kind) return [validateFile(file, kind, items, lines, now, form)];

  const [bundle] = items;
  if (items.length !== 1 || !isBundle(bundle)) {
    throw new InvalidInput(
      file,
      `cannot tell what it holds: pass --type (${IMPORT_KINDS.join(", ")}) or name the file after its kind (products.ndjson)`,
    );
  }
  return Object.entries(bundle).map(([key, entries]) => {
    if (!isImportKind(key)) throw new InvalidInput(`${file}: ${key}`, `is not one of ${IMPORT_KINDS.join(", ")}`);
    // Search settings are one object; every other kind a list of them.
    const items = key === "search-settings" ? [entries] : entries;
    if (!Array.isArray(items)) throw new InvalidInput(`${file}: ${key}`, "must be an array");
    return validateFile(`${file}: ${key}`, key, items, null, now, form);
  });
}

/** What an import wrote: objects per kind, and the products and collections its sources and settings name that the shop lacks. */
export interface ImportResult {
  counts: Record<ImportKind, number>;
  warnings: string[];
}

/**
 * Every file read and each of its objects validated (an InvalidImport at the
 * first file with invalid ones), in the order they are to be written: products
 * first, as collections, orders and markets refer to them, and sources and
 * search settings to all of these. `now`: the time records are stamped with.
 */
export function readImportFiles(files: string[], type: ImportKind | undefined, now: string, form: BatchForm): FileBatch[] {
  const batches = files.flatMap((file) => batchesOfFile(file, type, now, form));
  const order = (batch: FileBatch) => IMPORT_KINDS.indexOf(batch.kind);
  return batches.sort((a, b) => order(a) - order(b));
}

/** Objects per kind in the batches. */
export function countsOf(batches: readonly FileBatch[]): Record<ImportKind, number> {
  const counts = Object.fromEntries(IMPORT_KINDS.map((kind) => [kind, 0])) as Record<ImportKind, number>;
  for (const batch of batches) counts[batch.kind] += batch.items.length;
  return counts;
}

/** Validates every file completely before writing anything, then writes in chunks. */
export async function importFiles(
  store: Store,
  merchant: MerchantId,
  files: string[],
  type: ImportKind | undefined,
  progress: ImportProgress,
): Promise<ImportResult> {
  const batches = readImportFiles(files, type, formatTimestamp(new Date()), "stored");
  const warnings: string[] = [];

  progress.start(batches.reduce((sum, batch) => sum + batch.items.length, 0));
  for (const batch of batches) {
    if (isSettingsKind(batch.kind)) {
      // Few objects, written whole: a file's sources replace each other's ids in one transaction.
      warnings.push(...(await writeSettings(store, merchant, batch.kind, batch.items)));
      progress.advance(batch.items.length);
    } else {
      for (let start = 0; start < batch.items.length; start += WRITE_CHUNK) {
        const items = batch.items.slice(start, start + WRITE_CHUNK);
        await writeBatch(store, merchant, { kind: batch.kind, items } as ValidBatch);
        progress.advance(items.length);
      }
    }
  }
  progress.stop();
  return { counts: countsOf(batches), warnings };
}
