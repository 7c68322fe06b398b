import { afterEach, describe, expect, it } from "vitest";
import { Rng } from "../../src/core/random.js";
import { NeighbourSearch } from "../../src/embeddings/onnx-runtime.js";
import { copyStoredRows, nearestStoredRows, writeRowChunks, allChunks, chunksOf } from "../../src/similar/stored-rows.js";
import { rowsPerChunk } from "../../src/stores/similar.js";
import type { Store } from "../../src/stores/store.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-stored-rows-");
const DIMS = 64;

function unitVectors(rows: number, rng: Rng): Float32Array {
  const matrix = new Float32Array(rows * DIMS);
  for (let row = 0; row < rows; row++) {
    let norm = 0;
    for (let dim = 0; dim < DIMS; dim++) {
      const value = rng.next() - 0.5;
      matrix[row * DIMS + dim] = value;
      norm += value * value;
    }
    for (let dim = 0; dim < DIMS; dim++) matrix[row * DIMS + dim]! /= Math.sqrt(norm);
  }
  return matrix;
}

describe("a model's vectors stored as row chunks and searched in place", () => {
  const opened: Store[] = [];
  const searches: NeighbourSearch[] = [];
  afterEach(async () => {
    await Promise.all(searches.splice(0).map((search) => search.release()));
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  it("finds what one search over the whole matrix finds, across chunks, without removed rows, and after a chunk is rewritten", async () => {
    const store = await storeWithMerchant(tempDir());
    opened.push(store);
    const search = await NeighbourSearch.create(DIMS);
    searches.push(search);
    const rng = new Rng(7);
    // Two full chunks and a partial third.
    const rows = rowsPerChunk(DIMS) * 2 + 1234;
    const vectors = { ids: Array.from({ length: rows }, (_, row) => 1000 + row * 3), matrix: unitVectors(rows, rng), dims: DIMS };
    const removed = new Set([5, rowsPerChunk(DIMS) + 17, rows - 1]);
    for (const row of removed) vectors.matrix.fill(0, row * DIMS, (row + 1) * DIMS);
    await store.atomically(() => writeRowChunks(store, "shop", vectors, removed, allChunks(vectors)));
    store.refreshSnapshot();
    expect(store.similar.rowChunk("shop", 3, DIMS)).toBeUndefined();

    const expected = async (queries: Float32Array, k: number) => {
      const found = await search.search(queries, vectors.matrix, k + removed.size);
      return Array.from({ length: queries.length / DIMS }, (_, query) =>
        Array.from(found.indices.subarray(query * found.k, (query + 1) * found.k))
          .filter((row) => !removed.has(row))
          .slice(0, k)
          .map((row) => vectors.ids[row]!),
      );
    };
    // Queries near removed rows and near rows of every chunk, and random ones.
    const nearRows = [5, 6, rowsPerChunk(DIMS) + 17, rows - 2, rows - 1];
    const queries = new Float32Array((nearRows.length + 20) * DIMS);
    nearRows.forEach((row, index) => queries.set(vectors.matrix.subarray(row * DIMS, (row + 1) * DIMS), index * DIMS));
    queries.set(unitVectors(20, rng), nearRows.length * DIMS);
    const stored = await nearestStoredRows(store, "shop", search, queries, 10);
    expect(stored.ids).toEqual(await expected(queries, 10));
    for (const scores of stored.scores) expect(scores).toEqual([...scores].sort((a, b) => b - a));

    // A refresh moves one row of the middle chunk: only that chunk is written again.
    const moved = rowsPerChunk(DIMS) + 40;
    vectors.matrix.set(vectors.matrix.subarray(0, DIMS), moved * DIMS);
    await store.atomically(() => writeRowChunks(store, "shop", vectors, removed, chunksOf([moved], DIMS)));
    store.refreshSnapshot();
    const again = await nearestStoredRows(store, "shop", search, vectors.matrix.slice(0, DIMS), 2);
    expect(again.ids[0]!.sort()).toEqual([vectors.ids[0]!, vectors.ids[moved]!].sort());

    const copy = copyStoredRows(store, "shop", DIMS);
    expect(copy.vectors.matrix).toEqual(vectors.matrix);
    expect(copy.removed).toEqual(removed);
    expect(copy.vectors.ids.filter((_, row) => !removed.has(row))).toEqual(vectors.ids.filter((_, row) => !removed.has(row)));
  }, 60_000);
});
