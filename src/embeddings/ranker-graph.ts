// The learned ranker as an ONNX graph (opset 13): the same function as
// scoreRows in src/core/recs/ranker-mlp.ts, with the model's arrays as
// initializers, so a worker scores a list's candidates in one run.
import type { RankerMlp } from "../core/recs/ranker-mlp.js";
import { FLOAT, floatTensor, intAttribute, modelBytes, node, valueInfo } from "./onnx-graphs.js";

/** Names of the ranker's input (rows × inputs features) and output (a score per row). */
export const RANKER_IO = { features: "features", scores: "scores" } as const;

/** scores = w2 · relu(W1 · ((features − mean) ⊙ scale) + b1) + b2, per row. */
export function rankerGraph(model: RankerMlp): Uint8Array {
  const { inputs, hidden } = model;
  const io = RANKER_IO;
  const graph = {
    name: "aisle_ranker",
    input: [valueInfo(io.features, FLOAT, ["rows", inputs])],
    output: [valueInfo(io.scores, FLOAT, ["rows"])],
    initializer: [
      floatTensor("mean", [inputs], model.mean),
      floatTensor("scale", [inputs], model.scale),
      floatTensor("w1", [hidden, inputs], model.w1),
      floatTensor("b1", [hidden], model.b1),
      floatTensor("w2", [hidden], model.w2),
      floatTensor("b2", [], new Float32Array([model.b2])),
    ],
    node: [
      node("Sub", [io.features, "mean"], ["centred"]),
      node("Mul", ["centred", "scale"], ["standardised"]),
      node("Gemm", ["standardised", "w1", "b1"], ["hidden_input"], [intAttribute("transB", 1)]),
      node("Relu", ["hidden_input"], ["hidden_output"]),
      // A vector as MatMul's second input: [rows, hidden] · [hidden] is [rows].
      node("MatMul", ["hidden_output", "w2"], ["weighted"]),
      node("Add", ["weighted", "b2"], [io.scores]),
    ],
  };
  return modelBytes(graph, "aisle ranker: standardised features → one ReLU layer → a score per row");
}
