import { describe, expect, it } from "vitest";
import {
  DEFAULT_HASHING,
  FeaturePacker,
  fnv1a,
  idBucket,
  productFeatures,
  queryFeatures,
  type HashingScheme,
} from "../../src/core/embedding/features.js";
import { dot, embedInto } from "../../src/core/embedding/model.js";
import {
  DEFAULT_TRAINING,
  fineTune,
  groupsOf,
  logSamplingShares,
  softmaxGradient,
  textOnlyModel,
  type BehaviourGroups,
} from "../../src/core/embedding/train.js";

const scheme: HashingScheme = { ...DEFAULT_HASHING, buckets: 1 << 14 };
const text = (id: number, title: string, productType: string) => ({
  id,
  title,
  product_type: productType,
  vendor: "Acme",
  tags: "",
  body_html: "",
});
const catalogue = [
  text(1, "Red velvet sofa", "Sofa"),
  text(2, "Grey linen sofa", "Sofa"),
  text(3, "Steel camp kettle", "Kettle"),
  text(4, "Enamel camp mug", "Mug"),
  text(5, "Ceramic coffee mug", "Mug"),
  text(6, "Wool hiking socks", "Socks"),
];
const features = catalogue.map((product) => productFeatures(product, scheme));
const ids = catalogue.map((product) => product.id);
const options = { ...DEFAULT_TRAINING, minSamples: 3_000, batchSize: 4 };

function cosine(model: ReturnType<typeof textOnlyModel>, a: number, b: number): number {
  const va = new Float32Array(model.dims);
  const vb = new Float32Array(model.dims);
  embedInto(model, features[a]!, va);
  embedInto(model, features[b]!, vb);
  return dot(va, 0, vb, 0, model.dims);
}

describe("hashed text features", () => {
  it("hashes with 32-bit FNV-1a (the manifest's documented function)", () => {
    expect(fnv1a("")).toBe(0x811c9dc5);
    expect(fnv1a("a")).toBe(0xe40c292c);
  });

  it("adds up repeated tokens, keeps ids sorted and unique, and includes the product's own id feature", () => {
    const sofa = productFeatures(text(9, "Sofa sofa", "Sofa"), scheme);
    expect([...sofa.ids]).toEqual([...new Set(sofa.ids)].sort((a, b) => a - b));
    expect(sofa.ids).toContain(idBucket(9, scheme));
    const single = productFeatures(text(9, "Sofa", "Sofa"), scheme);
    const weightOf = (f: typeof sofa, token: string) => f.weights[f.ids.indexOf(fnv1a(token) & (scheme.buckets - 1))];
    expect(weightOf(sofa, "w:sofa")).toBeGreaterThan(weightOf(single, "w:sofa")!);
  });

  it("embeds a query like a title, without an id feature, and drops stop words", () => {
    const query = queryFeatures("the sofa", scheme);
    const title = queryFeatures("sofa", scheme);
    expect([...query.ids]).toEqual([...title.ids]);
  });
});

describe("FeaturePacker", () => {
  it("gives back each product's features unchanged, across slabs, none overwriting another", () => {
    const packer = new FeaturePacker();
    const originals = Array.from({ length: 3 }, (_, i) => ({
      ids: Int32Array.from({ length: 400_000 }, (_, k) => k * 3 + i),
      weights: Float32Array.from({ length: 400_000 }, (_, k) => (k % 7) / 7 + i),
    }));
    // 1.2M entries: past the first slab of 1M, so the third product starts a new one.
    const packed = originals.map((features) => packer.pack(features));
    packed.forEach((features, i) => {
      expect(features.ids).toEqual(originals[i]!.ids);
      expect(features.weights).toEqual(originals[i]!.weights);
    });
    expect(packed[0]!.ids.buffer).toBe(packed[1]!.ids.buffer);
    expect(packed[2]!.ids.buffer).not.toBe(packed[1]!.ids.buffer);
  });
});

