// A small learned ranker: one hidden layer over a candidate's features, trained
// listwise on a shop's own sessions (each list's viewed row against the other
// candidates), then served as an ONNX graph that computes the same function.
import { Rng } from "../random.js";

/** One hidden layer: score = w2 · relu(W1 · ((x − mean) ⊙ scale) + b1) + b2. Float32 arrays throughout. */
export interface RankerMlp {
  /** Features per row. */
  inputs: number;
  hidden: number;
  /** inputs: the standardisation learned from the training rows. */
  mean: Float32Array;
  /** inputs: 1 / std (1 where a feature is constant). */
  scale: Float32Array;
  /** hidden × inputs, row-major. */
  w1: Float32Array;
  /** hidden */
  b1: Float32Array;
  /** hidden */
  w2: Float32Array;
  b2: number;
}

/**
 * Scores of `rows` rows of `model.inputs` features (row-major): the TypeScript
 * reference of the ONNX graph. The standardisation is rounded to float32 step
 * by step as the graph's Sub and Mul do, and so are the hidden activations;
 * sums run in float64, so only the graph's own float32 sums differ from this.
 * Returns the first `rows` entries of `out` when one is given.
 */
export function scoreRows(model: RankerMlp, features: Float32Array, rows: number, out = new Float32Array(rows)): Float32Array {
  const { inputs, hidden, mean, scale, w1, b1, w2, b2 } = model;
  if (features.length !== rows * inputs) throw new RangeError(`${features.length} features are not ${rows} rows of ${inputs}`);
  if (out.length < rows) throw new RangeError(`an output of ${out.length} scores cannot hold ${rows} rows`);
  const standardised = new Float32Array(inputs);
  for (let row = 0; row < rows; row++) {
    const offset = row * inputs;
    for (let k = 0; k < inputs; k++) standardised[k] = Math.fround(features[offset + k]! - mean[k]!) * scale[k]!;
    let score = 0;
    for (let j = 0; j < hidden; j++) {
      const weights = j * inputs;
      let activation = b1[j]!;
      for (let k = 0; k < inputs; k++) activation += w1[weights + k]! * standardised[k]!;
      if (activation > 0) score += w2[j]! * Math.fround(activation);
    }
    out[row] = score + b2;
  }
  return out.subarray(0, rows);
}

/** A query's candidates as rows of features (row-major), and which row is the one the user went on to view. */
export interface RankingList {
  features: Float32Array;
  rows: number;
  target: number;
}

export interface RankerTrainingOptions {
  hidden: number;
  /** Passes over all lists, each in a fresh seeded order. */
  epochs: number;
  /** Adam's step size. */
  learningRate: number;
  /** Lists whose gradients are averaged into one step. */
  listsPerBatch: number;
  /** Penalty on the squared weights (not the biases), added to the gradient. */
  l2: number;
  seed: number;
  /** Asked between batches: true ends the training with RankerTrainingCancelled. */
  stop?: () => boolean;
}

/** Not tuned on any shop's data: the caller chooses epochs by validation. */
export const DEFAULT_RANKER_TRAINING: RankerTrainingOptions = {
  hidden: 16,
  epochs: 5,
  learningRate: 0.01,
  listsPerBatch: 32,
  l2: 1e-4,
  seed: 1,
};

export class RankerTrainingCancelled extends Error {
  constructor() {
    super("ranker training cancelled");
    this.name = "RankerTrainingCancelled";
  }
}

const ADAM_BETA1 = 0.9;
const ADAM_BETA2 = 0.999;
const ADAM_EPSILON = 1e-8;

/**
 * Listwise training: softmax cross-entropy of each list's target row against
 * its other rows, Adam, seeded initialisation and shuffling. The same lists and
 * seed give bit-identical weights. b2 is 0: adding one constant to every score
 * of a list leaves its softmax unchanged, so the loss cannot learn it.
 */
export function trainRankerMlp(lists: readonly RankingList[], inputs: number, options = DEFAULT_RANKER_TRAINING): RankerMlp {
  checkOptions(options);
  const longest = checkLists(lists, inputs);
  const { mean, scale } = standardisation(lists, inputs);
  const layout = new ParameterLayout(inputs, options.hidden);
  const rng = new Rng(options.seed);
  const parameters = initialParameters(layout, rng);
  const gradient = new ListGradient(layout, mean, scale, longest);
  const adam = new Adam(layout, options);
  const order = Array.from(lists, (_, index) => index);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    rng.shuffle(order);
    for (let start = 0; start < order.length; start += options.listsPerBatch) {
      if (options.stop?.()) throw new RankerTrainingCancelled();
      const end = Math.min(order.length, start + options.listsPerBatch);
      gradient.clear();
      for (let position = start; position < end; position++) gradient.add(lists[order[position]!]!, parameters);
      adam.step(parameters, gradient.sums, 1 / (end - start));
    }
  }
  return {
    inputs,
    hidden: options.hidden,
    mean,
    scale,
    w1: Float32Array.from(parameters.subarray(0, layout.b1)),
    b1: Float32Array.from(parameters.subarray(layout.b1, layout.w2)),
    w2: Float32Array.from(parameters.subarray(layout.w2, layout.size)),
    b2: 0,
  };
}

