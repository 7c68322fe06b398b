// Training the product encoder: a text-only start (a random projection of
// TF-IDF), then fine-tuning on behaviour so products bought or viewed together
// move closer. Plain typed arrays, one thread, deterministic given the seed.
import { Rng } from "../random.js";
import { idBucket, type Features, type HashingScheme } from "./features.js";
import { inverseDocumentFrequency, MIN_NORM, type EmbeddingModel } from "./model.js";

export interface TrainingOptions {
  dims: number;
  seed: number;
  /** Behaviour pairs drawn per product with behaviour (how long fine-tuning runs)… */
  samplesPerProduct: number;
  /** …within these bounds, so a big catalogue trains in seconds, not minutes. */
  minSamples: number;
  maxSamples: number;
  batchSize: number;
  /** Softmax temperature of the in-batch contrastive loss. */
  temperature: number;
  learningRate: number;
  /**
   * How much of each candidate's log sampling share is taken off its logit
   * (the logQ correction of sampled softmax). In-batch negatives are other
   * pairs' members, so a product turns up as a negative as often as it is
   * bought: uncorrected (0), the loss pushes popular products away from
   * everything, bestsellers included in their own partners' lists. 1 removes
   * that bias exactly.
   */
  popularityCorrection: number;
}

export const DEFAULT_TRAINING: TrainingOptions = {
  dims: 64,
  seed: 1,
  // Tuned on the Online Retail validation month (see models/README.md).
  samplesPerProduct: 40,
  minSamples: 2_000,
  maxSamples: 250_000,
  batchSize: 64,
  temperature: 0.1,
  learningRate: 0.05,
  // The exact correction; 0.75 and 1.25 scored within 0.006 HR@10 of it on the validation month, 0 scored 0.08 lower.
  popularityCorrection: 1,
};

/**
 * Groups of products that belong together: an order's products or a
 * session's views, by index into the catalogue, with a weight (recency).
 * Pairs are drawn from groups, so a big basket never has to be expanded into
 * all its pairs. Held flat (a catalogue of 1M products has millions of
 * groups: a typed array each took more memory than their members).
 */
export interface BehaviourGroups {
  /** Every group's members, one group after another. */
  items: Int32Array;
  /** Group g's members are items[starts[g]] … items[starts[g + 1] − 1]; one more entry than there are groups. */
  starts: Int32Array;
  weights: Float64Array;
  /** Views: only products this close in the sequence pair up; orders: 0 (any two). */
  windows: Uint8Array;
}

/** Groups from one list of members each (tests, small callers). */
export function groupsOf(members: ArrayLike<number>[], weights: ArrayLike<number>, windows: ArrayLike<number>): BehaviourGroups {
  const starts = new Int32Array(members.length + 1);
  members.forEach((group, index) => (starts[index + 1] = starts[index]! + group.length));
  const items = new Int32Array(starts[members.length]!);
  members.forEach((group, index) => items.set(Array.from(group), starts[index]!));
  return { items, starts, weights: Float64Array.from(weights), windows: Uint8Array.from(windows) };
}

export interface TrainingProgress {
  done: number;
  total: number;
  loss: number;
}

export interface TrainingSummary {
  samples: number;
  batches: number;
  firstLoss: number;
  lastLoss: number;
}

/** The starting point: random Gaussian rows (a projection of TF-IDF), product id rows at zero. */
export function textOnlyModel(
  catalogue: Features[],
  productIds: number[],
  scheme: HashingScheme,
  options: Pick<TrainingOptions, "dims" | "seed">,
): EmbeddingModel {
  const { dims } = options;
  const rng = new Rng(options.seed);
  const table = new Float32Array(scheme.buckets * dims);
  const scale = 1 / Math.sqrt(dims);
  for (let index = 0; index < table.length; index += 2) {
    // Box–Muller: two normals from two uniforms.
    const radius = Math.sqrt(-2 * Math.log(1 - rng.next())) * scale;
    const angle = 2 * Math.PI * rng.next();
    table[index] = radius * Math.cos(angle);
    if (index + 1 < table.length) table[index + 1] = radius * Math.sin(angle);
  }
  // A product's own feature knows nothing until behaviour teaches it.
  for (const id of productIds) table.fill(0, idBucket(id, scheme) * dims, (idBucket(id, scheme) + 1) * dims);
  return { dims, scheme, table, idf: inverseDocumentFrequency(scheme.buckets, catalogue) };
}

