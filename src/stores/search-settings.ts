// Merchants' search settings: one record per merchant, written whole, with a
// version moved by every write. The version is also kept apart, in a table of
// bare numbers: every search reads it (the HTTP thread for the cache key, the
// worker to know whether its compiled copy still holds), and it must not cost
// the decoding of a record of hundreds of keyword groups. A reset stores the
// empty settings at a new version instead of removing the record, so a
// version never comes back to mean other settings than it meant before.
import type { Database, RootDatabase } from "lmdb";
import { noSearchSettings, type SearchSettings, type StoredSearchSettings } from "../core/search/merchandising/settings.js";
import type { MerchantId } from "../core/types.js";

export class SearchSettingsStore {
  private readonly records: Database<StoredSearchSettings, MerchantId>;
  private readonly versions: Database<number, MerchantId>;

  constructor(private readonly root: RootDatabase) {
    const shared = { encoding: "msgpack" as const, sharedStructuresKey: Symbol.for("structures") };
    this.records = root.openDB<StoredSearchSettings, MerchantId>({ name: "search_settings", ...shared });
    this.versions = root.openDB<number, MerchantId>({ name: "search_settings_versions", ...shared });
  }

  /** Moves with every write of the merchant's settings (0: never written). */
  version(merchant: MerchantId): number {
    return this.versions.get(merchant) ?? 0;
  }

  /** The merchant's settings; the empty ones at version 0 when it never wrote any. */
  get(merchant: MerchantId): StoredSearchSettings {
    return this.records.get(merchant) ?? { settings: noSearchSettings(), version: 0 };
  }

  /** Replaces the merchant's settings in one transaction; returns their version. */
  async put(merchant: MerchantId, settings: SearchSettings): Promise<number> {
    return this.root.childTransaction(() => {
      const version = this.version(merchant) + 1;
      this.records.put(merchant, { settings, version });
      this.versions.put(merchant, version);
      return version;
    });
  }

  /** Back to no settings; returns the new version. */
  async reset(merchant: MerchantId): Promise<number> {
    return this.put(merchant, noSearchSettings());
  }
}
