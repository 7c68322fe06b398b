// Merchants' search settings: one record per merchant, written whole, with a
// version moved by every write. The version is also kept apart
// (merchant-versions.ts): every search reads it (the HTTP thread for the cache
// key, the worker to know whether its compiled copy still holds), and it must
// not cost the decoding of a record of hundreds of keyword groups. A reset
// stores the empty settings at a new version instead of removing the record,
// so a version never comes back to mean other settings than it meant before.
import type { Database } from "lmdb";
import { noSearchSettings, type SearchSettings, type StoredSearchSettings } from "../core/search/merchandising/settings.js";
import type { MerchantId } from "../core/types.js";
import type { Environment } from "./environment.js";
import { MerchantVersions } from "./merchant-versions.js";

export class SearchSettingsStore {
  private readonly records: Database<StoredSearchSettings, MerchantId>;
  /** Moved by every write of a merchant's settings. */
  readonly versions: MerchantVersions;

  constructor(private readonly env: Environment) {
    this.records = env.table("search_settings");
    this.versions = new MerchantVersions(env.table("search_settings_versions"));
  }

  /** The merchant's settings; the empty ones at version 0 when it never wrote any. */
  get(merchant: MerchantId): StoredSearchSettings {
    return this.records.get(merchant) ?? { settings: noSearchSettings(), version: 0 };
  }

  /** Replaces the merchant's settings in one transaction; returns their version. */
  async put(merchant: MerchantId, settings: SearchSettings): Promise<number> {
    return this.env.root.childTransaction(() => {
      const version = this.versions.next(merchant);
      this.records.put(merchant, { settings, version });
      return version;
    });
  }

  /** Back to no settings; returns the new version. */
  async reset(merchant: MerchantId): Promise<number> {
    return this.put(merchant, noSearchSettings());
  }
}
