// trending_products and top_sellers: shop-wide rankings from sales, with
// fallbacks that keep the widget full.
import type { SalesListTask } from "../core/products/query.js";
import { productListBody } from "../core/products/render.js";
import type { MerchantId } from "../core/types.js";
import { topSellers, withStoreFallbacks } from "../recs/sales-rankings.js";
import { merchantCatalog } from "../stores/catalog.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";

export function salesList(store: Store, task: SalesListTask): Uint8Array {
  const catalog = merchantCatalog(store, task.merchantId);
  let candidates: Iterable<number>;
  if (task.kind === "trending") {
    // Momentum first; when too few products are rising, best sellers and then
    // the rest of the catalogue keep the widget full.
    candidates = withStoreFallbacks(store, task.merchantId, task.now, task.list);
  } else {
    const ranked = topSellers(store, task.merchantId, task.now, task.windowDays, task.list);
    // Read lazily: the list stops once it has enough eligible products, a few dozen ranks in.
    candidates = task.collectionId === null ? ranked : onlyMembers(ranked, membersOf(store, task.merchantId, task.collectionId));
  }
  return productListBody(catalog, candidates, task.list);
}

function* onlyMembers(ranked: Iterable<number>, members: ReadonlySet<number>): Generator<number> {
  for (const id of ranked) if (members.has(id)) yield id;
}

/**
 * Collections' members as sets, per catalogue version (collection changes move
 * it). A big shop's collections hold tens of thousands of products: decoding
 * one and building its set cost more than the rest of a top-sellers answer.
 */
const memberSets = new PerStore<string, { version: number; members: ReadonlySet<number> }>();
/** Sets kept per store; beyond this the oldest is dropped. */
const MAX_MEMBER_SETS = 256;

function membersOf(store: Store, merchantId: MerchantId, collectionId: number): ReadonlySet<number> {
  const sets = memberSets.of(store);
  const version = store.version(merchantId, "catalogue");
  const key = `${merchantId}\u0000${collectionId}`;
  const memo = sets.get(key);
  if (memo?.version === version) return memo.members;
  const members = new Set(store.collection(merchantId, collectionId)?.product_ids ?? []);
  sets.delete(key);
  if (sets.size >= MAX_MEMBER_SETS) sets.delete(sets.keys().next().value!);
  sets.set(key, { version, members });
  return members;
}
