import { jsonBytes } from "../../src/core/json.js";
import type { SalesListTask } from "../../src/core/products/query.js";
import { renderProductList } from "../../src/core/products/render.js";
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
    if (task.collectionId === null) {
      candidates = ranked;
    } else {
      const members = new Set(catalog.collection(task.collectionId)?.product_ids ?? []);
      candidates = ranked.filter((id) => members.has(id));
    }
  }
  const data = renderProductList(catalog, candidates, task.list);
  return { ok: true, body: jsonBytes({ data }, task.list.pretty) };
}
