import type { QuickViewTask } from "../../src/core/search/request.js";
import type { SearchWarmTask, TaskResult } from "../../src/pool/protocol.js";
import { searchIndexOf } from "../../src/search/merchant-index.js";
import { NO_SEMANTIC_FALLBACK, quickView, type QuickViewDependencies } from "../../src/search/quick-view.js";
import type { Store } from "../../src/stores/store.js";

/**
 * Where the semantic fallback plugs in: when the embedding model exists, its
 * provider goes here (one per worker thread); until then search is lexical.
 */
const dependencies: QuickViewDependencies = NO_SEMANTIC_FALLBACK;

export function quickViewSearch(store: Store, task: QuickViewTask): TaskResult {
  return quickView(store, task, dependencies);
}

export function warmSearch(store: Store, task: SearchWarmTask): TaskResult {
  if (store.merchant(task.merchantId)) searchIndexOf(store, task.merchantId);
  return { ok: true, body: new Uint8Array(0) };
}