function checkOptions(options: RankerTrainingOptions): void {
  const { hidden, epochs, learningRate, listsPerBatch, l2 } = options;
  if (!Number.isInteger(hidden) || hidden < 1) throw new RangeError(`hidden must be a positive integer, not ${hidden}`);
  if (!Number.isInteger(epochs) || epochs < 0) throw new RangeError(`epochs must be a non-negative integer, not ${epochs}`);
  if (!Number.isInteger(listsPerBatch) || listsPerBatch < 1)
    throw new RangeError(`listsPerBatch must be a positive integer, not ${listsPerBatch}`);
  if (!(learningRate >= 0 && Number.isFinite(learningRate)))
    throw new RangeError(`learningRate must be finite and ≥ 0, not ${learningRate}`);
  if (!(l2 >= 0 && Number.isFinite(l2))) throw new RangeError(`l2 must be finite and ≥ 0, not ${l2}`);
}

/** Throws a RangeError on a malformed list or a non-finite feature (a caller's bug); returns the most rows of any list. */
function checkLists(lists: readonly RankingList[], inputs: number): number {
  if (!Number.isInteger(inputs) || inputs < 1) throw new RangeError(`inputs must be a positive integer, not ${inputs}`);
  if (lists.length === 0) throw new RangeError("no ranking lists to train on");
  let longest = 0;
  lists.forEach(({ features, rows, target }, list) => {
    if (features.length !== rows * inputs)
      throw new RangeError(`list ${list}: ${features.length} features are not ${rows} rows of ${inputs}`);
    if (!Number.isInteger(target) || target < 0 || target >= rows)
      throw new RangeError(`list ${list}: target ${target} is not one of its ${rows} rows`);
    for (let index = 0; index < features.length; index++) {
      if (!Number.isFinite(features[index]!)) {
        const [row, column] = [Math.floor(index / inputs), index % inputs];
        throw new RangeError(`list ${list}, row ${row}, column ${column}: feature ${features[index]} is not finite`);
      }
    }
    longest = Math.max(longest, rows);
  });
  return longest;
}

/**
 * Mean and 1 / std of each column over every row of every list (float64 sums),
 * rounded to the float32 the model keeps, so training standardises as serving
 * will. A constant column keeps its value as the mean and a scale of 1, so it
 * standardises to exactly 0 instead of dividing by a rounding error.
 */
function standardisation(lists: readonly RankingList[], inputs: number): { mean: Float32Array; scale: Float32Array } {
  const sum = new Float64Array(inputs);
  const first = Float64Array.from(lists[0]!.features.subarray(0, inputs));
  const constant = new Uint8Array(inputs).fill(1);
  let count = 0;
  for (const { features, rows } of lists) {
    for (let index = 0; index < rows * inputs; index++) {
      const column = index % inputs;
      sum[column] = sum[column]! + features[index]!;
      if (features[index] !== first[column]) constant[column] = 0;
    }
    count += rows;
  }
  const mean = sum.map((total) => total / count);
  const squares = new Float64Array(inputs);
  for (const { features, rows } of lists) {
    for (let index = 0; index < rows * inputs; index++) {
      const column = index % inputs;
      squares[column] = squares[column]! + (features[index]! - mean[column]!) ** 2;
    }
  }
  const scale = squares.map((total, column) => (constant[column] ? 1 : 1 / Math.sqrt(total / count)));
  constant.forEach((isConstant, column) => {
    if (isConstant) mean[column] = first[column]!;
  });
  return { mean: Float32Array.from(mean), scale: Float32Array.from(scale) };
}

/** Where each weight lives in the one flat parameter array (and its gradient and Adam moments): W1, b1, w2. */
class ParameterLayout {
  readonly b1: number;
  readonly w2: number;
  readonly size: number;

  constructor(
    readonly inputs: number,
    readonly hidden: number,
  ) {
    this.b1 = hidden * inputs;
    this.w2 = this.b1 + hidden;
    this.size = this.w2 + hidden;
  }
}

/** He initialisation for the ReLU layer, unit output variance for the scoring layer, biases 0. */
function initialParameters(layout: ParameterLayout, rng: Rng): Float64Array {
  const parameters = new Float64Array(layout.size);
  const w1Deviation = Math.sqrt(2 / layout.inputs);
  for (let index = 0; index < layout.b1; index++) parameters[index] = rng.normal(0, w1Deviation);
  const w2Deviation = Math.sqrt(1 / layout.hidden);
  for (let index = layout.w2; index < layout.size; index++) parameters[index] = rng.normal(0, w2Deviation);
  return parameters;
}

