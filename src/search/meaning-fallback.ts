// The semantic fallback of quick-view search: the query embedded by the shop's
// own similar-products model, against every product's vector.
import type { MerchantId } from "../core/types.js";
import { liveModel, nearestToText } from "../similar/live-model.js";
import type { Store } from "../stores/store.js";
import type { QuickViewDependencies } from "./quick-view.js";

/**
 * Below this cosine similarity a product is not "about" the query: a fallback
 * that fills the list with unrelated products would be worse than a short list.
 * Unrelated texts score about N(0, 1/√64 = 0.125) in the 64-dim random
 * projection the model starts from; 0.35 is about 2.8 of those deviations.
 */
const MIN_MEANING_SIMILARITY = 0.35;

/** Quick-view's dependencies with the meaning-based fallback of the shop's model (lexical only while it has none). */
export function withMeaningFallback(store: Store, dataDir: string): QuickViewDependencies {
  return {
    semantic: async (merchantId: MerchantId, query: string, k: number) => {
      const model = await liveModel(store, dataDir, merchantId);
      if (!model) return [];
      const { ids, scores } = await nearestToText(model, query, k);
      return ids.filter((_, rank) => scores[rank]! >= MIN_MEANING_SIMILARITY);
    },
  };
}
