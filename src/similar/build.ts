// The full build of a merchant's similar-products model: features → text-only
// encoder → fine-tuning on behaviour → ONNX file and manifest → every product
// embedded by ONNX Runtime → nearest-neighbour lists → one LMDB transaction
// (vectors per product and as scannable rows, lists, manifest).
// Runs off the HTTP thread (a training worker or a CLI command).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  bucketsFor,
  DEFAULT_HASHING,
  FeaturePacker,
  productFeatures,
  type Features,
  type HashingScheme,
  type ProductText,
} from "../core/embedding/features.js";
import type { EmbeddingModel } from "../core/embedding/model.js";
import { DEFAULT_TRAINING, fineTune, textOnlyModel, type TrainingOptions, type TrainingSummary } from "../core/embedding/train.js";
import type { WeightedIds } from "../core/recs/copurchase.js";
import type { MerchantId, Product } from "../core/types.js";
import { MODEL_FORMAT } from "../embeddings/model-file.js";
import { ENCODER_IO, encoderGraph } from "../embeddings/onnx-graphs.js";
import { Encoder, NeighbourSearch } from "../embeddings/onnx-runtime.js";
import type { ModelManifest, NeighbourMethod } from "../stores/similar.js";
import type { Store } from "../stores/store.js";
import { behaviourGroups, type BehaviourSummary } from "./behaviour.js";
import { NEVER_CANCELLED, type Checkpoint } from "./cancellation.js";
import { clusteredNeighbourLists, clusteringFor, effectiveClustering } from "./clustered-neighbours.js";
import { meaningFloor } from "./meaning-floor.js";
import { eachNeighbourList, NeighbourTable, type VectorMatrix } from "./neighbours.js";
import { allChunks, writeRowChunks } from "./stored-rows.js";

export interface BuildOptions {
  training: TrainingOptions;
  /** false: the text-only starting point (evaluations compare the two). */
  useBehaviour: boolean;
  /**
   * Catalogues up to this size get exact neighbour lists (~30 s at 100k
   * products, growing with the square); bigger ones clustered lists, which
   * found 99.9% of the exact lists' neighbours at 100k in a seventh of the time.
   */
  exactNeighboursUpTo: number;
}

export const DEFAULT_BUILD: BuildOptions = { training: DEFAULT_TRAINING, useBehaviour: true, exactNeighboursUpTo: 100_000 };

export type BuildStage = "training" | "embedding" | "neighbours";
export interface BuildProgress {
  stage: BuildStage;
  done: number;
  total: number;
}

/** Where a merchant's model files live inside the data dir. */
export function modelDirectory(dataDir: string, merchant: MerchantId): string {
  return join(dataDir, "models", merchant);
}

const EMBED_BATCH = 512;

/** bucketsFor's cap: once the distinct count reaches it, more products cannot change the scheme. */
const MOST_BUCKETS = bucketsFor(Number.MAX_SAFE_INTEGER);

/**
 * Hashing with enough buckets for this catalogue: counted with a collision-free
 * mask first, reading products one at a time and stopping once the count
 * reaches the cap (about 65k distinct tokens: a few thousand products).
 */
export function schemeFor(products: Iterable<ProductText>): HashingScheme {
  const probe: HashingScheme = { ...DEFAULT_HASHING, buckets: 2 ** 30 };
  const distinct = new Set<number>();
  for (const product of products) {
    for (const id of productFeatures(product, probe).ids) distinct.add(id);
    if (bucketsFor(distinct.size) === MOST_BUCKETS) break;
  }
  return { ...DEFAULT_HASHING, buckets: bucketsFor(distinct.size) };
}

/** The merchant's products in `ids` order, decoded one at a time (only the caller keeps what it needs). */
function* productsOf(store: Store, merchant: MerchantId, ids: readonly number[], checkpoint: Checkpoint): Generator<Product> {
  for (const id of ids) {
    checkpoint();
    yield store.catalogue.product(merchant, id)!;
  }
}

export interface TrainedModel {
  model: EmbeddingModel;
  productIds: number[];
  features: Features[];
  training: TrainingSummary | null;
  behaviour: BehaviourSummary;
}

/** Trains the encoder on the merchant's catalogue (and behaviour); nothing is written. */
export function trainEncoder(
  store: Store,
  merchant: MerchantId,
  options: BuildOptions,
  onProgress: (progress: BuildProgress) => void = () => {},
  checkpoint: Checkpoint = NEVER_CANCELLED,
): TrainedModel {
  const productIds = store.catalogue.productIds(merchant);
  // Products are read twice rather than held: decoded, they take about 7 KB each
  // (7 GB at 1M products), past the 4 GB V8 heap of the training thread, and an
  // out-of-memory there aborts the whole server. Their features take a tenth of that.
  const scheme = schemeFor(productsOf(store, merchant, productIds, checkpoint));
  const packer = new FeaturePacker();
  const features = Array.from(productsOf(store, merchant, productIds, checkpoint), (product) =>
    packer.pack(productFeatures(product, scheme)),
  );
  const model = textOnlyModel(features, productIds, scheme, options.training);
  const indexOf = new Map(productIds.map((id, index) => [id, index]));
  const { groups, summary } = behaviourGroups(store, merchant, indexOf, checkpoint);
  const training = options.useBehaviour
    ? fineTune(model, features, groups, options.training, ({ done, total }) => onProgress({ stage: "training", done, total }), checkpoint)
    : null;
  return { model, productIds, features, training, behaviour: summary };
}