/** Draws a group with probability proportional to its weight, then two of its members. */
class PairSampler {
  private readonly cumulative: Float64Array;

  constructor(
    private readonly groups: BehaviourGroups,
    private readonly rng: Rng,
  ) {
    this.cumulative = new Float64Array(groups.weights.length);
    let total = 0;
    for (let index = 0; index < groups.weights.length; index++) {
      total += groups.weights[index]!;
      this.cumulative[index] = total;
    }
  }

  get usable(): boolean {
    return this.cumulative.length > 0 && this.cumulative[this.cumulative.length - 1]! > 0;
  }

  draw(): [number, number] {
    const target = this.rng.next() * this.cumulative[this.cumulative.length - 1]!;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.cumulative[middle]! > target) high = middle;
      else low = middle + 1;
    }
    const { items, starts } = this.groups;
    const start = starts[low]!;
    const size = starts[low + 1]! - start;
    const window = this.groups.windows[low]!;
    const first = Math.floor(this.rng.next() * size);
    let second: number;
    if (window === 0) {
      second = Math.floor(this.rng.next() * (size - 1));
      if (second >= first) second++;
    } else {
      const offset = 1 + Math.floor(this.rng.next() * window);
      second = this.rng.next() < 0.5 ? first - offset : first + offset;
      second = Math.min(size - 1, Math.max(0, second));
      if (second === first) second = first === 0 ? 1 : first - 1;
    }
    return [items[start + first]!, items[start + second]!];
  }
}

/**
 * Fine-tunes `model` in place with an in-batch contrastive loss (each pair's
 * partner against the batch's other partners, both directions) and row-wise
 * Adagrad on the table rows the batch touched.
 */
export function fineTune(
  model: EmbeddingModel,
  catalogue: Features[],
  groups: BehaviourGroups,
  options: TrainingOptions,
  onProgress: (progress: TrainingProgress) => void = () => {},
  /** Called before each batch; may throw to stop the training (see similar/cancellation.ts). */
  checkpoint: () => void = () => {},
): TrainingSummary {
  const rng = new Rng(options.seed + 1);
  const sampler = new PairSampler(groups, rng);
  const withBehaviour = new Set<number>();
  for (const member of groups.items) withBehaviour.add(member);
  const samples = sampler.usable
    ? Math.min(options.maxSamples, Math.max(options.minSamples, options.samplesPerProduct * withBehaviour.size))
    : 0;
  const batches = Math.ceil(samples / options.batchSize);
  const step = new ContrastiveStep(model, catalogue, options, logSamplingShares(groups, catalogue.length));
  let firstLoss = Number.NaN;
  let recentLoss = 0;
  const reportEvery = Math.max(1, Math.floor(batches / 100));
  for (let batch = 0; batch < batches; batch++) {
    checkpoint();
    const size = Math.min(options.batchSize, samples - batch * options.batchSize);
    const left = new Int32Array(size);
    const right = new Int32Array(size);
    for (let index = 0; index < size; index++) [left[index], right[index]] = sampler.draw();
    const loss = step.run(left, right);
    if (batch === 0) firstLoss = loss;
    recentLoss = batch === 0 ? loss : 0.95 * recentLoss + 0.05 * loss;
    if ((batch + 1) % reportEvery === 0 || batch + 1 === batches) onProgress({ done: batch + 1, total: batches, loss: recentLoss });
  }
  return { samples, batches, firstLoss, lastLoss: recentLoss };
}

/**
 * Per catalogue index: the natural log of the share of drawn pair members that
 * are this product, as PairSampler draws them (a group is drawn by weight,
 * each of its members equally likely on either side: exact for orders, close
 * for view windows, whose ends are drawn a little less). 0 for products in no
 * group: they are never drawn, so never corrected.
 */
export function logSamplingShares(groups: BehaviourGroups, products: number): Float32Array {
  const shares = new Float64Array(products);
  let total = 0;
  for (let group = 0; group < groups.weights.length; group++) {
    const start = groups.starts[group]!;
    const end = groups.starts[group + 1]!;
    const weight = groups.weights[group]!;
    total += weight;
    for (let member = start; member < end; member++) shares[groups.items[member]!]! += weight / (end - start);
  }
  return Float32Array.from(shares, (share) => (share > 0 ? Math.log(share / total) : 0));
}