describe("training", () => {
  it("starts from text alone: products sharing words are closer than unrelated ones, and id rows are zero", () => {
    const model = textOnlyModel(features, ids, scheme, DEFAULT_TRAINING);
    expect(cosine(model, 3, 4)).toBeGreaterThan(cosine(model, 3, 5));
    const row = idBucket(1, scheme) * model.dims;
    expect(model.table.subarray(row, row + model.dims).every((value) => value === 0)).toBe(true);
    expect(model.idf[fnv1a("w:nothing-like-this") & (scheme.buckets - 1)]).toBe(0);
  });

  it("is deterministic given the seed", () => {
    const groups: BehaviourGroups = groupsOf(
      [
        [0, 5],
        [2, 3],
      ],
      [1, 1],
      [0, 0],
    );
    const a = textOnlyModel(features, ids, scheme, DEFAULT_TRAINING);
    const b = textOnlyModel(features, ids, scheme, DEFAULT_TRAINING);
    fineTune(a, features, groups, options);
    fineTune(b, features, groups, options);
    expect(Buffer.from(a.table.buffer).equals(Buffer.from(b.table.buffer))).toBe(true);
  });

  it("moves products bought together closer, lowering the loss", () => {
    // A sofa and socks have nothing in common in text; behaviour says they go together.
    const groups: BehaviourGroups = groupsOf(
      [
        [0, 5],
        [2, 4],
        [1, 3],
      ],
      [1, 1, 1],
      [0, 0, 0],
    );
    const model = textOnlyModel(features, ids, scheme, DEFAULT_TRAINING);
    const before = cosine(model, 0, 5);
    const summary = fineTune(model, features, groups, options);
    expect(cosine(model, 0, 5)).toBeGreaterThan(before + 0.2);
    expect(summary.lastLoss).toBeLessThan(summary.firstLoss);
    expect(summary.samples).toBe(options.minSamples);
  });
});

describe("the popularity correction", () => {
  it("takes each product's log share of drawn pair members: a group's weight split equally among its members", () => {
    const groups = groupsOf(
      [
        [0, 1],
        [0, 2, 3],
      ],
      [1, 2],
      [0, 0],
    );
    const shares = logSamplingShares(groups, 5);
    // Of the weight 3: product 0 has 1/2 + 2/3, product 1 has 1/2, products 2 and 3 have 2/3 each.
    expect(Array.from(shares.subarray(0, 4))).toEqual(
      [7 / 6 / 3, 1 / 2 / 3, 2 / 3 / 3, 2 / 3 / 3].map((share) => expect.closeTo(Math.log(share), 6)),
    );
    expect(shares[4]).toBe(0);
  });

  it("lowers each column's logits by its correction: the loss and its gradient match the corrected softmax and finite differences", () => {
    const size = 3;
    const logits = Float32Array.from([2, 0.5, -1, 0.3, 1.5, 0.2, -0.4, 0.8, 1.1]);
    const correction = Float32Array.from([-1, -3, -2]);
    const at = (row: number, column: number) => row * size + column;
    const lossOf = (values: Float32Array) => softmaxGradient(values, new Float32Array(size * size), size, at, correction);
    let expected = 0;
    for (let row = 0; row < size; row++) {
      const corrected = [0, 1, 2].map((column) => logits[at(row, column)]! - correction[column]!);
      expected += Math.log(corrected.reduce((sum, value) => sum + Math.exp(value), 0)) - corrected[row]!;
    }
    const gradient = new Float32Array(size * size);
    expect(softmaxGradient(logits, gradient, size, at, correction)).toBeCloseTo(expected, 5);
    // Equal corrections in every column change nothing; these unequal ones must.
    expect(
      Math.abs(lossOf(logits) - softmaxGradient(logits, new Float32Array(size * size), size, at, new Float32Array(size))),
    ).toBeGreaterThan(0.1);
    const step = 1e-2;
    for (let index = 0; index < logits.length; index++) {
      const up = Float32Array.from(logits);
      const down = Float32Array.from(logits);
      up[index]! += step;
      down[index]! -= step;
      expect(gradient[index]).toBeCloseTo((lossOf(up) - lossOf(down)) / (2 * step), 3);
    }
  });

  it("changes training only where products are drawn unequally often", () => {
    const tableAfter = (groups: BehaviourGroups, popularityCorrection: number) => {
      const model = textOnlyModel(features, ids, scheme, DEFAULT_TRAINING);
      fineTune(model, features, groups, { ...options, popularityCorrection });
      return model.table;
    };
    const largestDifference = (groups: BehaviourGroups) => {
      const [without, withIt] = [tableAfter(groups, 0), tableAfter(groups, 1)];
      return without.reduce((largest, value, index) => Math.max(largest, Math.abs(value - withIt[index]!)), 0);
    };
    const evenly = groupsOf(
      [
        [0, 1],
        [2, 3],
        [4, 5],
      ],
      [1, 1, 1],
      [0, 0, 0],
    );
    // The kettle (2) is in every order: its logits as a candidate are lowered most.
    const aroundTheKettle = groupsOf(
      [0, 1, 3, 4, 5].map((partner) => [2, partner]),
      [1, 1, 1, 1, 1],
      [0, 0, 0, 0, 0],
    );
    // Equal shares lower every logit of a softmax alike, which changes none of its probabilities (up to rounding).
    expect(largestDifference(evenly)).toBeLessThan(1e-4);
    expect(largestDifference(aroundTheKettle)).toBeGreaterThan(1e-2);
  });
});
