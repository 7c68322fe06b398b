// PATCH: a partial record merged into the stored one, then written as every
// write is (the same validation, transaction and versions). Top-level fields
// replace; lists of objects with ids (variants, options, images, metafields,
// addresses) merge element by element, so a price-only update keeps the rest.
import { isPlainObject } from "../core/ingest/fields.js";
import type { RecordKind } from "../stores/catalogue-store.js";

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

type Json = Record<string, unknown>;

/** `stored` with `patch` merged in; fields the write fills in itself (updated_at, the gid) are left to it. */
export function mergePatch(kind: PatchableKind, stored: Json, patch: Json): Json {
  const merged = mergeObject(stored, patch, MERGED_LISTS[kind]);
  // A change is an update now, unless the patch says when.
  if (patch.updated_at === undefined) delete merged.updated_at;
  return merged;
}

function mergeObject(stored: Json, patch: Json, lists: readonly string[]): Json {
  const merged: Json = { ...stored };
  for (const [name, value] of Object.entries(patch)) {
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
    const updated = mergeObject(merged[at] as Json, element, lists);
    if (element.updated_at === undefined) delete updated.updated_at;
    merged[at] = updated;
  }
  return merged;
}

/** Ids may come as numbers or numeric strings. */
function sameId(a: unknown, b: unknown): boolean {
  return String(a) === String(b);
}
