import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { InvalidInput, isPlainObject } from "../core/ingest/fields.js";
import { formatTimestamp } from "../core/timestamps.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { INGEST_KINDS, isIngestKind, validateBatch, writeBatch, type IngestKind, type ValidBatch } from "./ingest.js";
import { parseObjectsWithLines } from "./payload.js";

/** Objects are written in transactions of this many, so progress can be shown and memory stays flat. */
const WRITE_CHUNK = 1_000;

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

/** A bundle names its kinds as keys: {products: [...], orders: [...]}. */
function isBundle(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).some(isIngestKind);
}

/**
 * Validates each object on its own, so every invalid one (up to MAX_REPORTED)
 * is reported at once, by NDJSON line when the file has lines.
 */
function validateFile(file: string, kind: IngestKind, items: unknown[], lines: number[] | null, now: string): ValidBatch {
  const valid: unknown[] = [];
  const problems: string[] = [];
  let invalid = 0;
  items.forEach((item, index) => {
    try {
      valid.push(...validateBatch(kind, [item], now, index).items);
    } catch (error) {
      if (!(error instanceof InvalidInput)) throw error;
      invalid++;
      if (problems.length < MAX_REPORTED) problems.push(problemAt(error, kind, index, lines));
    }
  });
  if (invalid > 0) throw new InvalidImport(file, problems, invalid);
  return { kind, items: valid } as ValidBatch;
}

/** "line 3: title: must not be empty" for NDJSON; "products[2].title: must not be empty" for a JSON array. */
function problemAt(error: InvalidInput, kind: IngestKind, index: number, lines: number[] | null): string {
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
function batchesOfFile(file: string, told: IngestKind | undefined, now: string): ValidBatch[] {
  const text = readText(file);
  const name = basename(file);
  const fromName = INGEST_KINDS.find((kind) => name.toLowerCase().includes(kind));
  const { items, lines } = parseObjectsWithLines(text, name);
  const kind = told ?? fromName;
  if (kind) return [validateFile(file, kind, items, lines, now)];

  const [bundle] = items;
  if (items.length !== 1 || !isBundle(bundle)) {
    throw new InvalidInput(
      file,
      `cannot tell what it holds: pass --type (${INGEST_KINDS.join(", ")}) or name the file after its kind (products.ndjson)`,
    );
  }
  return Object.entries(bundle).map(([key, entries]) => {
    if (!isIngestKind(key)) throw new InvalidInput(`${file}: ${key}`, `is not one of ${INGEST_KINDS.join(", ")}`);
    if (!Array.isArray(entries)) throw new InvalidInput(`${file}: ${key}`, "must be an array");
    return validateFile(`${file}: ${key}`, key, entries, null, now);
  });
}

/** Validates every file completely before writing anything, then writes in chunks. */
export async function importFiles(
  store: Store,
  merchant: MerchantId,
  files: string[],
  type: IngestKind | undefined,
  progress: ImportProgress,
): Promise<Record<IngestKind, number>> {
  const now = formatTimestamp(new Date());
  const batches = files.flatMap((file) => batchesOfFile(file, type, now));
  const counts = Object.fromEntries(INGEST_KINDS.map((kind) => [kind, 0])) as Record<IngestKind, number>;
  // Products first: collections, orders and markets refer to them.
  const order = (batch: ValidBatch) => INGEST_KINDS.indexOf(batch.kind);
  batches.sort((a, b) => order(a) - order(b));

  progress.start(batches.reduce((sum, batch) => sum + batch.items.length, 0));
  for (const batch of batches) {
    for (let start = 0; start < batch.items.length; start += WRITE_CHUNK) {
      const items = batch.items.slice(start, start + WRITE_CHUNK);
      await writeBatch(store, merchant, { kind: batch.kind, items } as ValidBatch);
      progress.advance(items.length);
    }
    counts[batch.kind] += batch.items.length;
  }
  progress.stop();
  return counts;
}
