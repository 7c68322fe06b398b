import { blendBoughtTogether, type FbtBlend } from "../core/recs/fbt-blend.js";
import { storedRanking } from "../core/recs/ranking.js";
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
  return scoresByBlend(store, merchant, inputs, store.fbtModel.blend(merchant));
}

function scoresByBlend(store: Store, merchant: MerchantId, inputs: readonly number[], blend: FbtBlend | null): Map<number, number> {
  const lists = inputs.map((id) => ({
    ease: blend === null ? undefined : store.fbtModel.list(merchant, id),
    copurchase: store.orders.copurchaseNeighbours(merchant, id),
  }));
  return blendBoughtTogether(lists, blend, new Set(inputs));
}

/** Products bought together with the inputs, best first, sorted as they are read (read once). */
export function boughtTogether(store: Store, merchant: MerchantId, inputs: readonly number[]): Iterable<number> {
  const blend = store.fbtModel.blend(merchant);
  // One input of a shop without a trained model (a product page): its co-purchase list, stored best first, is its ranking.
  if (blend === null && inputs.length === 1) {
    const list = store.orders.copurchaseNeighbours(merchant, inputs[0]!);
    const stored = list === undefined ? null : storedRanking(list, inputs[0]!);
    if (stored !== null) return stored;
  }
  return rankByScoreLazily(scoresByBlend(store, merchant, inputs, blend));
}
