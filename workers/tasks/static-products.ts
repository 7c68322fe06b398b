import { jsonBytes } from "../../src/core/json.js";
import type { StaticProductsTask } from "../../src/core/products/query.js";
import { renderProductList } from "../../src/core/products/render.js";
import { staticCandidates } from "../../src/core/products/static-selection.js";
import type { TaskResult } from "../../src/pool/protocol.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import type { Store } from "../../src/stores/store.js";

export function staticProducts(store: Store, task: StaticProductsTask): TaskResult {
  const catalog = merchantCatalog(store, task.merchantId);
  const { candidates, restrictTo } = staticCandidates(catalog, task.selection);
  const data = renderProductList(catalog, candidates, { ...task.list, restrictTo });
  return { ok: true, body: jsonBytes({ data }, task.list.pretty) };
}
