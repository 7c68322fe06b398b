// Merchants' custom data sources, keyed [merchant, source id]: a merchant's
// reads never reach another's sources, whatever id a request names. Each
// merchant has one version, moved by every write of its sources: cached
// answers key by it, and each stored source keeps the version it was written
// at, which compiled rules follow.
import type { Database, RootDatabase } from "lmdb";
import type { CustomSource, StoredSource } from "../core/sources/definition.js";
import type { MerchantId } from "../core/types.js";
import { merchantRange, type Key } from "./merchant-keys.js";
import { MerchantVersions } from "./merchant-versions.js";

/** A create of a source id the merchant has already: update it instead. */
export class SourceExistsError extends Error {}

export class CustomSources {
  private readonly sources: Database<StoredSource, Key>;
  private readonly versions: MerchantVersions;

  constructor(private readonly root: RootDatabase) {
    const shared = { encoding: "msgpack" as const, sharedStructuresKey: Symbol.for("structures") };
    this.sources = root.openDB<StoredSource, Key>({ name: "custom_sources", ...shared });
    this.versions = new MerchantVersions(root.openDB<number, MerchantId>({ name: "custom_source_versions", ...shared }));
  }

  /** Moves with every write of the merchant's sources (0: none ever written). */
  version(merchant: MerchantId): number {
    return this.versions.of(merchant);
  }

  get(merchant: MerchantId, id: string): StoredSource | undefined {
    return this.sources.get([merchant, id]);
  }

  /** The merchant's sources in id order. */
  list(merchant: MerchantId): StoredSource[] {
    return [...this.sources.getRange(merchantRange(merchant)).map(({ value }) => value)];
  }

  /** Creates or replaces sources in one transaction; `onlyNew`: an id the merchant has already fails it (SourceExistsError). */
  async put(merchant: MerchantId, sources: readonly CustomSource[], { onlyNew = false } = {}): Promise<number> {
    return this.root.childTransaction(() => {
      const version = this.versions.next(merchant);
      for (const source of sources) {
        if (onlyNew && this.sources.doesExist([merchant, source.id])) throw new SourceExistsError(`Source ${source.id} already exists`);
        this.sources.put([merchant, source.id], { source, version });
      }
      return version;
    });
  }

  /** false: the merchant has no such source. */
  async remove(merchant: MerchantId, id: string): Promise<boolean> {
    return this.root.childTransaction(() => {
      if (!this.sources.doesExist([merchant, id])) return false;
      this.sources.remove([merchant, id]);
      this.versions.next(merchant);
      return true;
    });
  }
}
