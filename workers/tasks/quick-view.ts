import type { QuickViewTask } from "../../src/core/search/request.js";
import type { TaskResult } from "../../src/pool/protocol.js";
import { quickView, type QuickViewDependencies } from "../../src/search/quick-view.js";
import { liveModel, nearestToText } from "../../src/similar/live-model.js";
import type { Store } from "../../src/stores/store.js";

/**
 * Below this cosine similarity a product is not "about" the query: a fallback
 * that fills the list with unrelated products would be worse than a short list.
 * Unrelated texts score about N(0, 1/√64 = 0.125) in the 64-dim random
 * projection the model starts from; 0.35 is about 2.8 of those deviations.
 */
const MIN_MEANING_SIMILARITY = 0.35;

/** The semantic fallback: the query embedded by the shop's own model, against every product's vector. */
function meaningFallback(store: Store, dataDir: string): QuickViewDependencies {
  return {
    semantic: async (merchantId, query, k) => {
      const model = await liveModel(store, dataDir, merchantId);
      if (!model) return [];
      const { ids, scores } = await nearestToText(model, query, k);
      return ids.filter((_, rank) => scores[rank]! >= MIN_MEANING_SIMILARITY);
    },
  };
}

let dependencies: QuickViewDependencies | null = null;

export function quickViewSearch(store: Store, dataDir: string, task: QuickViewTask): Promise<TaskResult> {
  dependencies ??= meaningFallback(store, dataDir);
  return quickView(store, task, dependencies);
}
