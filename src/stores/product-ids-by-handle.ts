// The event route resolves a product handle on every event. An LMDB read
// costs 1-2 µs there (the HTTP thread's snapshot is renewed after each log
// commit, so reads often start cold): about a tenth of the thread's own work
// per event. Handles change only with the catalogue, and every catalogue
// write moves the merchant's catalogue version, so ids are remembered per
// merchant for one version. The version is the recent one
// (Store.recentVersions: read at most every millisecond, and afresh after
// this thread's own commits): an event is then resolved against the
// catalogue of up to a millisecond earlier, as if it had arrived that much
// sooner. Unknown handles are not remembered: a product added a moment ago is read.
import { detached } from "../core/detached-string.js";
import type { MerchantId } from "../core/types.js";
import type { CatalogueStore } from "./catalogue-store.js";
import { RecentMap } from "./recent-map.js";

/** Handles remembered per merchant (their hot products; the rest are read). */
const HANDLES_PER_MERCHANT = 50_000;

/** Where handles are read, and the merchant's catalogue version (the recent one), which says when to read them again. */
interface HandleSource extends Pick<CatalogueStore, "productIdByHandle"> {
  catalogueVersion(merchant: MerchantId): number;
}

interface MerchantHandles {
  version: number;
  ids: RecentMap<string, number>;
}

export class ProductIdsByHandle {
  private readonly merchants = new Map<MerchantId, MerchantHandles>();

  constructor(private readonly store: HandleSource) {}

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
    const version = this.store.catalogueVersion(merchant);
    let handles = this.merchants.get(merchant);
    if (handles === undefined) {
      handles = { version, ids: new RecentMap(HANDLES_PER_MERCHANT) };
      this.merchants.set(merchant, handles);
    } else if (version !== handles.version) {
      handles.ids.clear();
      handles.version = version;
    }
    return handles;
  }
}
