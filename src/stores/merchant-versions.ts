// A version per merchant of data the merchant writes as a whole (custom
// sources, search settings): moved by every write, read by every request
// that caches by it. A table of bare numbers, so that per-request read
// decodes nothing else.
import type { Database } from "lmdb";
import type { MerchantId } from "../core/types.js";

export class MerchantVersions {
  constructor(private readonly versions: Database<number, MerchantId>) {}

  /** 0: never written. */
  of(merchant: MerchantId): number {
    return this.versions.get(merchant) ?? 0;
  }

  /** Moves the merchant's version, in the caller's transaction; returns the new one. */
  next(merchant: MerchantId): number {
    const version = this.of(merchant) + 1;
    this.versions.put(merchant, version);
    return version;
  }
}
