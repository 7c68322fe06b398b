// Rankings of products by score: higher scores first, ties by product id, so
// a list is the same from one computation to the next. The shop-wide
// rankings (trending, top sellers) are ranked whole, once per refresh, by
// their one writer; selectFirst picks the first k of a list without sorting
// the rest.
import type { WeightedIds } from "./copurchase.js";
import { KeySlots } from "./key-slots.js";

/**
 * The slots of positive score, in rank order: `scores[slot]` is a slot's
 * score, `ids[slot]` its product id.
 */
export function rankedSlots(ids: ArrayLike<number>, scores: ArrayLike<number>): Int32Array {
  let count = 0;
  for (let slot = 0; slot < scores.length; slot++) if (scores[slot]! > 0) count++;
  const slots = new Int32Array(count);
  count = 0;
  for (let slot = 0; slot < scores.length; slot++) if (scores[slot]! > 0) slots[count++] = slot;
  return slots.sort((a, b) => byScoreThenId(scores[a]!, scores[b]!, ids[a]!, ids[b]!));
}

/**
 * The first `count` of the first `kept` entries of flat (ids, scores), best
 * first (byScoreThenId): their product ids. Sorted as positions in an
 * Int32Array and copied out in a loop, which make no garbage per entry.
 * NaN scores have no place in the order: the models' scores are finite.
 */
export function rankFlat(ids: Float64Array, scores: Float64Array, kept: number, count: number): number[] {
  const positions = new Int32Array(kept);
  for (let position = 0; position < kept; position++) positions[position] = position;
  const top = topInOrder(positions, count, (a, b) => byScoreThenId(scores[a]!, scores[b]!, ids[a]!, ids[b]!));
  const ranked = new Array<number>(top.length);
  for (let rank = 0; rank < top.length; rank++) ranked[rank] = ids[top[rank]!]!;
  return ranked;
}

/** The first part a lazy ranking sorts; each next one is this many times the last. */
const FIRST_SORTED = 16;
const SORTED_GROWTH = 4;

/**
 * What rankFlat gives, all of it, sorted as it is read: a list answer reads
 * its first few eligible products from a ranking of hundreds, so the best
 * FIRST_SORTED are selected and sorted first, the next 4× as many only when
 * read, and so on (a quickselect then a sort of those alone each time).
 */
export function* rankFlatLazily(ids: Float64Array, scores: Float64Array, kept: number): Generator<number> {
  const positions = new Int32Array(kept);
  for (let position = 0; position < kept; position++) positions[position] = position;
  const order = (a: number, b: number) => byScoreThenId(scores[a]!, scores[b]!, ids[a]!, ids[b]!);
  for (let from = 0, part = FIRST_SORTED; from < kept; from += part, part *= SORTED_GROWTH) {
    const rest = positions.subarray(from);
    if (rest.length > part) selectFirst(rest, part, order);
    const head = rest.subarray(0, Math.min(part, rest.length)).sort(order);
    for (let rank = 0; rank < head.length; rank++) yield ids[head[rank]!]!;
  }
}

/**
 * The order of rankings: the higher score first, ties by the smaller id, as
 * -1, 0 or 1. V8's sort boxes a comparator's result that is not a small
 * integer, so a difference of doubles costs a heap number per comparison: a
 * viewed-related answer made hundreds of kilobytes of garbage sorting its
 * scores that way.
 */
export function byScoreThenId(scoreA: number, scoreB: number, idA: number, idB: number): number {
  if (scoreA > scoreB) return -1;
  if (scoreA < scoreB) return 1;
  return idA < idB ? -1 : idA > idB ? 1 : 0;
}

/**
 * Reorders `items` so that its first `k` are the k that `before` puts first,
 * in no particular order (quickselect: linear time on average).
 */
export function selectFirst(items: Int32Array | number[], k: number, before: (a: number, b: number) => number): void {
  let low = 0;
  let high = items.length - 1;
  while (low < high) {
    // Median of three as the pivot: sorted or reversed input stays linear.
    const middle = (low + high) >>> 1;
    if (before(items[middle]!, items[low]!) < 0) swap(items, middle, low);
    if (before(items[high]!, items[low]!) < 0) swap(items, high, low);
    if (before(items[high]!, items[middle]!) < 0) swap(items, high, middle);
    const pivot = items[middle]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (before(items[i]!, pivot) < 0) i++;
      while (before(pivot, items[j]!) < 0) j--;
      if (i <= j) swap(items, i++, j--);
    }
    // [low, j] ranks at or before the pivot, [i, high] at or after it.
    if (k - 1 <= j) high = j;
    else if (k - 1 >= i) low = i;
    else return;
  }
}

function swap(items: Int32Array | number[], a: number, b: number): void {
  const item = items[a]!;
  items[a] = items[b]!;
  items[b] = item;
}

/**
 * The first `count` of `values` in `order` (a strict total order), sorted:
 * what sorting all of them and taking the head gives, but a quickselect moves
 * the head to the front first, so only `count` values are sorted.
 */
export function topInOrder<T extends number[] | Int32Array>(values: T, count: number, order: (a: number, b: number) => number): T {
  if (values.length > count) selectFirst(values, count, order);
  return values.slice(0, count).sort(order) as T;
}

/** Scratch for storedRanking's check that no id repeats. */
const listed = new KeySlots();

/**
 * A stored list's ranking, when it is stored in rank order already: the ids
 * of its positive weights, `excluded` left out, exactly as rankByScore ranks
 * its weights as scores, without gathering them into a map and sorting them
 * (one input's similar-products or co-purchase list). null when any id
 * repeats (a map would sum its weights), any two neighbours are out of
 * byScoreThenId's order or tie on both, or an id or weight is missing or NaN:
 * rank it the general way then.
 */
export function storedRanking(list: WeightedIds, excluded: number): readonly number[] | null {
  const { ids, weights } = list;
  listed.clear();
  let dropped = 0;
  for (let at = 0; at < ids.length; at++) {
    const weight = weights[at];
    const id = ids[at];
    // A hole or NaN (never written, but a map would sum or drop it where this order would not): rank it the general way.
    if (typeof weight !== "number" || typeof id !== "number" || Number.isNaN(weight) || Number.isNaN(id)) return null;
    if (at > 0 && byScoreThenId(weights[at - 1]!, weight, ids[at - 1]!, id) !== -1) return null;
    const size = listed.size;
    if (listed.slotOf(id) < size) return null;
    if (!(weight > 0) || id === excluded) dropped++;
  }
  if (dropped === 0) return ids;
  return ids.filter((id, at) => weights[at]! > 0 && id !== excluded);
}
