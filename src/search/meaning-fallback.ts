// The semantic fallback of quick-view search: the query embedded by the shop's
// own similar-products model, against every product's stored vector.
import type { MerchantId } from "../core/types.js";
import { nearestToText, searchModel } from "../similar/search-model.js";
import type { Store } from "../stores/store.js";
import type { QuickViewDependencies } from "./quick-view.js";

/**
 * A query meaning can be found for has a word: two different letters in a
 * row. A barcode or a number has none, nor a held-down key ("zzzzzz"), whose
 * few hashed n-grams can collide with a product's and put it far above the
 * model's noise floor, which random strings measure.
 */
const HAS_A_WORD = /(\p{L})(?!\1)\p{L}/u;

/** Whether quick-view's semantic fallback embeds this query at all. */
export function mayHaveMeaning(query: string): boolean {
  return HAS_A_WORD.test(query.toLowerCase());
}

/**
 * Quick-view's dependencies with the meaning-based fallback of the shop's model
 * (lexical only while it has none). Only products above the model's own noise
 * floor count: a fallback that fills the list with unrelated products would be
 * worse than a short list.
 */
export function withMeaningFallback(store: Store, dataDir: string): QuickViewDependencies {
  return {
    semantic: async (merchantId: MerchantId, query: string, k: number) => {
      if (!mayHaveMeaning(query)) return [];
      const model = await searchModel(store, dataDir, merchantId);
      if (!model) return [];
      const { ids, scores } = await nearestToText(store, merchantId, model, query, k);
      return ids.filter((_, rank) => scores[rank]! >= model.meaningFloor);
    },
  };
}