/** One optimisation step; owns the scratch buffers so batches allocate nothing. */
class ContrastiveStep {
  private readonly dims: number;
  private readonly scale: number;
  private readonly gradient: Float32Array;
  private readonly touched: Int32Array;
  private readonly isTouched: Uint8Array;
  private readonly accumulated: Float32Array;
  /** Feature weight × idf per product, precomputed. */
  private readonly effective: Float32Array[];

  constructor(
    private readonly model: EmbeddingModel,
    private readonly catalogue: Features[],
    private readonly options: TrainingOptions,
    /** logSamplingShares of the behaviour trained on. */
    private readonly logShares: Float32Array,
  ) {
    this.dims = model.dims;
    this.scale = 1 / options.temperature;
    this.gradient = new Float32Array(model.table.length);
    this.isTouched = new Uint8Array(model.scheme.buckets);
    this.touched = new Int32Array(model.scheme.buckets);
    this.accumulated = new Float32Array(model.scheme.buckets);
    this.effective = catalogue.map((features) => features.weights.map((weight, index) => weight * model.idf[features.ids[index]!]!));
  }

  /** Returns the batch's mean loss. */
  run(left: Int32Array, right: Int32Array): number {
    const { dims, scale } = this;
    const size = left.length;
    const leftRaw = new Float32Array(size * dims);
    const rightRaw = new Float32Array(size * dims);
    const leftNorms = this.encode(left, leftRaw);
    const rightNorms = this.encode(right, rightRaw);
    const leftUnit = unitRows(leftRaw, leftNorms, dims);
    const rightUnit = unitRows(rightRaw, rightNorms, dims);

    // logits[i][j] = scale · left_i · right_j; the right answer is j = i.
    const logits = new Float32Array(size * size);
    for (let i = 0; i < size; i++) {
      const leftRow = i * dims;
      for (let j = 0; j < size; j++) {
        const rightRow = j * dims;
        let sum = 0;
        for (let dim = 0; dim < dims; dim++) sum += leftUnit[leftRow + dim]! * rightUnit[rightRow + dim]!;
        logits[i * size + j] = scale * sum;
      }
    }
    // d loss / d logits for both directions (rows: left → right, columns: right → left).
    const dLogits = new Float32Array(size * size);
    let loss = 0;
    const leftCorrection = this.corrections(left);
    const rightCorrection = this.corrections(right);
    loss += softmaxGradient(logits, dLogits, size, (i, j) => i * size + j, rightCorrection);
    loss += softmaxGradient(logits, dLogits, size, (i, j) => j * size + i, leftCorrection);
    const normaliser = 1 / (2 * size);
    const dLeft = new Float32Array(size * dims);
    const dRight = new Float32Array(size * dims);
    for (let i = 0; i < size; i++) {
      const leftRow = i * dims;
      for (let j = 0; j < size; j++) {
        const g = dLogits[i * size + j]! * scale * normaliser;
        const rightRow = j * dims;
        for (let dim = 0; dim < dims; dim++) {
          dLeft[leftRow + dim]! += g * rightUnit[rightRow + dim]!;
          dRight[rightRow + dim]! += g * leftUnit[leftRow + dim]!;
        }
      }
    }
    let touchedCount = 0;
    touchedCount = this.backpropagate(left, leftUnit, leftNorms, dLeft, touchedCount);
    touchedCount = this.backpropagate(right, rightUnit, rightNorms, dRight, touchedCount);
    this.applyAdagrad(touchedCount);
    return loss * normaliser;
  }

  /** What each product's logit as a candidate is lowered by. */
  private corrections(products: Int32Array): Float32Array {
    const { popularityCorrection } = this.options;
    return Float32Array.from(products, (product) => popularityCorrection * this.logShares[product]!);
  }

