import { blendBoughtTogether } from "../core/recs/fbt-blend.js";
import { rankByScoreLazily } from "../core/recs/sales.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

/**
 * Scores of products bought together with the inputs; the inputs themselves
 * are left out. A shop with a trained model blends its EASE lists with the
 * co-purchase lists as its training chose; any other gets the co-purchase
 * lists alone.
 */
export function boughtTogetherScores(store: Store, merchant: MerchantId, inputs: readonly number[]): Map<number, number> {
  const blend = store.fbtModel.blend(merchant);
  const lists = inputs.map((id) => ({
    ease: blend === null ? undefined : store.fbtModel.list(merchant, id),
    copurchase: store.orders.copurchaseNeighbours(merchant, id),
  }));
  return blendBoughtTogether(lists, blend, new Set(inputs));
}

/** Products bought together with the inputs, best first, sorted as they are read (read once). */
export function boughtTogether(store: Store, merchant: MerchantId, inputs: readonly number[]): Iterable<number> {
  return rankByScoreLazily(boughtTogetherScores(store, merchant, inputs));
}
