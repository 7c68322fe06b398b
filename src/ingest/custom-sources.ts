// Writing merchants' custom sources, for the admin API and `aisle import`:
// every source is validated before any is written, and the write names the
// products and collections the sources refer to that the shop lacks (accepted:
// they may be imported later).
import type { CustomSource } from "../core/sources/definition.js";
import { referenceWarnings, validateSource } from "../core/sources/validate.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

/** What a write of sources tells its caller. */
export interface SourcesWritten {
  sources: CustomSource[];
  /** The merchant's sources version after the write. */
  version: number;
  warnings: string[];
}

/** The references of `source` the merchant's catalogue lacks. */
export function catalogueWarnings(store: Store, merchant: MerchantId, source: CustomSource): string[] {
  return referenceWarnings(source, {
    product: (id) => store.catalogue.product(merchant, id) !== undefined,
    collection: (id) => store.catalogue.collection(merchant, id) !== undefined,
  });
}

/**
 * Validates each source (an InvalidInput names the first problem, prefixed by
 * `where` when the batch has several) and writes them all in one transaction.
 * `pathId`: the id the URL names. `onlyNew`: an existing id fails the write.
 */
export async function writeSources(
  store: Store,
  merchant: MerchantId,
  inputs: readonly unknown[],
  options: { pathId?: string; onlyNew?: boolean } = {},
): Promise<SourcesWritten> {
  const sources = inputs.map((input) => validateSource(input, options.pathId));
  const version = await store.customSources.put(merchant, sources, { onlyNew: options.onlyNew ?? false });
  return { sources, version, warnings: sources.flatMap((source) => catalogueWarnings(store, merchant, source)) };
}
