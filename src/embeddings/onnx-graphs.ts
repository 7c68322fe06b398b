// ONNX files the project writes itself (standard operators, opset 13): the
// product encoder with its trained table, and a nearest-neighbour graph that
// scores a batch of vectors against the catalogue in one matrix product. The
// small builders here serve every graph the project writes (ranker-graph.ts too).
import onnxProto, { type onnx as Onnx } from "onnx-proto";
import type { EmbeddingModel } from "../core/embedding/model.js";

const { onnx } = onnxProto;
type TensorShape = (number | string)[];

const OPSET = 13;
export const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

/** Names of the encoder's inputs and output: the manifest and the runtime use these. */
export const ENCODER_IO = { featureIds: "feature_ids", featureWeights: "feature_weights", embedding: "embedding" } as const;
export const KNN_IO = { queries: "queries", corpus: "corpus", k: "k", scores: "scores", indices: "indices" } as const;

export function valueInfo(name: string, elemType: number, shape: TensorShape): Onnx.IValueInfoProto {
  const dim = shape.map((size) => (typeof size === "number" ? { dimValue: size } : { dimParam: size }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

export function floatTensor(name: string, dims: number[], values: Float32Array): Onnx.ITensorProto {
  return { name, dims, dataType: FLOAT, rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength) };
}

function int64Tensor(name: string, values: number[]): Onnx.ITensorProto {
  const data = BigInt64Array.from(values, (value) => BigInt(value));
  return { name, dims: [values.length], dataType: INT64, rawData: new Uint8Array(data.buffer) };
}

export function node(opType: string, inputs: string[], outputs: string[], attributes: Onnx.IAttributeProto[] = []): Onnx.INodeProto {
  return { opType, input: inputs, output: outputs, name: outputs[0], attribute: attributes };
}

export function intAttribute(name: string, value: number): Onnx.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
}

export function modelBytes(graph: Onnx.IGraphProto, docString: string): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: "", version: OPSET }],
    producerName: "aisle",
    docString,
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * embedding[b] = normalise(Σ_l weights[b,l] · idf[ids[b,l]] · table[ids[b,l]]).
 * Rows are padded with weight 0, so a batch may mix products with different
 * numbers of features. The norm is floored (as in the TypeScript reference)
 * so an all-padding row stays zero instead of dividing by zero.
 */
export function encoderGraph(model: EmbeddingModel): Uint8Array {
  const { dims, scheme } = model;
  const io = ENCODER_IO;
  const graph: Onnx.IGraphProto = {
    name: "aisle_product_encoder",
    input: [valueInfo(io.featureIds, INT64, ["batch", "features"]), valueInfo(io.featureWeights, FLOAT, ["batch", "features"])],
    output: [valueInfo(io.embedding, FLOAT, ["batch", dims])],
    initializer: [
      floatTensor("table", [scheme.buckets, dims], model.table),
      floatTensor("idf", [scheme.buckets], model.idf),
      int64Tensor("axis_features", [1]),
      int64Tensor("axis_last", [2]),
      floatTensor("min_squared_norm", [], new Float32Array([1e-24])),
    ],
    node: [
      node("Gather", ["idf", io.featureIds], ["feature_idf"]),
      node("Mul", [io.featureWeights, "feature_idf"], ["feature_scale"]),
      node("Unsqueeze", ["feature_scale", "axis_last"], ["feature_scale_3d"]),
      node("Gather", ["table", io.featureIds], ["feature_rows"]),
      node("Mul", ["feature_rows", "feature_scale_3d"], ["weighted_rows"]),
      node("ReduceSum", ["weighted_rows", "axis_features"], ["summed"], [intAttribute("keepdims", 0)]),
      node("Mul", ["summed", "summed"], ["squares"]),
      node("ReduceSum", ["squares", "axis_features"], ["squared_norm"], [intAttribute("keepdims", 1)]),
      node("Max", ["squared_norm", "min_squared_norm"], ["safe_squared_norm"]),
      node("Sqrt", ["safe_squared_norm"], ["norm"]),
      node("Div", ["summed", "norm"], [io.embedding]),
    ],
  };
  return modelBytes(graph, "aisle product encoder: hashed text features → embedding table → weighted sum → L2 normalisation");
}

/** scores, indices = top-k of queries · corpusᵀ per query row (cosine similarity for unit vectors). */
export function nearestNeighbourGraph(dims: number): Uint8Array {
  const io = KNN_IO;
  const graph: Onnx.IGraphProto = {
    name: "aisle_nearest_neighbours",
    input: [valueInfo(io.queries, FLOAT, ["batch", dims]), valueInfo(io.corpus, FLOAT, ["products", dims]), valueInfo(io.k, INT64, [1])],
    output: [valueInfo(io.scores, FLOAT, ["batch", "k"]), valueInfo(io.indices, INT64, ["batch", "k"])],
    node: [
      node("Gemm", [io.queries, io.corpus], ["similarities"], [intAttribute("transB", 1)]),
      node(
        "TopK",
        ["similarities", io.k],
        [io.scores, io.indices],
        [intAttribute("axis", 1), intAttribute("largest", 1), intAttribute("sorted", 1)],
      ),
    ],
  };
  return modelBytes(graph, "aisle nearest neighbours: cosine similarity of unit vectors, top k");
}
