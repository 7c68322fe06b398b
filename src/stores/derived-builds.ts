// A derived store is rebuilt from its source data when a data dir lacks it: a
// store added by a newer build, a changed layout, an upgrade from an older
// format. A marker per store and merchant says which layout is built. Until it
// is, a rebuild writes the store a slice per transaction, with its cursor kept
// beside the marker, so a restart goes on where it stopped. The store's
// incremental writers keep writing meanwhile: a slice reads the source as it
// is when the slice runs, so the two agree.
import type { Database } from "lmdb";
import type { MerchantId } from "../core/types.js";

export interface DerivedBuild {
  /** Stable: part of the marker's key. */
  readonly name: string;
  /** The layout this code writes; a marker of another layout means rebuild. */
  readonly layout: number;
  /**
   * Work of the next slice that only reads (reading source data, computing),
   * done before the slice's transaction so that the transaction holds the
   * write lock only to write. Optional.
   */
  prepare?(merchant: MerchantId): void;
  /** Removes the merchant's entries, in the caller's transaction: the start of a rebuild. */
  clear(merchant: MerchantId): void;
  /**
   * Brings the merchant's store, built at an older `layout`, up to this one
   * in place, in the caller's transaction, where that needs no rebuild; false:
   * rebuild it. Optional.
   */
  upgrade?(merchant: MerchantId, layout: number): boolean;
  /**
   * Builds the slice after `cursor` (null: from the start) in the caller's
   * transaction; returns the cursor to go on from, or null once complete.
   */
  buildSlice(merchant: MerchantId, cursor: number | null): number | null;
}

/** Not started: the cursor key is absent. Started: the layout being built and where it got to. */
interface Progress {
  layout: number;
  cursor: number | null;
}

const builtKey = (build: DerivedBuild, merchant: MerchantId) => `derived_built:${build.name}:${merchant}`;
const cursorKey = (build: DerivedBuild, merchant: MerchantId) => `derived_cursor:${build.name}:${merchant}`;

export class DerivedBuilds {
  /**
   * Per build, the merchants whose store was found built. A marker is only
   * ever set to this code's layout, never removed, so a store found built
   * stays built for as long as this environment is open: every list answer
   * asks, and reading the marker cost it a string key, an LMDB read and a decode.
   * Not for a transaction that writes a marker: one that then failed to commit
   * would leave a store remembered as built that is not.
   */
  private readonly foundBuilt = new Map<DerivedBuild, Set<MerchantId>>();

  constructor(
    private readonly meta: Database<unknown, string>,
    readonly builds: readonly DerivedBuild[],
  ) {}

  isBuilt(build: DerivedBuild, merchant: MerchantId): boolean {
    let found = this.foundBuilt.get(build);
    if (found?.has(merchant)) return true;
    if (this.meta.get(builtKey(build, merchant)) !== build.layout) return false;
    if (found === undefined) this.foundBuilt.set(build, (found = new Set()));
    found.add(merchant);
    return true;
  }

  /** The builds some merchant lacks. */
  pending(merchants: readonly MerchantId[]): { build: DerivedBuild; merchant: MerchantId }[] {
    return this.builds.flatMap((build) =>
      merchants.filter((merchant) => !this.isBuilt(build, merchant)).map((merchant) => ({ build, merchant })),
    );
  }

  /** A new merchant has nothing to build: every store is current, in the caller's transaction. */
  markAllBuilt(merchant: MerchantId): void {
    for (const build of this.builds) this.meta.put(builtKey(build, merchant), build.layout);
  }

  /** One slice of a rebuild, in the caller's transaction; true once the store is built. */
  step(build: DerivedBuild, merchant: MerchantId): boolean {
    if (this.isBuilt(build, merchant)) return true;
    const builtLayout = this.meta.get(builtKey(build, merchant));
    if (typeof builtLayout === "number" && build.upgrade?.(merchant, builtLayout)) {
      this.meta.put(builtKey(build, merchant), build.layout);
      return true;
    }
    const started = this.meta.get(cursorKey(build, merchant)) as Progress | undefined;
    // A rebuild left by a build of another layout starts over: its entries are of that layout.
    const resumed = started?.layout === build.layout ? started : undefined;
    if (resumed === undefined) build.clear(merchant);
    const next = build.buildSlice(merchant, resumed?.cursor ?? null);
    if (next !== null) {
      this.meta.put(cursorKey(build, merchant), { layout: build.layout, cursor: next } satisfies Progress);
      return false;
    }
    this.meta.remove(cursorKey(build, merchant));
    this.meta.put(builtKey(build, merchant), build.layout);
    return true;
  }
}
