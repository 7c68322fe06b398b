// Item → score as session kNN answers it, in flat arrays: a query scores
// hundreds of items, and a Map of them (two boxed numbers and a table entry
// each) was most of a viewed-related answer's garbage.
import { keyHash } from "./key-slots.js";

/** What rankings, blends and features read of scores by item: a Map is one, and so is ItemScores. */
export interface ScoreLookup {
  readonly size: number;
  get(item: number): number | undefined;
  /** Every item and its score, in the order they were first scored. */
  forEach(visit: (score: number, item: number) => void): void;
  /** [item, score] pairs in the same order. */
  [Symbol.iterator](): Iterator<[number, number]>;
}

/**
 * The scores as two flat arrays in their order, for readers that loop over
 * them: ItemScores' own arrays, a Map's copied once. A number passed to a
 * callback per entry would be boxed.
 */
export function flatOf(scores: ScoreLookup): { items: Float64Array; scores: Float64Array } {
  if (scores instanceof ItemScores) return scores;
  const items = new Float64Array(scores.size);
  const values = new Float64Array(scores.size);
  let entry = 0;
  scores.forEach((score, item) => {
    items[entry] = item;
    values[entry++] = score;
  });
  return { items, scores: values };
}

/** The highest score, 0 when none is positive. */
export function bestScore(scores: ScoreLookup): number {
  const values = flatOf(scores).scores;
  let best = 0;
  for (let entry = 0; entry < values.length; entry++) best = Math.max(best, values[entry]!);
  return best;
}

export class ItemScores implements ScoreLookup {
  /** Open addressing (linear probing): an entry's index + 1 at each position, 0 where empty. */
  private readonly table: Int32Array;

  /** `items[k]` scored `scores[k]`; items distinct, in the order they were first scored. */
  constructor(
    readonly items: Float64Array,
    readonly scores: Float64Array,
  ) {
    let positions = 16;
    while (positions < 2 * items.length) positions *= 2;
    this.table = new Int32Array(positions);
    const mask = positions - 1;
    for (let entry = 0; entry < items.length; entry++) {
      let position = keyHash(items[entry]!) & mask;
      while (this.table[position] !== 0) position = (position + 1) & mask;
      this.table[position] = entry + 1;
    }
  }

  get size(): number {
    return this.items.length;
  }

  get(item: number): number | undefined {
    const mask = this.table.length - 1;
    for (let position = keyHash(item) & mask; ; position = (position + 1) & mask) {
      const entry = this.table[position]! - 1;
      if (entry < 0) return undefined;
      if (this.items[entry] === item) return this.scores[entry];
    }
  }

  /** As a Map's, for the readers that take either (hot ones read `items` and `scores` in place). */
  forEach(visit: (score: number, item: number) => void): void {
    for (let entry = 0; entry < this.items.length; entry++) visit(this.scores[entry]!, this.items[entry]!);
  }

  /** [item, score] pairs in the order first scored, as a Map's entries. */
  *[Symbol.iterator](): Generator<[number, number]> {
    for (let entry = 0; entry < this.items.length; entry++) yield [this.items[entry]!, this.scores[entry]!];
  }
}
