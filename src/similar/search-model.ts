// What a pool worker holds of a merchant's similar-products model for
// quick-view's meaning fallback: the encoder (its table is at most 2^18
// buckets × 64 dims of float32, 64 MB, whatever the catalogue's size) and the
// model's meaning floor. The product vectors stay in LMDB and are searched in
// place (stored-rows.ts), so a worker's memory does not grow with the catalogue.
import { queryFeatures } from "../core/embedding/features.js";
import type { MerchantId } from "../core/types.js";
import { ModelFileRefused } from "../embeddings/model-file.js";
import { NeighbourSearch, type Encoder } from "../embeddings/onnx-runtime.js";
import type { ModelManifest } from "../stores/similar.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";
import { loadCheckedEncoder, sameTraining } from "./checked-encoder.js";
import { meaningFloor } from "./meaning-floor.js";
import { nearestStoredRows } from "./stored-rows.js";

export interface SearchModel {
  manifest: ModelManifest;
  encoder: Encoder;
  /** The ONNX search a chunk of stored rows at a time goes through. */
  search: NeighbourSearch;
  /** The similarity a product must reach to be about a search query (see meaning-floor.ts). */
  meaningFloor: number;
}

const modelsByStore = new PerStore<MerchantId, SearchModel>();

/**
 * The merchant's model for searching, or null: none trained yet, its file
 * refused, or (a model trained before rows were stored) its rows not laid out
 * yet by the refresh thread.
 */
export async function searchModel(store: Store, dataDir: string, merchant: MerchantId): Promise<SearchModel | null> {
  const manifest = store.similar.manifest(merchant);
  const models = modelsByStore.of(store);
  const current = models.get(merchant);
  if (current && manifest && sameTraining(current.manifest, manifest)) return current;
  if (current) {
    models.delete(merchant);
    await current.encoder.release();
    await current.search.release();
  }
  if (!manifest || !store.similar.hasRows(merchant)) return null;
  const encoder = await loadCheckedEncoder(dataDir, merchant, manifest);
  if (encoder instanceof ModelFileRefused) return null;
  const search = await NeighbourSearch.create(manifest.dims);
  // A model trained before its floor was measured is measured here, once per worker.
  const floor =
    manifest.meaningFloor ??
    (await meaningFloor(encoder, manifest.hashing, async (queries) => {
      const { scores } = await nearestStoredRows(store, merchant, search, queries, 1);
      return scores.flatMap((best) => best);
    }));
  const model: SearchModel = { manifest, encoder, search, meaningFloor: floor };
  models.set(merchant, model);
  return model;
}

/**
 * Products whose text is closest to a free-text query (the search's semantic
 * fallback: "couch" finds sofas when no title says couch).
 */
export async function nearestToText(
  store: Store,
  merchant: MerchantId,
  model: SearchModel,
  text: string,
  k: number,
): Promise<{ ids: number[]; scores: number[] }> {
  const query = await model.encoder.embed([queryFeatures(text, model.manifest.hashing)]);
  const { ids, scores } = await nearestStoredRows(store, merchant, model.search, query, k);
  return { ids: ids[0]!, scores: scores[0]! };
}
