// The learned ranker in onnxruntime-node, for the pool workers: session.run()
// computes on the calling thread, which must never be the uWS thread.
import ort from "onnxruntime-node";
import { SESSION_OPTIONS } from "./onnx-runtime.js";
import { RANKER_IO } from "./ranker-graph.js";

export class RankerSession {
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly inputs: number,
  ) {}

  /**
   * Loads a ranker from its bytes, refuses one whose rows are not `inputs`
   * features wide (a model trained on another feature set would score garbage
   * or fail per request), and runs it once so the first request pays no set-up.
   */
  static async load(bytes: Uint8Array, inputs: number): Promise<RankerSession> {
    const session = await ort.InferenceSession.create(bytes, SESSION_OPTIONS);
    try {
      const width = featureWidth(session);
      if (width !== inputs) throw new Error(`the ranker model takes rows of ${width} features, not ${inputs}`);
      const ranker = new RankerSession(session, inputs);
      await ranker.score(new Float32Array(inputs), 1);
      return ranker;
    } catch (error) {
      await session.release();
      throw error;
    }
  }

  /** A score per row of `rows` × `inputs` features (row-major), in one run. */
  async score(features: Float32Array, rows: number): Promise<Float32Array> {
    if (features.length !== rows * this.inputs) throw new RangeError(`${features.length} features are not ${rows} rows of ${this.inputs}`);
    if (rows === 0) return new Float32Array(0);
    const output = await this.session.run({ [RANKER_IO.features]: new ort.Tensor("float32", features, [rows, this.inputs]) });
    return output[RANKER_IO.scores]!.data as Float32Array;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

/** The features input's row width as the model declares it: what rankerGraph writes is [rows, inputs] float32. */
function featureWidth(session: ort.InferenceSession): number | string {
  const input = session.inputMetadata.find((metadata) => metadata.name === RANKER_IO.features);
  if (input === undefined || !input.isTensor || input.type !== "float32" || input.shape.length !== 2) {
    throw new Error(`the model is not a ranker: it has no float32 [rows, features] input named "${RANKER_IO.features}"`);
  }
  return input.shape[1]!;
}
