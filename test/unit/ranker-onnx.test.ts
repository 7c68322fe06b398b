import { afterAll, describe, expect, it } from "vitest";
import { Rng } from "../../src/core/random.js";
import { scoreRows, trainRankerMlp, type RankerMlp } from "../../src/core/recs/ranker-mlp.js";
import { nearestNeighbourGraph } from "../../src/embeddings/onnx-graphs.js";
import { rankerGraph } from "../../src/embeddings/ranker-graph.js";
import { RankerSession } from "../../src/embeddings/ranker-runtime.js";

const normals = (rng: Rng, length: number, deviation: number) => Float32Array.from({ length }, () => rng.normal(0, deviation));

/** A model drawn at random, its first `constant` features with zero variance (mean their value, scale 1) as training leaves them. */
function randomModel(rng: Rng, inputs: number, hidden: number, constant: number): RankerMlp {
  const mean = normals(rng, inputs, 5);
  const scale = Float32Array.from({ length: inputs }, (_, column) => (column < constant ? 1 : 0.1 + 3 * rng.next()));
  return {
    inputs,
    hidden,
    mean,
    scale,
    w1: normals(rng, hidden * inputs, Math.sqrt(2 / inputs)),
    b1: normals(rng, hidden, 0.3),
    w2: normals(rng, hidden, Math.sqrt(1 / hidden)),
    b2: rng.normal(0, 1),
  };
}

/** Rows around the model's means, the constant features at exactly their value. */
function randomRows(rng: Rng, model: RankerMlp, rows: number, constant: number): Float32Array {
  const features = new Float32Array(rows * model.inputs);
  for (let index = 0; index < features.length; index++) {
    const column = index % model.inputs;
    features[index] = column < constant ? model.mean[column]! : model.mean[column]! + rng.normal(0, 2 / model.scale[column]!);
  }
  return features;
}

const sessions: RankerSession[] = [];
afterAll(() => Promise.all(sessions.map((session) => session.release())));

async function load(model: RankerMlp): Promise<RankerSession> {
  const session = await RankerSession.load(rankerGraph(model), model.inputs);
  sessions.push(session);
  return session;
}

function largestDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  return a.reduce((largest, value, index) => Math.max(largest, Math.abs(value - b[index]!)), 0);
}

describe("the ranker's ONNX graph", () => {
  it("scores as scoreRows within 1e-5 for random models (seeds, hidden sizes, constant features) and rows", async () => {
    for (const [seed, inputs, hidden, constant] of [
      [1, 16, 16, 0],
      [2, 16, 8, 3],
      [3, 5, 1, 1],
      [4, 24, 32, 2],
      [5, 1, 4, 1],
    ] as const) {
      const rng = new Rng(seed);
      const model = randomModel(rng, inputs, hidden, constant);
      const session = await load(model);
      for (const rows of [1, 7, 200]) {
        const features = randomRows(rng, model, rows, constant);
        expect(largestDifference(await session.score(features, rows), scoreRows(model, features, rows))).toBeLessThanOrEqual(1e-5);
      }
    }
  });

  it("scores a trained model as scoreRows within 1e-5", async () => {
    const rng = new Rng(9);
    const lists = Array.from({ length: 50 }, () => {
      const rows = rng.int(2, 30);
      const features = Float32Array.from({ length: rows * 6 }, (_, index) =>
        index % 6 === 5 ? 3 : rng.normal(index % 6, 1 + (index % 6)),
      );
      return { features, rows, target: rng.int(0, rows - 1) };
    });
    const model = trainRankerMlp(lists, 6);
    const session = await load(model);
    for (const { features, rows } of lists) {
      expect(largestDifference(await session.score(features, rows), scoreRows(model, features, rows))).toBeLessThanOrEqual(1e-5);
    }
  });

  it("answers no scores for no rows, and refuses features that are not whole rows", async () => {
    const session = await load(randomModel(new Rng(6), 4, 3, 0));
    expect(await session.score(new Float32Array(0), 0)).toEqual(new Float32Array(0));
    await expect(session.score(new Float32Array(7), 2)).rejects.toThrow(RangeError);
  });

  it("refuses at load a model whose rows are of another width, or a graph that is not a ranker", async () => {
    const model = randomModel(new Rng(7), 4, 3, 0);
    await expect(RankerSession.load(rankerGraph(model), 5)).rejects.toThrow("the ranker model takes rows of 4 features, not 5");
    await expect(RankerSession.load(nearestNeighbourGraph(4), 4)).rejects.toThrow(
      'the model is not a ranker: it has no float32 [rows, features] input named "features"',
    );
  });
});
