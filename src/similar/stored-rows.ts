// A merchant's product vectors as rows in LMDB chunks (stores/similar.ts):
// written by whoever writes the model, and searched by pool workers in place,
// a chunk at a time, so no worker holds a catalogue-sized matrix.
import type { MerchantId } from "../core/types.js";
import type { NeighbourSearch } from "../embeddings/onnx-runtime.js";
import { REMOVED_ROW, rowsPerChunk } from "../stores/similar.js";
import type { Store } from "../stores/store.js";
import type { VectorMatrix } from "./neighbours.js";

/** Per query, the nearest stored products, best first. */
export interface StoredNeighbours {
  ids: number[][];
  scores: number[][];
}

/**
 * The `k` stored rows nearest each query (rows × dims unit vectors), over every
 * chunk of the merchant's rows. A chunk is read in place and searched before
 * the next read: this runs inside one task, and nothing else on the thread
 * reads the store meanwhile.
 */
export async function nearestStoredRows(
  store: Store,
  merchant: MerchantId,
  search: NeighbourSearch,
  queries: Float32Array,
  k: number,
): Promise<StoredNeighbours> {
  const { dims } = search;
  const queryCount = queries.length / dims;
  const candidates = Array.from({ length: queryCount }, () => [] as { id: number; score: number }[]);
  for (let chunk = 0; ; chunk++) {
    const rows = store.similar.rowChunk(merchant, chunk, dims);
    if (!rows) break;
    let removed = 0;
    for (let row = 0; row < rows.rows; row++) if (rows.idAt(row) === REMOVED_ROW) removed++;
    // Removed rows are zero vectors that may still rank: ask for enough to skip them all.
    const found = await search.search(queries, rows.vectors, k + removed);
    for (let query = 0; query < queryCount; query++) {
      const kept = candidates[query]!;
      for (let rank = 0; rank < found.k; rank++) {
        const id = rows.idAt(found.indices[query * found.k + rank]!);
        if (id !== REMOVED_ROW) kept.push({ id, score: found.scores[query * found.k + rank]! });
      }
      // Bounded by k per query, whatever the number of chunks.
      if (kept.length > 4 * k) candidates[query] = kept.sort((a, b) => b.score - a.score).slice(0, k);
    }
  }
  const best = candidates.map((kept) => kept.sort((a, b) => b.score - a.score).slice(0, k));
  return { ids: best.map((kept) => kept.map(({ id }) => id)), scores: best.map((kept) => kept.map(({ score }) => score)) };
}

/** The chunks holding these rows. */
export function chunksOf(rows: Iterable<number>, dims: number): Set<number> {
  const perChunk = rowsPerChunk(dims);
  const chunks = new Set<number>();
  for (const row of rows) chunks.add(Math.floor(row / perChunk));
  return chunks;
}

/** Every chunk of a matrix's rows. */
export function allChunks(vectors: VectorMatrix): number[] {
  return Array.from({ length: Math.ceil(vectors.ids.length / rowsPerChunk(vectors.dims)) }, (_, chunk) => chunk);
}

/** Writes `chunks` of the matrix's rows, inside the caller's transaction; rows in `removed` keep REMOVED_ROW. */
export function writeRowChunks(
  store: Store,
  merchant: MerchantId,
  vectors: VectorMatrix,
  removed: ReadonlySet<number>,
  chunks: Iterable<number>,
): void {
  const { dims, ids, matrix } = vectors;
  const perChunk = rowsPerChunk(dims);
  for (const chunk of chunks) {
    const start = chunk * perChunk;
    const end = Math.min(ids.length, start + perChunk);
    const chunkIds = Float64Array.from({ length: end - start }, (_, index) =>
      removed.has(start + index) ? REMOVED_ROW : ids[start + index]!,
    );
    store.similar.putRowChunk(merchant, chunk, chunkIds, matrix.subarray(start * dims, end * dims));
  }
}

/** The merchant's stored rows copied into one matrix, for the model's writer; removed rows are listed apart. */
export function copyStoredRows(store: Store, merchant: MerchantId, dims: number): { vectors: VectorMatrix; removed: Set<number> } {
  const ids: number[] = [];
  const parts: Float32Array[] = [];
  for (let chunk = 0; ; chunk++) {
    const rows = store.similar.rowChunk(merchant, chunk, dims);
    if (!rows) break;
    parts.push(rows.vectors.slice());
    for (let row = 0; row < rows.rows; row++) ids.push(rows.idAt(row));
  }
  const matrix = new Float32Array(ids.length * dims);
  let at = 0;
  for (const part of parts) {
    matrix.set(part, at);
    at += part.length;
  }
  const removed = new Set<number>();
  ids.forEach((id, row) => id === REMOVED_ROW && removed.add(row));
  return { vectors: { ids, matrix, dims }, removed };
}