/** Sums the loss's gradient over lists, in buffers sized once for the longest list. */
class ListGradient {
  readonly sums: Float64Array;
  private readonly standardised: Float64Array;
  private readonly activations: Float64Array;
  private readonly scores: Float64Array;

  constructor(
    private readonly layout: ParameterLayout,
    private readonly mean: Float32Array,
    private readonly scale: Float32Array,
    longest: number,
  ) {
    this.sums = new Float64Array(layout.size);
    this.standardised = new Float64Array(longest * layout.inputs);
    this.activations = new Float64Array(longest * layout.hidden);
    this.scores = new Float64Array(longest);
  }

  clear(): void {
    this.sums.fill(0);
  }

  /** Adds the gradient of −log softmax(scores)[target] for one list. */
  add(list: RankingList, parameters: Float64Array): void {
    this.forward(list, parameters);
    this.softmax(list.rows);
    this.backward(list, parameters);
  }

  /** Standardised rows, their hidden activations and their scores, kept for the backward pass. */
  private forward({ features, rows }: RankingList, parameters: Float64Array): void {
    const { inputs, hidden, b1, w2 } = this.layout;
    const { standardised, activations, scores, mean, scale } = this;
    for (let row = 0, offset = 0; row < rows; row++, offset += inputs) {
      for (let k = 0; k < inputs; k++) standardised[offset + k] = (features[offset + k]! - mean[k]!) * scale[k]!;
    }
    for (let row = 0, offset = 0; row < rows; row++, offset += inputs) {
      let score = 0;
      for (let j = 0, weights = 0; j < hidden; j++, weights += inputs) {
        let activation = parameters[b1 + j]!;
        for (let k = 0; k < inputs; k++) activation += parameters[weights + k]! * standardised[offset + k]!;
        activation = activation > 0 ? activation : 0;
        activations[row * hidden + j] = activation;
        score += parameters[w2 + j]! * activation;
      }
      scores[row] = score;
    }
  }

  /** The scores, in place, as softmax probabilities (less the highest first, so no exp overflows). */
  private softmax(rows: number): void {
    const { scores } = this;
    let highest = -Infinity;
    for (let row = 0; row < rows; row++) highest = Math.max(highest, scores[row]!);
    let total = 0;
    for (let row = 0; row < rows; row++) {
      scores[row] = Math.exp(scores[row]! - highest);
      total += scores[row]!;
    }
    for (let row = 0; row < rows; row++) scores[row] = scores[row]! / total;
  }

  private backward({ rows, target }: RankingList, parameters: Float64Array): void {
    const { inputs, hidden, b1, w2 } = this.layout;
    const { standardised, activations, scores, sums } = this;
    for (let row = 0, offset = 0; row < rows; row++, offset += inputs) {
      // d loss / d score: the row's probability, less 1 for the target.
      const slope = scores[row]! - (row === target ? 1 : 0);
      for (let j = 0, weights = 0; j < hidden; j++, weights += inputs) {
        const activation = activations[row * hidden + j]!;
        // An inactive unit passes no gradient to its weights, and its w2 weight saw 0.
        if (activation === 0) continue;
        sums[w2 + j] = sums[w2 + j]! + slope * activation;
        const back = slope * parameters[w2 + j]!;
        sums[b1 + j] = sums[b1 + j]! + back;
        for (let k = 0; k < inputs; k++) sums[weights + k] = sums[weights + k]! + back * standardised[offset + k]!;
      }
    }
  }
}

/** Adam over the flat parameters, with the L2 penalty's gradient added to the weights (W1, w2) only. */
class Adam {
  private readonly first: Float64Array;
  private readonly second: Float64Array;
  private beta1Power = 1;
  private beta2Power = 1;

  constructor(
    private readonly layout: ParameterLayout,
    private readonly options: RankerTrainingOptions,
  ) {
    this.first = new Float64Array(layout.size);
    this.second = new Float64Array(layout.size);
  }

  /** One step on the gradient `sums × weight` (weight 1 / the batch's lists, for their mean). */
  step(parameters: Float64Array, sums: Float64Array, weight: number): void {
    const { first, second, layout } = this;
    const { learningRate, l2 } = this.options;
    this.beta1Power *= ADAM_BETA1;
    this.beta2Power *= ADAM_BETA2;
    const stepSize = (learningRate * Math.sqrt(1 - this.beta2Power)) / (1 - this.beta1Power);
    for (let index = 0; index < layout.size; index++) {
      const isBias = index >= layout.b1 && index < layout.w2;
      const slope = sums[index]! * weight + (isBias ? 0 : l2 * parameters[index]!);
      first[index] = ADAM_BETA1 * first[index]! + (1 - ADAM_BETA1) * slope;
      second[index] = ADAM_BETA2 * second[index]! + (1 - ADAM_BETA2) * slope * slope;
      parameters[index] = parameters[index]! - (stepSize * first[index]!) / (Math.sqrt(second[index]!) + ADAM_EPSILON);
    }
  }
}
