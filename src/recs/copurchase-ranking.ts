import { blendBoughtTogether, type FbtBlend, type InputLists } from "../core/recs/fbt-blend.js";
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
  const blend = store.fbtModel.blend(merchant);
  return blendBoughtTogether(inputLists(store, merchant, inputs, blend), blend, new Set(inputs));
}

function inputLists(store: Store, merchant: MerchantId, inputs: readonly number[], blend: FbtBlend | null): InputLists[] {
  return inputs.map((id) => ({
    ease: blend === null ? undefined : store.fbtModel.list(merchant, id),
    copurchase: store.orders.copurchaseNeighbours(merchant, id),
  }));
}

/** Products bought together with the inputs, best first, sorted as they are read (read once). */
export function boughtTogether(store: Store, merchant: MerchantId, inputs: readonly number[]): Iterable<number> {
  const blend = store.fbtModel.blend(merchant);
  const lists = inputLists(store, merchant, inputs, blend);
  // One input of a shop without a trained model (a product page): its co-purchase list, stored best first, is its ranking.
  const only = blend === null && lists.length === 1 ? lists[0]!.copurchase : undefined;
  const stored = only === undefined ? null : storedRanking(only, inputs[0]!);
  return stored ?? rankByScoreLazily(blendBoughtTogether(lists, blend, new Set(inputs)));
}
