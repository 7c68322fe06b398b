// Shop-wide rankings from daily sales, shared by the list endpoints and as the
// fallbacks of every recommendation list. They are read from the lists the
// applier thread stores (src/stores/ranking-writer.ts), as of its last refresh:
// a worker sums and sorts nothing, and keeps no sales history.
import { chainCandidates } from "../core/recs/candidates.js";
import type { MerchantId } from "../core/types.js";
import { DEFAULT_WINDOW_DAYS } from "../stores/ranked-lists.js";
import type { Store } from "../stores/store.js";

/** Product ids by momentum of sales and add-to-cart events (see momentum). */
export function trending(store: Store, merchant: MerchantId): Iterable<number> {
  return store.rankings.read(merchant, { kind: "trending" });
}

/**
 * Product ids by units sold over the `days` days the last refresh ended with,
 * in the whole shop or a collection. A window the writer does not keep (the
 * HTTP thread has asked for it: RankedLists.askForWindow) is answered from the
 * nearest window it keeps until the writer has stored it, at its next look
 * (about a second); the response cache keys these answers by the rankings'
 * version, so this stand-in is not served once it has.
 */
export function topSellers(store: Store, merchant: MerchantId, days: number, collectionId: number | null = null): Iterable<number> {
  const kept = store.rankings.state(merchant)?.windows ?? [DEFAULT_WINDOW_DAYS];
  return store.rankings.read(merchant, { kind: "top_sellers", days: nearest(kept, days), collectionId });
}

/** The kept window closest to `days`; on a tie, the longer. */
function nearest(kept: readonly number[], days: number): number {
  let best = kept[0]!;
  for (const window of kept) {
    const closer = Math.abs(window - days) - Math.abs(best - days);
    if (closer < 0 || (closer === 0 && window > best)) best = window;
  }
  return best;
}

/**
 * Ranked candidates followed by the store-wide fallbacks — trending, best
 * sellers, then the rest of the catalogue — so a list is full whenever enough
 * eligible products exist. Each fallback is read only if reached.
 */
export function withStoreFallbacks(store: Store, merchant: MerchantId, ...ranked: (() => Iterable<number>)[]): Iterable<number> {
  return chainCandidates(
    ...ranked,
    () => trending(store, merchant),
    () => topSellers(store, merchant, DEFAULT_WINDOW_DAYS),
    () => store.catalogue.productIdsInOrder(merchant),
  );
}
