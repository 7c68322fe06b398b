// Keeps similar-products lists right when products change, without a full
// rebuild: embed the changed products again, give them fresh lists, and patch
// only the other lists the change can reach (where the product was listed, or
// now scores above the list's weakest entry).
import type { WeightedIds } from "../core/recs/copurchase.js";
import type { MerchantId } from "../core/types.js";
import type { DataVersions } from "../stores/similar.js";
import type { Store } from "../stores/store.js";
import { embedProducts, lookUpModel, markCurrent, similaritiesTo, type LiveModel } from "./live-model.js";
import { NEIGHBOURS_PER_PRODUCT, neighbourLists } from "./neighbours.js";
import { chunksOf, writeRowChunks } from "./stored-rows.js";

export interface RefreshSummary {
  model: string | null;
  /** Why the refresh thread refused the stored model's file (nothing was refreshed then); null otherwise. */
  refused: string | null;
  embedded: number;
  removed: number;
  /** Other products whose lists changed. */
  patched: number;
  /** Of those, lists recomputed in full (a product left a full list). */
  recomputed: number;
  /** Changed products whose text, and so vector, did not change. */
  unchanged: number;
}

/** Equal up to float noise: a batch of another width may sum in another order. */
function sameVector(a: Float32Array, aOffset: number, b: Float32Array, bOffset: number, dims: number): boolean {
  for (let dim = 0; dim < dims; dim++) if (Math.abs(a[aOffset + dim]! - b[bOffset + dim]!) > 1e-6) return false;
  return true;
}

/** Appends rows for new products; updates rows of known ones. Returns each product's row. */
function placeVectors(model: LiveModel, productIds: number[], vectors: Float32Array): number[] {
  const { dims } = model.vectors;
  const added = productIds.filter((id) => !model.rowOf.has(id));
  if (added.length > 0) {
    const grown = new Float32Array(model.vectors.matrix.length + added.length * dims);
    grown.set(model.vectors.matrix);
    const threshold = new Float32Array(model.threshold.length + added.length).fill(Number.NEGATIVE_INFINITY);
    threshold.set(model.threshold);
    for (const id of added) {
      model.rowOf.set(id, model.vectors.ids.length);
      model.vectors.ids.push(id);
    }
    model.vectors.matrix = grown;
    model.threshold = threshold;
  }
  return productIds.map((id, index) => {
    const row = model.rowOf.get(id)!;
    model.vectors.matrix.set(vectors.subarray(index * dims, (index + 1) * dims), row * dims);
    return row;
  });
}

function insertByScore(list: WeightedIds, id: number, score: number): void {
  let at = list.weights.findIndex((weight) => weight < score);
  if (at === -1) at = list.weights.length;
  list.ids.splice(at, 0, id);
  list.weights.splice(at, 0, score);
}

/**
 * Rows whose lists the change can reach: a changed product scored at least the
 * list's weakest entry before (it may be on the list), or beats it now.
 * Flat passes over typed arrays: at 100k products this loop is the refresh's core.
 */
function reachedRows(
  model: LiveModel,
  before: { scores: Float32Array }[],
  after: { scores: Float32Array }[],
  skipRows: number[],
): number[] {
  const size = model.vectors.ids.length;
  const reached = new Uint8Array(size);
  const { threshold } = model;
  for (const { scores } of before) for (let row = 0; row < size; row++) if (scores[row]! >= threshold[row]! - 1e-6) reached[row] = 1;
  for (const { scores } of after) for (let row = 0; row < size; row++) if (scores[row]! > threshold[row]!) reached[row] = 1;
  for (const row of skipRows) reached[row] = 0;
  for (const row of model.removed) reached[row] = 0;
  const rows: number[] = [];
  for (let row = 0; row < size; row++) if (reached[row] === 1) rows.push(row);
  return rows;
}

/** A refresh that changed nothing, of the model of this version (null: none). */
function nothingRefreshed(model: string | null): RefreshSummary {
  return { model, refused: null, embedded: 0, removed: 0, patched: 0, recomputed: 0, unchanged: 0 };
}

/**
 * The products a merchant's model is out of step with: in the catalogue
 * without a vector, or with a vector and no longer in the catalogue (changes
 * made while the service was down). A set difference of ids, not a product
 * read per vector: decoding each would take ~20 s at 1M products.
 */
