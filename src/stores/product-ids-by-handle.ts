// The event route resolves a product handle on every event. An LMDB read
// costs 1-2 µs there (the HTTP thread's snapshot is renewed after each log
// commit, so reads often start cold): about a tenth of the thread's own work
// per event. Handles change only with the catalogue, and every catalogue
// write moves the merchant's catalogue version, so ids are remembered per
// merchant for one version. The version is read again at most every
// RECHECK_MS, not per event: an event is then resolved against the catalogue
// of up to a millisecond earlier, as if it had arrived that much sooner.
// Unknown handles are not remembered: a product added a moment ago is read.
import { detached } from "../core/detached-string.js";
import type { MerchantId } from "../core/types.js";
import type { CatalogueStore } from "./catalogue-store.js";
import { RecentMap } from "./recent-map.js";
import type { Store } from "./store.js";

/** How stale, in ms, the catalogue version behind a remembered id may be. */
const RECHECK_MS = 1;
/** Handles remembered per merchant (their hot products; the rest are read). */
const HANDLES_PER_MERCHANT = 50_000;

/** Where handles are read, and the catalogue version that says when to read them again. */
type HandleSource = Pick<CatalogueStore, "productIdByHandle"> & Pick<Store, "version">;

interface MerchantHandles {
  version: number;
  checkedAt: number;
  ids: RecentMap<string, number>;
}

export class ProductIdsByHandle {
  private readonly merchants = new Map<MerchantId, MerchantHandles>();

  constructor(
    private readonly store: HandleSource,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(merchant: MerchantId, handle: string): number | undefined {
    const handles = this.current(merchant);
    const known = handles.ids.get(handle);
    if (known !== undefined) return known;
    const id = this.store.productIdByHandle(merchant, handle);
    // A copy: the handle as parsed is a view of its request's whole query string.
    if (id !== undefined) handles.ids.set(detached(handle), id);
    return id;
  }

  private current(merchant: MerchantId): MerchantHandles {
    const now = this.now();
    let handles = this.merchants.get(merchant);
    if (handles === undefined) {
      handles = { version: this.store.version(merchant, "catalogue"), checkedAt: now, ids: new RecentMap(HANDLES_PER_MERCHANT) };
      this.merchants.set(merchant, handles);
    } else if (now - handles.checkedAt >= RECHECK_MS) {
      const version = this.store.version(merchant, "catalogue");
      if (version !== handles.version) {
        handles.ids.clear();
        handles.version = version;
      }
      handles.checkedAt = now;
    }
    return handles;
  }
}
