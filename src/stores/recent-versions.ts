// The versions a thread keys its cached answers by (data domains, a shop's
// whole records, products' co-purchase lists), each read from
// LMDB at most once a millisecond rather than once per request. On the HTTP
// thread such a read cost a cache hit about 2 µs of its 14 µs (wrk at 10
// connections on the demo shop: the first read after a turn of network I/O
// finds nothing of LMDB in the CPU's caches), where the same read costs
// 0.26 µs in a tight loop; a recommendation's hit made three.
//
// How fresh: lmdb-js itself renews a thread's read snapshot only at the first
// read after its reset timer (a timer tick, 1 ms or more) or after a commit
// of this thread, so another thread's write already reaches a reader up to a
// tick late; a remembered version adds at most MAX_AGE_MS to that. What this
// thread commits asynchronously to aisle.lmdb, or sees by Store.refreshSnapshot
// (the event applier's progress), clears them at once: whoever sees a write of this
// thread acknowledged (an answered write, an applied stream sequence) meets
// its version, as with a direct read.
//
// Why an older version is safe as a response-cache key: an answer is always
// computed at a snapshot at least as new as the versions it is stored under
// (a worker renews its snapshot per task, and this thread's only moves
// forward), so an entry never holds older data than its key says. A memo that
// may lag a millisecond may use them too (the event route's handle ids). A
// cache of what an answer reads that must match its snapshot may not (the
// render cache): looked up under an older version than the snapshot it is
// read with, it would mix two states of the catalogue in one answer.
import { performance } from "node:perf_hooks";
import type { MerchantId } from "../core/types.js";
import type { DataDomain } from "./environment.js";

/** How long a version read is remembered. */
export const MAX_AGE_MS = 1;

/**
 * A merchant-wide version: a data domain's, or that of one of the merchant's
 * whole records (its bought-together model's generation, its search settings,
 * its custom sources).
 */
export type VersionName = DataDomain | "fbt_generation" | "search_settings" | "custom_sources";

/** Where the versions are read (the Store's tables), and word of this thread's commits. */
export interface VersionSources {
  version(merchant: MerchantId, name: VersionName): number;
  copurchaseList(merchant: MerchantId, productId: number): number;
  /** Calls `forget` after each commit of this thread's asynchronous transactions where the versions are, once its snapshot shows it. */
  onCommit(forget: () => void): void;
}

/** One merchant's versions read so far. */
interface Remembered {
  versions: Map<VersionName, number>;
  copurchaseLists: Map<number, number>;
}

export class RecentVersions {
  private readonly known = new Map<MerchantId, Remembered>();
  /** When the oldest remembered version was read (NaN: none is). */
  private readAt = Number.NaN;

  constructor(
    private readonly sources: VersionSources,
    private readonly now: () => number = () => performance.now(),
  ) {
    sources.onCommit(this.forget);
  }

  /** Every write to what `name` names moves it. */
  of(merchant: MerchantId, name: VersionName): number {
    const { versions } = this.remembered(merchant);
    let version = versions.get(name);
    if (version === undefined) versions.set(name, (version = this.read(() => this.sources.version(merchant, name))));
    return version;
  }

  /** Every rewrite of the product's co-purchase list moves it. */
  copurchaseList(merchant: MerchantId, productId: number): number {
    const { copurchaseLists } = this.remembered(merchant);
    let version = copurchaseLists.get(productId);
    if (version === undefined)
      copurchaseLists.set(productId, (version = this.read(() => this.sources.copurchaseList(merchant, productId))));
    return version;
  }

  /** Reads every version afresh from the next read on. */
  readonly forget = (): void => {
    this.known.clear();
    this.readAt = Number.NaN;
  };

  /** The merchant's remembered versions, all of them forgotten first once the oldest is past the age. */
  private remembered(merchant: MerchantId): Remembered {
    if (this.now() - this.readAt > MAX_AGE_MS) this.forget();
    let remembered = this.known.get(merchant);
    if (remembered === undefined) {
      remembered = { versions: new Map(), copurchaseLists: new Map() };
      this.known.set(merchant, remembered);
    }
    return remembered;
  }

  private read(version: () => number): number {
    const value = version();
    if (Number.isNaN(this.readAt)) this.readAt = this.now();
    return value;
  }
}
