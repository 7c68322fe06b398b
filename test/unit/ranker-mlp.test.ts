import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/random.js";
import {
  DEFAULT_RANKER_TRAINING,
  RankerTrainingCancelled,
  scoreRows,
  trainRankerMlp,
  type RankerMlp,
  type RankingList,
} from "../../src/core/recs/ranker-mlp.js";

const INPUTS = 4;

/** Rows of four features: two that decide, one of noise, one constant; each on its own scale. */
function linearCase(rng: Rng, rows: number): RankingList {
  const features = new Float32Array(rows * INPUTS);
  let best = -Infinity;
  let target = 0;
  for (let row = 0; row < rows; row++) {
    const [first, second] = [rng.normal(0, 1), rng.normal(0, 1)];
    features.set([10 + 3 * first, 0.2 * second, rng.normal(0, 1), 7], row * INPUTS);
    const utility = first + 2 * second + rng.normal(0, 0.3);
    if (utility > best) [best, target] = [utility, row];
  }
  return { features, rows, target };
}

/**
 * The target is the one row whose first feature lies in the middle band; the
 * other rows lie on both sides of it, so a score linear in that feature
 * always ranks an outside row above the target.
 */
function middleBandCase(rng: Rng, rows: number): RankingList {
  const features = new Float32Array(rows * INPUTS);
  const target = rng.int(0, rows - 1);
  for (let row = 0, outside = 0; row < rows; row++) {
    const low = outside++ % 2 === 0;
    const first = row === target ? 0.45 + 0.1 * rng.next() : low ? 0.35 * rng.next() : 0.65 + 0.35 * rng.next();
    features.set([first, rng.next(), rng.normal(0, 1), -2], row * INPUTS);
  }
  return { features, rows, target };
}

const listsOf = (count: number, seed: number, make: (rng: Rng) => RankingList): RankingList[] => {
  const rng = new Rng(seed);
  return Array.from({ length: count }, () => make(rng));
};

function topOf(scores: Float32Array): number {
  let top = 0;
  for (let row = 1; row < scores.length; row++) if (scores[row]! > scores[top]!) top = row;
  return top;
}

/** The share of lists whose target the model ranks first. */
const accuracy = (model: RankerMlp, lists: RankingList[]): number =>
  lists.filter((list) => topOf(scoreRows(model, list.features, list.rows)) === list.target).length / lists.length;

const linearLists = (count: number, seed: number) => listsOf(count, seed, (rng) => linearCase(rng, 20));
const middleBandLists = (count: number, seed: number) => listsOf(count, seed, (rng) => middleBandCase(rng, 10));