  /** Unnormalised vectors of the given products into `out`; returns their norms. */
  private encode(products: Int32Array, out: Float32Array): Float32Array {
    const { dims } = this;
    const { table } = this.model;
    const norms = new Float32Array(products.length);
    for (let index = 0; index < products.length; index++) {
      const features = this.catalogue[products[index]!]!;
      const weights = this.effective[products[index]!]!;
      const offset = index * dims;
      for (let feature = 0; feature < features.ids.length; feature++) {
        const weight = weights[feature]!;
        if (weight === 0) continue;
        const row = features.ids[feature]! * dims;
        for (let dim = 0; dim < dims; dim++) out[offset + dim]! += weight * table[row + dim]!;
      }
      let squares = 0;
      for (let dim = 0; dim < dims; dim++) squares += out[offset + dim]! ** 2;
      norms[index] = Math.sqrt(Math.max(squares, MIN_NORM * MIN_NORM));
    }
    return norms;
  }

  /** Through the normalisation (d/du of u/|u|) and the weighted sum, into the table rows' gradient. */
  private backpropagate(products: Int32Array, unit: Float32Array, norms: Float32Array, dUnit: Float32Array, touchedCount: number): number {
    const { dims, gradient } = this;
    const dRaw = new Float32Array(dims);
    for (let index = 0; index < products.length; index++) {
      const offset = index * dims;
      let projection = 0;
      for (let dim = 0; dim < dims; dim++) projection += unit[offset + dim]! * dUnit[offset + dim]!;
      for (let dim = 0; dim < dims; dim++) dRaw[dim] = (dUnit[offset + dim]! - unit[offset + dim]! * projection) / norms[index]!;
      const features = this.catalogue[products[index]!]!;
      const weights = this.effective[products[index]!]!;
      for (let feature = 0; feature < features.ids.length; feature++) {
        const weight = weights[feature]!;
        if (weight === 0) continue;
        const bucket = features.ids[feature]!;
        if (this.isTouched[bucket] === 0) {
          this.isTouched[bucket] = 1;
          this.touched[touchedCount++] = bucket;
        }
        const row = bucket * dims;
        for (let dim = 0; dim < dims; dim++) gradient[row + dim]! += weight * dRaw[dim]!;
      }
    }
    return touchedCount;
  }

  /** Row-wise Adagrad: one accumulator per row keeps rare features' steps large and frequent ones' small. */
  private applyAdagrad(touchedCount: number): void {
    const { dims, gradient } = this;
    const { table } = this.model;
    const rate = this.options.learningRate;
    for (let index = 0; index < touchedCount; index++) {
      const bucket = this.touched[index]!;
      const row = bucket * dims;
      let squares = 0;
      for (let dim = 0; dim < dims; dim++) squares += gradient[row + dim]! ** 2;
      this.accumulated[bucket]! += squares / dims;
      const step = rate / (Math.sqrt(this.accumulated[bucket]!) + 1e-8);
      for (let dim = 0; dim < dims; dim++) {
        table[row + dim]! -= step * gradient[row + dim]!;
        gradient[row + dim] = 0;
      }
      this.isTouched[bucket] = 0;
    }
  }
}

function unitRows(raw: Float32Array, norms: Float32Array, dims: number): Float32Array {
  const unit = new Float32Array(raw.length);
  for (let index = 0; index < norms.length; index++) {
    for (let dim = 0; dim < dims; dim++) unit[index * dims + dim] = raw[index * dims + dim]! / norms[index]!;
  }
  return unit;
}

/**
 * Cross-entropy of a softmax over each row of a square matrix (addressed
 * through `at`, so the same code does columns) with the diagonal as the target,
 * column c's logits lowered by `correction[c]`; adds the gradient with respect
 * to the logits into `dLogits` and returns the summed loss.
 */
export function softmaxGradient(
  logits: Float32Array,
  dLogits: Float32Array,
  size: number,
  at: (row: number, column: number) => number,
  correction: Float32Array,
): number {
  const corrected = (row: number, column: number) => logits[at(row, column)]! - correction[column]!;
  let loss = 0;
  for (let row = 0; row < size; row++) {
    let max = -Infinity;
    for (let column = 0; column < size; column++) max = Math.max(max, corrected(row, column));
    let total = 0;
    for (let column = 0; column < size; column++) total += Math.exp(corrected(row, column) - max);
    for (let column = 0; column < size; column++) {
      const probability = Math.exp(corrected(row, column) - max) / total;
      dLogits[at(row, column)]! += probability - (row === column ? 1 : 0);
    }
    loss += -(corrected(row, row) - max - Math.log(total));
  }
  return loss;
}
