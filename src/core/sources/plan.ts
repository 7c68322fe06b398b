// How a custom source's answer is put together from the rules that matched:
// their exclusions and pins hold for the whole answer, their products fill it
// in rule order (each rule's own boosted first and buried last), pins take
// their places. Pure: the worker supplies the products and what is eligible.
import { matchRules, type CompiledRule, type CompiledSource, type Facts } from "./compile.js";

/** A pinned product and the rule that pinned it. */
export interface PlacedPin {
  productId: number;
  position: number;
  rule: number;
}

export interface AnswerPlan {
  /** Indexes of the matched rules, top to bottom. */
  matched: number[];
  /** The rules whose products fill the answer, in order. */
  filling: CompiledRule[];
  excludedProducts: Set<number>;
  excludedCollections: number[];
  /** By position; for each position and each product, the topmost rule's pin. */
  pins: PlacedPin[];
}

export function planAnswer(compiled: CompiledSource, facts: Facts): AnswerPlan {
  const filling = matchRules(compiled, facts);
  const excludedProducts = new Set<number>();
  const excludedCollections: number[] = [];
  const pins: PlacedPin[] = [];
  for (const { index, rule } of filling) {
    for (const id of rule.exclude.product_ids) excludedProducts.add(id);
    excludedCollections.push(...rule.exclude.collection_ids);
    for (const pin of rule.pin) {
      if (pins.some((taken) => taken.position === pin.position || taken.productId === pin.product_id)) continue;
      pins.push({ productId: pin.product_id, position: pin.position, rule: index });
    }
  }
  pins.sort((a, b) => a.position - b.position);
  return { matched: filling.map((rule) => rule.index), filling, excludedProducts, excludedCollections, pins };
}

/** Boosted products first and buried ones last, in their order otherwise; one both boosted and buried stays in the middle. */
export function reorderByMarks(ids: readonly number[], boosted: (id: number) => boolean, buried: (id: number) => boolean): number[] {
  const first: number[] = [];
  const middle: number[] = [];
  const last: number[] = [];
  for (const id of ids) {
    const up = boosted(id);
    const down = buried(id);
    (up && !down ? first : down && !up ? last : middle).push(id);
  }
  return [...first, ...middle, ...last];
}

/**
 * The answer's products: each pin at its position, the filling products in
 * the other places, in order. When the filling runs out, the remaining pins
 * close up behind what is there.
 */
export function placePins(pins: readonly { productId: number; position: number }[], fill: readonly number[], limit: number): number[] {
  const placed: number[] = [];
  let nextPin = 0;
  let nextFill = 0;
  while (placed.length < limit) {
    const pin = pins[nextPin];
    if (pin !== undefined && (pin.position === placed.length + 1 || nextFill >= fill.length)) {
      placed.push(pin.productId);
      nextPin++;
    } else if (nextFill < fill.length) {
      placed.push(fill[nextFill++]!);
    } else {
      break;
    }
  }
  return placed;
}
