// Bought-together scores for a set of input products, from two stored lists
// per input: the shop's trained EASE list (ease.ts, with the product's text
// neighbours at the weight the training chose, text-neighbours.ts; refreshed
// by a background training) and its co-purchase list (copurchase.ts, kept
// current by every order and cart). A shop's training chooses how much of
// each (`FbtBlend`) on its own most recent orders; the endpoint and that
// validation both score through this one function.
import { combineNeighbours, type WeightedIds } from "./copurchase.js";

export interface FbtBlend {
  /** The co-purchase list's share (0 … 1) of a covered input's scores; the EASE list has the rest. */
  copurchaseWeight: number;
  /** Brings co-purchase scores to the EASE list's scale: the ratio of the two models' typical best weight. */
  copurchaseScale: number;
}

/** An input product's lists: `ease` is absent for a product the trained model does not cover. */
export interface InputLists {
  ease: WeightedIds | undefined;
  copurchase: WeightedIds | undefined;
}

/**
 * Scores of the inputs' partners, the excluded left out. Without a blend (no
 * trained model) these are today's co-purchase scores exactly. An input the
 * model does not cover (a product new since the training) counts its
 * co-purchase list alone, at the EASE list's scale.
 */
export function blendBoughtTogether(
  inputs: readonly InputLists[],
  blend: FbtBlend | null,
  exclude: ReadonlySet<number>,
): Map<number, number> {
  if (blend === null)
    return combineNeighbours(
      inputs.flatMap((input) => input.copurchase ?? []),
      exclude,
    );
  const scores = new Map<number, number>();
  const add = (list: WeightedIds | undefined, factor: number) => {
    if (list === undefined || factor === 0) return;
    list.ids.forEach((id, index) => {
      if (!exclude.has(id)) scores.set(id, (scores.get(id) ?? 0) + factor * list.weights[index]!);
    });
  };
  for (const { ease, copurchase } of inputs) {
    const copurchaseShare = ease === undefined ? 1 : blend.copurchaseWeight;
    add(ease, 1 - blend.copurchaseWeight);
    add(copurchase, copurchaseShare * blend.copurchaseScale);
  }
  return scores;
}

/** The typical best weight of a model's lists (their top weights' mean): what `copurchaseScale` compares. */
export function typicalTopWeight(lists: Iterable<WeightedIds>): number {
  let sum = 0;
  let count = 0;
  for (const list of lists) {
    if (list.weights.length === 0) continue;
    sum += list.weights[0]!;
    count++;
  }
  return count === 0 ? 0 : sum / count;
}
