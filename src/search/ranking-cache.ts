// Rankings of recent queries, per store and merchant: keystroke prefixes repeat
// across shoppers, and "drill" and "Drill" plan alike. A ranking holds while
// the catalogue, the stored rankings (sales popularity) and the merchant's
// search settings stay as they were.
import type { MerchantId } from "../core/types.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";

/** Rankings kept per merchant; the oldest goes first. */
const MAX_CACHED_RANKINGS = 5_000;

const caches = new PerStore<MerchantId, { versions: string; rankings: Map<string, number[]> }>();

export interface RankingCache {
  get(key: string): number[] | undefined;
  set(key: string, ranked: number[]): void;
}

/** The merchant's rankings computed on the catalogue, rankings and search settings of the current snapshot. */
export function rankingCacheOf(store: Store, merchant: MerchantId): RankingCache {
  const versions = `${store.version(merchant, "catalogue")}.${store.version(merchant, "rankings")}.${store.searchSettings.versions.of(merchant)}`;
  let cache = caches.of(store).get(merchant);
  if (cache?.versions !== versions) caches.of(store).set(merchant, (cache = { versions, rankings: new Map() }));
  const { rankings } = cache;
  return {
    get: (key) => rankings.get(key),
    set: (key, ranked) => {
      if (rankings.size >= MAX_CACHED_RANKINGS) rankings.delete(rankings.keys().next().value!);
      rankings.set(key, ranked);
    },
  };
}
