// The refresh thread's live copy of a merchant's similar-products model: the
// ONNX encoder, every stored row as one matrix and the weakest score on each
// product's neighbour list. One copy in the process, on the one thread that
// writes the model after its training; pool workers search the stored rows in
// place instead (search-model.ts). Loaded on first use, reloaded when the
// stored model moves on without this thread (a training), kept current by the
// refreshes it runs. A model whose file fails its manifest's check is refused:
// to its callers the shop then has no model.
import { productFeatures } from "../core/embedding/features.js";
import { dot } from "../core/embedding/model.js";
import type { MerchantId } from "../core/types.js";
import { ModelFileRefused } from "../embeddings/model-file.js";
import { NeighbourSearch, type Encoder } from "../embeddings/onnx-runtime.js";
import type { ModelManifest } from "../stores/similar.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";
import { loadCheckedEncoder } from "./checked-encoder.js";
import { NEIGHBOURS_PER_PRODUCT, type VectorMatrix } from "./neighbours.js";
import { allChunks, copyStoredRows, writeRowChunks } from "./stored-rows.js";

export interface LiveModel {
  manifest: ModelManifest;
  /** The store's "similar" version this copy matches. */
  version: number;
  encoder: Encoder;
  search: NeighbourSearch;
  /** The stored rows: row r is row r of the stored chunks. */
  vectors: VectorMatrix;
  rowOf: Map<number, number>;
  /** Rows of removed products, kept (zeroed) until the next training compacts the rows. */
  removed: Set<number>;
  /** Per row: the lowest score on its neighbour list, or -Infinity while the list is not full. */
  threshold: Float32Array;
}

const liveByStore = new PerStore<MerchantId, LiveModel>();

function thresholdOf(store: Store, merchant: MerchantId, productId: number): number {
  const list = store.similar.neighboursOf(merchant, productId);
  if (!list || list.ids.length < NEIGHBOURS_PER_PRODUCT) return Number.NEGATIVE_INFINITY;
  return list.weights[list.weights.length - 1]!;
}

/** A merchant's model as this thread sees it: usable, or none (not trained yet, or its file refused). */
export type ModelLookup = { model: LiveModel; refused: null } | { model: null; refused: ModelFileRefused | null };

/**
 * The stored rows, copied. A model trained before rows were stored has only its
 * vectors per product: they are laid out as rows here, once, by this thread (the
 * model's one writer); the answers they give do not change, so no version bump.
 */
async function storedRows(store: Store, merchant: MerchantId, dims: number): Promise<{ vectors: VectorMatrix; removed: Set<number> }> {
  if (store.similar.hasRows(merchant)) return copyStoredRows(store, merchant, dims);
  const { ids, matrix } = store.similar.vectorsByProduct(merchant, dims);
  const vectors: VectorMatrix = { ids, matrix, dims };
  await store.atomically(() => writeRowChunks(store, merchant, vectors, new Set(), allChunks(vectors)));
  return { vectors, removed: new Set() };
}

/** The merchant's model as stored now, loading or reloading it if this thread's copy is stale. */
export async function lookUpModel(store: Store, dataDir: string, merchant: MerchantId): Promise<ModelLookup> {
  const manifest = store.similar.manifest(merchant);
  if (!manifest) return { model: null, refused: null };
  const version = store.version(merchant, "similar");
  const live = liveByStore.of(store);
  const current = live.get(merchant);
  if (current && current.version === version && current.manifest.version === manifest.version) return { model: current, refused: null };

  const sameModel = current?.manifest.version === manifest.version;
  const encoder = sameModel ? current!.encoder : await loadCheckedEncoder(dataDir, merchant, manifest);
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
  const { vectors, removed } = await storedRows(store, merchant, manifest.dims);
  const rowOf = new Map<number, number>();
  vectors.ids.forEach((id, row) => removed.has(row) || rowOf.set(id, row));
  const model: LiveModel = {
    manifest,
    version,
    encoder,
    search,
    vectors,
    rowOf,
    removed,
    threshold: Float32Array.from(vectors.ids, (id, row) =>
      removed.has(row) ? Number.NEGATIVE_INFINITY : thresholdOf(store, merchant, id),
    ),
  };
  live.set(merchant, model);
  return { model, refused: null };
}

/** Embeds products as they are stored now (for a refresh after a change). */
export async function embedProducts(store: Store, merchant: MerchantId, model: LiveModel, productIds: number[]): Promise<Float32Array> {
  const features = productIds.map((id) => productFeatures(store.catalogue.product(merchant, id)!, model.manifest.hashing));
  return model.encoder.embed(features);
}

/** Cosine similarity of every row with `vector` (zero for removed rows). */
export function similaritiesTo(model: LiveModel, vector: Float32Array): Float32Array {
  const { matrix, dims, ids } = model.vectors;
  const scores = new Float32Array(ids.length);
  for (let row = 0; row < ids.length; row++) scores[row] = model.removed.has(row) ? 0 : dot(matrix, row * dims, vector, 0, dims);
  return scores;
}

/**
 * After this thread wrote a refresh: its copy matches the store if that write
 * was the only one since it loaded; otherwise it reloads on next use.
 */
export function markCurrent(model: LiveModel, versionBefore: number, versionNow: number): void {
  model.version = versionNow === versionBefore + 1 ? versionNow : -1;
}