/** Embeds every product with the exported model, as the server will, and lists neighbours. */
export async function embedCatalogue(
  onnx: Uint8Array,
  trained: TrainedModel,
  exactNeighboursUpTo: number,
  onProgress: (progress: BuildProgress) => void = () => {},
  checkpoint: Checkpoint = NEVER_CANCELLED,
): Promise<{ vectors: VectorMatrix; lists: NeighbourTable; method: NeighbourMethod; meaningFloor: number }> {
  const { dims } = trained.model;
  const encoder = await Encoder.load(onnx, dims);
  const search = await NeighbourSearch.create(dims);
  try {
    const matrix = new Float32Array(trained.productIds.length * dims);
    for (let start = 0; start < trained.features.length; start += EMBED_BATCH) {
      checkpoint();
      const batch = trained.features.slice(start, start + EMBED_BATCH);
      matrix.set(await encoder.embed(batch), start * dims);
      onProgress({ stage: "embedding", done: start + batch.length, total: trained.features.length });
    }
    const vectors: VectorMatrix = { ids: trained.productIds, matrix, dims };
    const floor = await meaningFloor(encoder, trained.model.scheme, async (queries) => {
      if (matrix.length === 0) return [];
      const { scores, k } = await search.search(queries, matrix, 1);
      return Array.from({ length: queries.length / dims }, (_, row) => scores[row * k]!);
    });
    const total = trained.productIds.length;
    const lists = new NeighbourTable(total);
    const keep = (row: number, list: WeightedIds) => lists.set(row, list);
    const progress = (done: number) => {
      checkpoint();
      onProgress({ stage: "neighbours", done, total });
    };
    if (total <= exactNeighboursUpTo) {
      const rows = trained.productIds.map((_, index) => index);
      await eachNeighbourList(search, vectors, rows, new Set(), keep, progress);
      return { vectors, lists, method: { method: "exact" }, meaningFloor: floor };
    }
    const clustering = clusteringFor(total);
    await clusteredNeighbourLists(search, vectors, clustering, keep, progress, checkpoint);
    return { vectors, lists, method: { method: "clustered", ...effectiveClustering(clustering, total) }, meaningFloor: floor };
  } finally {
    await encoder.release();
    await search.release();
  }
}

function manifestFor(
  trained: TrainedModel,
  onnx: Uint8Array,
  options: BuildOptions,
  neighbours: NeighbourMethod,
  meaningFloor: number,
  seconds: number,
): ModelManifest {
  const sha256 = createHash("sha256").update(onnx).digest("hex");
  const { model, training, behaviour } = trained;
  return {
    format: MODEL_FORMAT,
    version: sha256.slice(0, 16),
    createdAt: new Date().toISOString(),
    dims: model.dims,
    hashing: {
      function: "fnv1a32 over UTF-16 code units of a namespaced token, masked to buckets",
      buckets: model.scheme.buckets,
      weights: { ...model.scheme.weights },
      maxDescriptionWords: model.scheme.maxDescriptionWords,
    },
    inputs: { featureIds: ENCODER_IO.featureIds, featureWeights: ENCODER_IO.featureWeights },
    output: ENCODER_IO.embedding,
    training: {
      seed: options.training.seed,
      products: trained.productIds.length,
      productsWithBehaviour: behaviour.productsWithBehaviour,
      orders: behaviour.orders,
      viewSessions: behaviour.viewSessions,
      samples: training?.samples ?? 0,
      batches: training?.batches ?? 0,
      firstLoss: training?.firstLoss ?? null,
      lastLoss: training?.lastLoss ?? null,
      seconds: Math.round(seconds * 100) / 100,
    },
    meaningFloor,
    neighbours,
    sha256,
    file: `encoder-${sha256.slice(0, 16)}.onnx`,
  };
}

/** Writes the model file and its manifest; older model files of the merchant are removed. */
function writeModelFiles(dataDir: string, merchant: MerchantId, onnx: Uint8Array, manifest: ModelManifest): void {
  const directory = modelDirectory(dataDir, merchant);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, manifest.file), onnx);
  writeFileSync(join(directory, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const name of readdirSync(directory)) {
    if (name.endsWith(".onnx") && name !== manifest.file) rmSync(join(directory, name), { force: true });
  }
}

/**
 * Trains, exports, embeds and stores a merchant's model; returns its manifest.
 * `checkpoint` may stop it (BuildCancelled) at any step before the files and
 * the store are written; once writing has begun, it finishes.
 */
export async function buildSimilarModel(
  store: Store,
  dataDir: string,
  merchant: MerchantId,
  options: BuildOptions = DEFAULT_BUILD,
  onProgress: (progress: BuildProgress) => void = () => {},
  checkpoint: Checkpoint = NEVER_CANCELLED,
): Promise<ModelManifest> {
  const started = performance.now();
  const trained = trainEncoder(store, merchant, options, onProgress, checkpoint);
  const onnx = encoderGraph(trained.model);
  const embedded = await embedCatalogue(onnx, trained, options.exactNeighboursUpTo, onProgress, checkpoint);
  const { vectors, lists, method } = embedded;
  checkpoint();
  const manifest = manifestFor(trained, onnx, options, method, embedded.meaningFloor, (performance.now() - started) / 1000);
  writeModelFiles(dataDir, merchant, onnx, manifest);
  const { dims } = trained.model;
  await store.atomically(() => {
    store.similar.clear(merchant);
    vectors.ids.forEach((id, row) => {
      store.similar.putVector(merchant, id, vectors.matrix.subarray(row * dims, (row + 1) * dims));
      store.similar.putNeighbours(merchant, id, lists.get(row));
    });
    writeRowChunks(store, merchant, vectors, new Set(), allChunks(vectors));
    store.similar.putManifest(merchant, manifest);
    store.similar.bump(merchant);
  });
  return manifest;
}