function productsOutOfStep(store: Store, merchant: MerchantId): number[] {
  const products = store.catalogue.productIds(merchant);
  const embedded = store.similar.vectorIds(merchant);
  const missing = products.filter((id) => !embedded.has(id));
  const present = new Set(products);
  const stale = [...embedded].filter((id) => !present.has(id));
  return [...missing, ...stale];
}

/**
 * What a start's reconcile finds to do: the products out of step, and
 * whether the model needs a refresh at all (it does, even with none, when its
 * rows for searching are not laid out yet).
 */
function reconcileWork(store: Store, merchant: MerchantId): { productIds: number[]; needed: boolean } {
  const productIds = productsOutOfStep(store, merchant);
  return { productIds, needed: productIds.length > 0 || !store.similar.hasRows(merchant) };
}

function dataVersions(store: Store, merchant: MerchantId): DataVersions {
  return { catalogue: store.version(merchant, "catalogue"), similar: store.version(merchant, "similar") };
}

function sameVersions(a: DataVersions, b: DataVersions): boolean {
  return a.catalogue === b.catalogue && a.similar === b.similar;
}

/**
 * A start's reconcile of a merchant's model with its catalogue (see
 * SimilarModels.reconcile), with `productIds` refreshed besides. The set
 * difference reads every product id and every vector id: at a million
 * products, seconds of a core at every start, while the new run's caches are
 * cold. So it is left out when neither the catalogue nor the model was
 * written since a reconcile last found them in step, and each reconcile that
 * finds them so, or puts them so, says at which versions.
 */
export async function reconcileSimilar(store: Store, dataDir: string, merchant: MerchantId, productIds: number[]): Promise<RefreshSummary> {
  // Read in one synchronous stretch, so at one snapshot: the versions and the set difference.
  const before = dataVersions(store, merchant);
  const inStep = store.similar.inStepAt(merchant);
  const modelVersion = () => store.similar.manifest(merchant)?.version ?? null;
  if (productIds.length === 0 && inStep !== undefined && sameVersions(inStep, before)) return nothingRefreshed(modelVersion());
  const work = reconcileWork(store, merchant);
  if (!work.needed && productIds.length === 0) {
    await markInStepIfCurrent(store, merchant, before);
    return nothingRefreshed(modelVersion());
  }
  const summary = await refreshSimilar(store, dataDir, merchant, [...productIds, ...work.productIds]);
  if (summary.refused !== null || summary.model === null) return summary;
  // In step at the catalogue the difference read, with the model as that alone moved it: its one write, if any.
  const wrote = summary.embedded + summary.removed > 0;
  await markInStepIfCurrent(store, merchant, { catalogue: before.catalogue, similar: before.similar + (wrote ? 1 : 0) });
  return summary;
}

/**
 * Marks the model in step at `versions` if they are still the merchant's:
 * checked in the write transaction, where reads are current and other
 * writers wait (a training run from the command line beside the service
 * may have written meanwhile).
 */
async function markInStepIfCurrent(store: Store, merchant: MerchantId, versions: DataVersions): Promise<void> {
  await store.atomically(() => {
    if (sameVersions(dataVersions(store, merchant), versions)) store.similar.markInStep(merchant, versions);
  });
}