describe("ranker MLP training", () => {
  it("ranks the target first in most held-out lists when it has the largest noisy linear combination of two features", () => {
    const model = trainRankerMlp(linearLists(1_000, 1), INPUTS);
    // Chance is 1 in 20.
    expect(accuracy(model, linearLists(500, 2))).toBeGreaterThan(0.7);
  });

  it("learns a middle band of a feature, which no score linear in it ranks first", () => {
    const training = middleBandLists(1_000, 3);
    const test = middleBandLists(500, 4);
    for (const list of test) {
      const values = Array.from({ length: list.rows }, (_, row) => list.features[row * INPUTS]!);
      expect(values.indexOf(Math.max(...values))).not.toBe(list.target);
      expect(values.indexOf(Math.min(...values))).not.toBe(list.target);
    }
    // Chance is 1 in 10.
    expect(accuracy(trainRankerMlp(training, INPUTS), test)).toBeGreaterThan(0.9);
    // One hidden unit is a monotone function of one linear score: no better than chance here.
    expect(accuracy(trainRankerMlp(training, INPUTS, { ...DEFAULT_RANKER_TRAINING, hidden: 1 }), test)).toBeLessThan(0.2);
  });

  it("standardises a constant feature to exactly 0 (its value as the mean, a scale of 1), with no NaN anywhere", () => {
    const model = trainRankerMlp(linearLists(200, 5), INPUTS);
    expect(model.mean[3]).toBe(7);
    expect(model.scale[3]).toBe(1);
    for (const array of [model.mean, model.scale, model.w1, model.b1, model.w2]) expect(array.every(Number.isFinite)).toBe(true);
    expect(model.scale[0]).toBeCloseTo(1 / 3, 1);
    expect(model.scale[1]).toBeCloseTo(1 / 0.2, 0);
  });

  it("gives bit-identical weights for the same lists and seed, and other weights for another seed", () => {
    const lists = linearLists(300, 6);
    const bytes = (model: RankerMlp) => [model.mean, model.scale, model.w1, model.b1, model.w2].map((array) => Buffer.from(array.buffer));
    const first = trainRankerMlp(lists, INPUTS, { ...DEFAULT_RANKER_TRAINING, seed: 11 });
    const again = trainRankerMlp(lists, INPUTS, { ...DEFAULT_RANKER_TRAINING, seed: 11 });
    const other = trainRankerMlp(lists, INPUTS, { ...DEFAULT_RANKER_TRAINING, seed: 12 });
    expect(bytes(again)).toEqual(bytes(first));
    expect(Buffer.from(other.w1.buffer).equals(Buffer.from(first.w1.buffer))).toBe(false);
    expect(Buffer.from(other.w2.buffer).equals(Buffer.from(first.w2.buffer))).toBe(false);
  });

  it("asks stop() between batches and throws RankerTrainingCancelled once it answers true", () => {
    let asked = 0;
    const stop = () => ++asked === 3;
    expect(() => trainRankerMlp(linearLists(100, 7), INPUTS, { ...DEFAULT_RANKER_TRAINING, listsPerBatch: 10, stop })).toThrow(
      RankerTrainingCancelled,
    );
    expect(asked).toBe(3);
  });

  it("throws a RangeError naming the list, row and column of a non-finite feature", () => {
    for (const value of [NaN, Infinity]) {
      const lists = linearLists(3, 8);
      lists[1]!.features[2 * INPUTS + 3] = value;
      expect(() => trainRankerMlp(lists, INPUTS)).toThrow(new RangeError(`list 1, row 2, column 3: feature ${value} is not finite`));
    }
  });

  it("refuses lists whose features or target do not fit their rows", () => {
    const [list] = linearLists(1, 9);
    expect(() => trainRankerMlp([{ ...list!, rows: 19 }], INPUTS)).toThrow(RangeError);
    expect(() => trainRankerMlp([{ ...list!, target: 20 }], INPUTS)).toThrow(RangeError);
    expect(() => trainRankerMlp([], INPUTS)).toThrow(RangeError);
  });
});

describe("ranker MLP scores", () => {
  const model: RankerMlp = {
    inputs: 2,
    hidden: 2,
    mean: Float32Array.from([1, 0]),
    scale: Float32Array.from([0.5, 1]),
    w1: Float32Array.from([1, 0, -1, 1]),
    b1: Float32Array.from([0, 0.5]),
    w2: Float32Array.from([2, -1]),
    b2: 0.25,
  };

  it("computes w2 · relu(W1 · ((x − mean) ⊙ scale) + b1) + b2 per row", () => {
    // Row [3, 1]: standardised [1, 1], hidden relu([1, 0.5]), score 2 − 0.5 + 0.25.
    // Row [−1, 0]: standardised [−1, 0], hidden relu([−1, 1.5]), score −1.5 + 0.25.
    expect(Array.from(scoreRows(model, Float32Array.from([3, 1, -1, 0]), 2))).toEqual([1.75, -1.25]);
  });

  it("writes into a caller's buffer and answers its first rows", () => {
    const out = new Float32Array(5).fill(9);
    const scores = scoreRows(model, Float32Array.from([3, 1]), 1, out);
    expect(Array.from(scores)).toEqual([1.75]);
    expect(scores.buffer).toBe(out.buffer);
    expect(() => scoreRows(model, Float32Array.from([3, 1, 0]), 1)).toThrow(RangeError);
  });
});
