// A worker's live copy of a merchant's similar-products model: the ONNX
// encoder, every product vector as one matrix and the weakest score on each
// product's neighbour list. Loaded on first use, reloaded when the stored model
// moves on without this worker, kept current by the refreshes this worker runs.
// A model whose file fails its manifest's check is refused: to its callers the
// shop then has no model.
import { productFeatures, queryFeatures } from "../core/embedding/features.js";
import { dot } from "../core/embedding/model.js";
import type { MerchantId } from "../core/types.js";
import { loadModelFile, ModelFileRefused } from "../embeddings/model-file.js";
import { NeighbourSearch, type Encoder } from "../embeddings/onnx-runtime.js";
import type { ModelManifest } from "../stores/similar.js";
import { PerStore } from "../stores/per-store.js";
import { meaningFloor } from "./meaning-floor.js";
import type { Store } from "../stores/store.js";
import { modelDirectory } from "./build.js";
import { NEIGHBOURS_PER_PRODUCT, type VectorMatrix } from "./neighbours.js";

export interface LiveModel {
  manifest: ModelManifest;
  /** The store's "similar" version this copy matches. */
  version: number;
  encoder: Encoder;
  search: NeighbourSearch;
  vectors: VectorMatrix;
  rowOf: Map<number, number>;
  /** Rows of removed products, kept (zeroed) until the next reload compacts the matrix. */
  removed: Set<number>;
  /** Per row: the lowest score on its neighbour list, or -Infinity while the list is not full. */
  threshold: Float32Array;
  /** The similarity a product must reach to be about a search query (see meaning-floor.ts). */
  meaningFloor: number;
}

const liveByStore = new PerStore<MerchantId, LiveModel>();

function thresholdOf(store: Store, merchant: MerchantId, productId: number): number {
  const list = store.similar.neighboursOf(merchant, productId);
  if (!list || list.ids.length < NEIGHBOURS_PER_PRODUCT) return Number.NEGATIVE_INFINITY;
  return list.weights[list.weights.length - 1]!;
}

/** A merchant's model as this worker sees it: usable, or none (not trained yet, or its file refused). */
export type ModelLookup = { model: LiveModel; refused: null } | { model: null; refused: ModelFileRefused | null };

/**
 * Model files this worker refused, by data dir and merchant (a file's), with
 * the manifest they were checked against. A refusal stands until another
 * manifest comes, so requests neither read and hash the file again nor log
 * the refusal again.
 */
const refusals = new Map<string, { manifest: ModelManifest; refusal: ModelFileRefused }>();

/** A retraining on unchanged data writes the same version (the same bytes) again, but never the same createdAt. */
function sameTraining(a: ModelManifest, b: ModelManifest): boolean {
  return a.version === b.version && a.createdAt === b.createdAt;
}

/** The merchant's model file, checked against its manifest and loaded; or why it was refused. */
async function loadEncoder(dataDir: string, merchant: MerchantId, manifest: ModelManifest): Promise<Encoder | ModelFileRefused> {
  const fileKey = `${dataDir}\u0000${merchant}`;
  const earlier = refusals.get(fileKey);
  if (earlier && sameTraining(earlier.manifest, manifest)) return earlier.refusal;
  try {
    const encoder = await loadModelFile(modelDirectory(dataDir, merchant), merchant, manifest);
    refusals.delete(fileKey);
    return encoder;
  } catch (error) {
    if (!(error instanceof ModelFileRefused)) throw error;
    // Workers have no structured logger; their failures go to stderr.
    console.error(error.message);
    refusals.set(fileKey, { manifest, refusal: error });
    return error;
  }
}

/** The merchant's model as stored now, loading or reloading it if this worker's copy is stale. */
export async function lookUpModel(store: Store, dataDir: string, merchant: MerchantId): Promise<ModelLookup> {
  const manifest = store.similar.manifest(merchant);
  if (!manifest) return { model: null, refused: null };
  const version = store.version(merchant, "similar");
  const live = liveByStore.of(store);
  const current = live.get(merchant);
  if (current && current.version === version && current.manifest.version === manifest.version) return { model: current, refused: null };

  const sameModel = current?.manifest.version === manifest.version;
  const encoder = sameModel ? current!.encoder : await loadEncoder(dataDir, merchant, manifest);
  if (current && !sameModel) await current.encoder.release();
  if (encoder instanceof ModelFileRefused) {
    // The stored vectors belong to the refused model now: the old copy cannot serve beside them.
    if (current) {
      await current.search.release();
      live.delete(merchant);
    }
    return { model: null, refused: encoder };
  }
  const search = current?.search ?? (await NeighbourSearch.create(manifest.dims));
  const { ids, matrix } = store.similar.allVectors(merchant, manifest.dims);
  // A model trained before its floor was measured is measured here, once per copy.
  const floor =
    manifest.meaningFloor ?? (sameModel ? current!.meaningFloor : await meaningFloor(encoder, search, matrix, manifest.hashing));
  const model: LiveModel = {
    manifest,
    version,
    encoder,
    search,
    vectors: { ids, matrix, dims: manifest.dims },
    rowOf: new Map(ids.map((id, row) => [id, row])),
    removed: new Set(),
    threshold: Float32Array.from(ids, (id) => thresholdOf(store, merchant, id)),
    meaningFloor: floor,
  };
  live.set(merchant, model);
  return { model, refused: null };
}

/** The merchant's usable model, or null: none trained yet, or its file refused (a shop without a model, to the caller). */
export async function liveModel(store: Store, dataDir: string, merchant: MerchantId): Promise<LiveModel | null> {
  return (await lookUpModel(store, dataDir, merchant)).model;
}

/** Embeds products as they are stored now (for a refresh after a change). */
export async function embedProducts(store: Store, merchant: MerchantId, model: LiveModel, productIds: number[]): Promise<Float32Array> {
  const features = productIds.map((id) => productFeatures(store.catalogue.product(merchant, id)!, model.manifest.hashing));
  return model.encoder.embed(features);
}

/**
 * Products whose text is closest to a free-text query (the search's semantic
 * fallback: "couch" finds sofas when no title says couch).
 */
export async function nearestToText(model: LiveModel, text: string, k: number): Promise<{ ids: number[]; scores: number[] }> {
  const query = await model.encoder.embed([queryFeatures(text, model.manifest.hashing)]);
  const found = await model.search.search(query, model.vectors.matrix, k + model.removed.size);
  const ids: number[] = [];
  const scores: number[] = [];
  for (let rank = 0; rank < found.k && ids.length < k; rank++) {
    const row = found.indices[rank]!;
    if (model.removed.has(row)) continue;
    ids.push(model.vectors.ids[row]!);
    scores.push(found.scores[rank]!);
  }
  return { ids, scores };
}

/** Cosine similarity of every row with `vector` (zero for removed rows). */
export function similaritiesTo(model: LiveModel, vector: Float32Array): Float32Array {
  const { matrix, dims, ids } = model.vectors;
  const scores = new Float32Array(ids.length);
  for (let row = 0; row < ids.length; row++) scores[row] = model.removed.has(row) ? 0 : dot(matrix, row * dims, vector, 0, dims);
  return scores;
}

/**
 * After this worker wrote a refresh: its copy matches the store if that write
 * was the only one since it loaded; otherwise it reloads on next use.
 */
export function markCurrent(model: LiveModel, versionBefore: number, versionNow: number): void {
  model.version = versionNow === versionBefore + 1 ? versionNow : -1;
}
