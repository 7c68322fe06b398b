import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { InvalidInput, isPlainObject } from "../core/ingest/fields.js";
import { formatTimestamp } from "../core/timestamps.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { INGEST_KINDS, isIngestKind, validateBatch, writeBatch, type IngestKind, type ValidBatch } from "./ingest.js";
import { parseObjects } from "./payload.js";

/** Objects are written in transactions of this many, so progress can be shown and memory stays flat. */
const WRITE_CHUNK = 1_000;

export interface ImportProgress {
  start(total: number): void;
  advance(count: number): void;
  stop(): void;
}

/**
 * The kind of a file's objects: as told, or from the file name
 * (`products.ndjson`, `shop-orders.json`), or per key of a bundle object
 * `{products: [...], orders: [...]}`.
 */
function batchesOfFile(file: string, told: IngestKind | undefined, now: string): ValidBatch[] {
  const text = readFileSync(file, "utf8");
  const name = basename(file);
  const fromName = INGEST_KINDS.find((kind) => name.toLowerCase().includes(kind));
  const kind = told ?? fromName;
  if (kind) return [validateBatch(kind, parseObjects(text, name), now)];

  const [bundle] = parseObjects(text, name);
  if (!isPlainObject(bundle)) {
    throw new InvalidInput(name, `cannot tell what it holds: pass --type (${INGEST_KINDS.join(", ")}) or name the file after its kind`);
  }
  return Object.entries(bundle).map(([key, items]) => {
    if (!isIngestKind(key)) throw new InvalidInput(`${name}.${key}`, `is not one of ${INGEST_KINDS.join(", ")}`);
    if (!Array.isArray(items)) throw new InvalidInput(`${name}.${key}`, "must be an array");
    return validateBatch(key, items, now);
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
