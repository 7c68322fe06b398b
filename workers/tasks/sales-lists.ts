import { jsonBytes } from "../../src/core/json.js";
import type { SalesListTask } from "../../src/core/products/query.js";
import { renderProductList } from "../../src/core/products/render.js";
import type { MerchantId } from "../../src/core/types.js";
import type { TaskResult } from "../../src/pool/protocol.js";
import { topSellers, withStoreFallbacks } from "../../src/recs/sales-rankings.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import type { Store } from "../../src/stores/store.js";

export function salesList(store: Store, task: SalesListTask): TaskResult {
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
  const data = renderProductList(catalog, candidates, task.list);
  return { ok: true, body: jsonBytes({ data }, task.list.pretty) };
}

function* onlyMembers(ranked: Iterable<number>, members: ReadonlySet<number>): Generator<number> {
  for (const id of ranked) if (members.has(id)) yield id;
}

/**
 * Collections' members as sets, per catalogue version (collection changes move
 * it). A big shop's collections hold tens of thousands of products: decoding
 * one and building its set cost more than the rest of a top-sellers answer.
 */
const memberSets = new Map<string, { version: number; members: ReadonlySet<number> }>();
/** Sets kept per worker; beyond this the oldest is dropped. */
const MAX_MEMBER_SETS = 256;

function membersOf(store: Store, merchantId: MerchantId, collectionId: number): ReadonlySet<number> {
  const version = store.version(merchantId, "catalogue");
  const key = `${merchantId}\u0000${collectionId}`;
  const memo = memberSets.get(key);
  if (memo?.version === version) return memo.members;
  const members = new Set(store.collection(merchantId, collectionId)?.product_ids ?? []);
  memberSets.delete(key);
  if (memberSets.size >= MAX_MEMBER_SETS) memberSets.delete(memberSets.keys().next().value!);
  memberSets.set(key, { version, members });
  return members;
}
