// PATCH: a partial record merged into the stored one, then written as every
// write is (the same validation, transaction and versions). Top-level fields
// replace; lists of objects with ids (variants, options, images, metafields,
// addresses) merge element by element, so a price-only update keeps the rest.
import { isPlainObject } from "../core/ingest/fields.js";
import type { MerchantId } from "../core/types.js";
import type { RecordBatch, RecordKind } from "../stores/catalogue-store.js";
import type { Store } from "../stores/store.js";
import { checkBatch } from "./ingest.js";
import { readRecord } from "./read-back.js";

/** The kinds PATCH takes; orders and markets are written whole (the platform sends them whole). */
export const PATCHABLE_KINDS = ["products", "collections", "customers"] as const satisfies readonly RecordKind[];
export type PatchableKind = (typeof PATCHABLE_KINDS)[number];

export function isPatchable(kind: string): kind is PatchableKind {
  return (PATCHABLE_KINDS as readonly string[]).includes(kind);
}

/** The lists merged by id, per kind; nested ones (a variant's metafields) merge too. */
const MERGED_LISTS: Record<PatchableKind, readonly string[]> = {
  products: ["variants", "options", "images", "metafields"],
  collections: [],
  customers: ["addresses"],
};

/** A record as the admin API reads it back and takes it, and a patch of one. */
export type RecordJson = Record<string, unknown>;

/**
 * Merges `patch` into the record as stored when the write is applied, and
 * writes it (validated as every write is, an InvalidInput naming a bad
 * field), reading and writing in one transaction: patches and other writes
 * that race apply one after another, none undoing another. Answers the record
 * as written; null when there is no such record (deleted meanwhile, perhaps),
 * and nothing is written.
 */
export function patchRecord(
  store: Store,
  merchant: MerchantId,
  kind: PatchableKind,
  id: number,
  patch: RecordJson,
  now: string,
): Promise<RecordJson | null> {
  return store.catalogue.rewrite(
    merchant,
    () => {
      const stored = readRecord(store, merchant, kind, id);
      return stored === undefined ? null : patchedBatch(kind, stored, patch, now);
    },
    () => readRecord(store, merchant, kind, id)!,
  );
}

/**
 * Throws what patching the record as this node holds it now would throw (an
 * InvalidInput naming the field), writing nothing: a cluster node checks a
 * patch before publishing it, so nearly every invalid one reaches no stream.
 * The word is the apply's, on the record as the stream leaves it; a record
 * this node does not hold (yet) is not checked here.
 */
export function checkPatch(store: Store, merchant: MerchantId, kind: PatchableKind, id: number, patch: RecordJson, now: string): void {
  const stored = readRecord(store, merchant, kind, id);
  if (stored !== undefined) patchedBatch(kind, stored, patch, now);
}

function patchedBatch(kind: PatchableKind, stored: RecordJson, patch: RecordJson, now: string): RecordBatch {
  const batch = checkBatch(kind, [mergePatch(kind, stored, patch)], now);
  // Never: a batch is of the kind it was checked as, and orders and markets are not patched.
  if (batch.kind === "orders" || batch.kind === "markets") throw new Error(`${batch.kind} are written whole`);
  return batch;
}

/** `stored` with `patch` merged in; fields the write fills in itself (updated_at, the gid) are left to it. */
function mergePatch(kind: PatchableKind, stored: RecordJson, patch: RecordJson): RecordJson {
  const merged = mergeObject(stored, patch, MERGED_LISTS[kind]);
  // A change is an update now, unless the patch says when.
  if (patch.updated_at === undefined) delete merged.updated_at;
  return merged;
}

function mergeObject(stored: RecordJson, patch: RecordJson, lists: readonly string[]): RecordJson {
  const merged: RecordJson = { ...stored };
  for (const [name, value] of Object.entries(patch)) {
    // JSON.parse makes "__proto__" a field like any other; assigned, it would replace the record's prototype.
    if (name === "__proto__") continue;
    merged[name] =
      lists.includes(name) && Array.isArray(value) && Array.isArray(stored[name]) ? mergeById(stored[name], value, lists) : value;
  }
  return merged;
}

/** Elements with the id of a stored one update it; others are added; stored ones the patch does not name stay. */
function mergeById(stored: unknown[], patch: unknown[], lists: readonly string[]): unknown[] {
  const merged = [...stored];
  for (const element of patch) {
    const at =
      isPlainObject(element) && element.id !== undefined
        ? merged.findIndex((item) => isPlainObject(item) && sameId(item.id, element.id))
        : -1;
    if (at === -1 || !isPlainObject(element)) {
      merged.push(element);
      continue;
    }
    const updated = mergeObject(merged[at] as RecordJson, element, lists);
    if (element.updated_at === undefined) delete updated.updated_at;
    merged[at] = updated;
  }
  return merged;
}

/** Ids may come as numbers or numeric strings. */
function sameId(a: unknown, b: unknown): boolean {
  return String(a) === String(b);
}
