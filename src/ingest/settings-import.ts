// What `aisle import` writes besides the catalogue: custom sources (a JSON
// array or NDJSON of sources, as the admin API takes each) and search settings
// (one JSON object). Each is validated as the admin API validates it and
// written through the admin API's own path, after the catalogue they refer to.
import { InvalidInput } from "../core/ingest/fields.js";
import { validateSearchSettings } from "../core/search/merchandising/validate.js";
import { validateSource } from "../core/sources/validate.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { catalogueWarnings, writeSources } from "./custom-sources.js";
import { writeSearchSettings } from "./search-settings.js";

export const SETTINGS_KINDS = ["sources", "search-settings"] as const;
export type SettingsKind = (typeof SETTINGS_KINDS)[number];

export function isSettingsKind(value: string): value is SettingsKind {
  return (SETTINGS_KINDS as readonly string[]).includes(value);
}

/**
 * Checks a file's objects as a whole before each is checked: a search
 * settings file holds exactly one (an empty list was taken, and then nothing
 * was there to write after the catalogue had been written).
 */
export function checkSettingsCount(file: string, kind: SettingsKind, count: number): void {
  if (kind === "search-settings" && count !== 1)
    throw new InvalidInput(file, `holds ${count} search settings objects, where a file holds one; nothing was written`);
}

/**
 * Checks one object of a file; an InvalidInput names it by its place in the
 * file (`sources[2].rules[0].return.kind`). The objects are written as read:
 * validation turns them into their stored form, which is not for validating again.
 */
export function checkSettingsObject(kind: SettingsKind, item: unknown, index: number): void {
  if (kind === "search-settings") {
    validateSearchSettings(item);
    return;
  }
  try {
    validateSource(item);
  } catch (error) {
    if (!(error instanceof InvalidInput)) throw error;
    // Named from the file's top: "source.name" is the source's own field, "rules[0]…" one of its rules'.
    const own = error.path === "source" || error.path.startsWith("source.");
    throw new InvalidInput(`${kind}[${index}]${own ? error.path.slice("source".length) : `.${error.path}`}`, error.problem);
  }
}

/**
 * Writes a file's checked objects in one transaction; returns the products and
 * collections they name that the shop lacks, each line saying whose it is.
 */
export async function writeSettings(store: Store, merchant: MerchantId, kind: SettingsKind, items: readonly unknown[]): Promise<string[]> {
  if (kind === "search-settings") return (await writeSearchSettings(store, merchant, items[0])).warnings.map((line) => `${kind}: ${line}`);
  const { sources } = await writeSources(store, merchant, items);
  return sources.flatMap((source) => catalogueWarnings(store, merchant, source).map((line) => `source ${source.id}: ${line}`));
}
