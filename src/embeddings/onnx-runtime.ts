// onnxruntime-node sessions for the encoder and the neighbour search. Only
// workers (and offline jobs) load this: session.run() computes on the calling
// thread, which must never be the uWS thread.
import ort from "onnxruntime-node";
import type { Features } from "../core/embedding/features.js";
import { ENCODER_IO, KNN_IO, nearestNeighbourGraph } from "./onnx-graphs.js";

/** One thread, no spinning: two cores are shared by the HTTP thread and every worker. */
export const SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: "sequential",
  graphOptimizationLevel: "all",
  extra: { session: { intra_op: { allow_spinning: "0" }, inter_op: { allow_spinning: "0" } } },
};

export class Encoder {
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly dims: number,
  ) {}

  /**
   * Loads a model from its bytes and runs it once, so the first real request
   * pays no set-up. Bytes, not a path: a model file reaches this only through
   * loadModelFile (model-file.ts), which checks it against its manifest first.
   */
  static async load(model: Uint8Array, dims: number): Promise<Encoder> {
    const session = await ort.InferenceSession.create(model, SESSION_OPTIONS);
    const encoder = new Encoder(session, dims);
    await encoder.embed([{ ids: new Int32Array([0]), weights: new Float32Array([0]) }]);
    return encoder;
  }

  /** Unit vectors, one row of `dims` per input, in one run (rows padded with weight 0). */
  async embed(batch: Features[]): Promise<Float32Array> {
    const width = Math.max(1, ...batch.map((features) => features.ids.length));
    const ids = new BigInt64Array(batch.length * width);
    const weights = new Float32Array(batch.length * width);
    batch.forEach((features, row) => {
      for (let index = 0; index < features.ids.length; index++) {
        ids[row * width + index] = BigInt(features.ids[index]!);
        weights[row * width + index] = features.weights[index]!;
      }
    });
    const output = await this.session.run({
      [ENCODER_IO.featureIds]: new ort.Tensor("int64", ids, [batch.length, width]),
      [ENCODER_IO.featureWeights]: new ort.Tensor("float32", weights, [batch.length, width]),
    });
    return output[ENCODER_IO.embedding]!.data as Float32Array;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

export interface Neighbours {
  /** batch × k, best first. */
  indices: Int32Array;
  scores: Float32Array;
  k: number;
}

/** Top-k cosine neighbours of query vectors among a corpus of unit vectors (one Gemm + TopK in ONNX Runtime). */
export class NeighbourSearch {
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly dims: number,
  ) {}

  static async create(dims: number): Promise<NeighbourSearch> {
    return new NeighbourSearch(await ort.InferenceSession.create(nearestNeighbourGraph(dims), SESSION_OPTIONS), dims);
  }

  async search(queries: Float32Array, corpus: Float32Array, k: number): Promise<Neighbours> {
    const { dims } = this;
    const size = corpus.length / dims;
    const kept = Math.min(k, size);
    const output = await this.session.run({
      [KNN_IO.queries]: new ort.Tensor("float32", queries, [queries.length / dims, dims]),
      [KNN_IO.corpus]: new ort.Tensor("float32", corpus, [size, dims]),
      [KNN_IO.k]: new ort.Tensor("int64", BigInt64Array.from([BigInt(kept)]), [1]),
    });
    const indices = Int32Array.from(output[KNN_IO.indices]!.data as BigInt64Array, Number);
    return { indices, scores: output[KNN_IO.scores]!.data as Float32Array, k: kept };
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
