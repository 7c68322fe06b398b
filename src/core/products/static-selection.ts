import type { CatalogReader } from "./catalog.js";
import type { StaticSelection } from "./query.js";

export function hasStaticSelection(selection: StaticSelection): boolean {
  return selection.ids.length > 0 || selection.handles.length > 0 || selection.collectionId !== null || selection.productIds.length > 0;
}

/**
 * Static's candidates in the caller's order: ids, then handles, then the
 * collection's products. platform_product_ids restricts that selection, or is
 * the selection itself when nothing else is given (the spec's "when omitted,
 * platform_product_ids is used instead").
 */
export function staticCandidates(
  catalog: CatalogReader,
  selection: StaticSelection,
): { candidates: number[]; restrictTo: number[] | null } {
  const explicit = selection.ids.length > 0 || selection.handles.length > 0 || selection.collectionId !== null;
  if (!explicit) return { candidates: selection.productIds, restrictTo: null };
  const candidates = [...selection.ids];
  for (const handle of selection.handles) {
    const id = catalog.productIdByHandle(handle);
    if (id !== undefined) candidates.push(id);
  }
  if (selection.collectionId !== null) {
    candidates.push(...(catalog.collection(selection.collectionId)?.product_ids ?? []));
  }
  return { candidates, restrictTo: selection.productIds.length > 0 ? selection.productIds : null };
}