/** Runs on the refresh thread (refresh-thread.ts), the one writer after training; writes its result in one transaction. */
export async function refreshSimilar(store: Store, dataDir: string, merchant: MerchantId, changedIds: number[]): Promise<RefreshSummary> {
  const { model, refused } = await lookUpModel(store, dataDir, merchant);
  if (!model) return { ...nothingRefreshed(null), refused: refused?.message ?? null };
  const { dims } = model.vectors;
  const versionBefore = model.version;
  const present = [...new Set(changedIds)].filter((id) => store.catalogue.product(merchant, id) !== undefined);
  const deleted = [...new Set(changedIds)].filter((id) => store.catalogue.product(merchant, id) === undefined && model.rowOf.has(id));
  const embedded = await embedProducts(store, merchant, model, present);
  // Most product edits (price, stock, images) leave its text alone: then its vector, and every list, stays.
  const moved = present
    .map((_, index) => index)
    .filter((index) => {
      const row = model.rowOf.get(present[index]!);
      return row === undefined || !sameVector(model.vectors.matrix, row * dims, embedded, index * dims, dims);
    });
  if (moved.length === 0 && deleted.length === 0)
    return { model: model.manifest.version, refused: null, embedded: 0, removed: 0, patched: 0, recomputed: 0, unchanged: present.length };
  const upserted = moved.map((index) => present[index]!);
  const fresh = new Float32Array(moved.length * dims);
  moved.forEach((index, slot) => fresh.set(embedded.subarray(index * dims, (index + 1) * dims), slot * dims));
  const touched = new Set([...upserted, ...deleted]);

  // Similarities of every product to the changed ones, before and after.
  const before = [...touched]
    .filter((id) => model.rowOf.has(id))
    .map((id) => ({
      id,
      scores: similaritiesTo(model, model.vectors.matrix.slice(model.rowOf.get(id)! * dims, (model.rowOf.get(id)! + 1) * dims)),
    }));
  const upsertedRows = placeVectors(model, upserted, fresh);
  const deletedRows = deleted.map((id) => model.rowOf.get(id)!);
  for (const row of deletedRows) {
    model.vectors.matrix.fill(0, row * dims, (row + 1) * dims);
    model.removed.add(row);
  }
  const after = upserted.map((id, index) => ({ id, scores: similaritiesTo(model, fresh.subarray(index * dims, (index + 1) * dims)) }));
  const ownLists = await neighbourLists(model.search, model.vectors, upsertedRows, model.removed);

  // Which other lists the change reaches: those that held a changed product, or that it now enters.
  const patchedLists = new Map<number, WeightedIds>();
  const needFullRecompute: number[] = [];
  for (const row of reachedRows(model, before, after, upsertedRows)) {
    const floor = model.threshold[row]!;
    const productId = model.vectors.ids[row]!;
    const stored = store.similar.neighboursOf(merchant, productId) ?? { ids: [], weights: [] };
    const list: WeightedIds = { ids: [], weights: [] };
    stored.ids.forEach((id, index) => {
      if (!touched.has(id)) {
        list.ids.push(id);
        list.weights.push(stored.weights[index]!);
      }
    });
    const lostEntries = stored.ids.length - list.ids.length;
    for (const { id, scores } of after) {
      if (scores[row]! > floor || list.ids.length < NEIGHBOURS_PER_PRODUCT) insertByScore(list, id, scores[row]!);
    }
    // A product that left a full list takes a place only a full search can fill.
    if (lostEntries > 0 && stored.ids.length >= NEIGHBOURS_PER_PRODUCT && list.ids.length < NEIGHBOURS_PER_PRODUCT)
      needFullRecompute.push(row);
    else patchedLists.set(row, { ids: list.ids.slice(0, NEIGHBOURS_PER_PRODUCT), weights: list.weights.slice(0, NEIGHBOURS_PER_PRODUCT) });
  }
  const recomputed = await neighbourLists(model.search, model.vectors, needFullRecompute, model.removed);
  needFullRecompute.forEach((row, index) => patchedLists.set(row, recomputed[index]!));
  upsertedRows.forEach((row, index) => patchedLists.set(row, ownLists[index]!));

  await store.atomically(() => {
    upserted.forEach((id, index) => store.similar.putVector(merchant, id, fresh.slice(index * dims, (index + 1) * dims)));
    for (const id of deleted) store.similar.remove(merchant, id);
    for (const [row, list] of patchedLists) store.similar.putNeighbours(merchant, model.vectors.ids[row]!, list);
    // Only the chunks whose rows moved are written again: searches read the rest as they were.
    writeRowChunks(store, merchant, model.vectors, model.removed, chunksOf([...upsertedRows, ...deletedRows], dims));
    store.similar.bump(merchant);
  });
  for (const [row, list] of patchedLists) {
    model.threshold[row] = list.ids.length < NEIGHBOURS_PER_PRODUCT ? Number.NEGATIVE_INFINITY : list.weights[list.weights.length - 1]!;
  }
  for (const id of deleted) model.rowOf.delete(id);
  store.refreshSnapshot();
  markCurrent(model, versionBefore, store.version(merchant, "similar"));
  return {
    model: model.manifest.version,
    refused: null,
    embedded: upserted.length,
    removed: deleted.length,
    patched: patchedLists.size - upserted.length,
    recomputed: needFullRecompute.length,
    unchanged: present.length - upserted.length,
  };
}
