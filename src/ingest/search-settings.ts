// Writing a merchant's search settings, for the admin API, `aisle import` and
// the demo seed: validated whole before anything is written, and the write
// names the products and collections they refer to that the shop lacks
// (accepted: they may be imported later).
import type { SearchSettings } from "../core/search/merchandising/settings.js";
import { settingsWarnings, validateSearchSettings } from "../core/search/merchandising/validate.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

/** What a write of settings (or a read of them) tells its caller. */
export interface SearchSettingsAnswer {
  settings: SearchSettings;
  version: number;
  warnings: string[];
}

/** The references of `settings` the merchant's catalogue lacks. */
function catalogueWarnings(store: Store, merchant: MerchantId, settings: SearchSettings): string[] {
  return settingsWarnings(settings, {
    product: (id) => store.catalogue.product(merchant, id) !== undefined,
    collection: (id) => store.catalogue.collection(merchant, id) !== undefined,
  });
}

/** The merchant's settings as stored, with their warnings as of the catalogue now. */
export function readSearchSettings(store: Store, merchant: MerchantId): SearchSettingsAnswer {
  const { settings, version } = store.searchSettings.get(merchant);
  return { settings, version, warnings: catalogueWarnings(store, merchant, settings) };
}

/** Validates `input` (an InvalidInput names the first problem; nothing is written then) and replaces the merchant's settings with it. */
export async function writeSearchSettings(store: Store, merchant: MerchantId, input: unknown): Promise<SearchSettingsAnswer> {
  const settings = validateSearchSettings(input);
  const version = await store.searchSettings.put(merchant, settings);
  return { settings, version, warnings: catalogueWarnings(store, merchant, settings) };
}
