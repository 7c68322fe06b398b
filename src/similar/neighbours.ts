// Nearest-neighbour lists over a merchant's product vectors, shared by the
// full build and the incremental refresh.
import type { WeightedIds } from "../core/recs/copurchase.js";
import type { NeighbourSearch } from "./onnx-runtime.js";

/** Neighbours kept per product: more than any widget shows, so filters still leave enough. */
export const NEIGHBOURS_PER_PRODUCT = 50;

/** Queries per ONNX run: big enough to amortise the call, small enough to bound the score matrix. */
const QUERY_BLOCK = 256;

/** A merchant's vectors as one row-major matrix, with the product id of each row. */
export interface VectorMatrix {
  ids: number[];
  matrix: Float32Array;
  dims: number;
}

/**
 * Lists for the products at `rows` (row numbers in `vectors`): the closest
 * other products by cosine similarity, best first, without the product itself
 * and without rows in `skip` (removed products still in the matrix).
 */
export async function neighbourLists(
  search: NeighbourSearch,
  vectors: VectorMatrix,
  rows: number[],
  skip: ReadonlySet<number> = new Set(),
  onBlock: (done: number) => void = () => {},
): Promise<WeightedIds[]> {
  const { dims, matrix, ids } = vectors;
  const lists: WeightedIds[] = [];
  // One extra for the product itself, plus room for skipped rows.
  const k = NEIGHBOURS_PER_PRODUCT + 1 + skip.size;
  for (let start = 0; start < rows.length; start += QUERY_BLOCK) {
    const block = rows.slice(start, start + QUERY_BLOCK);
    const queries = new Float32Array(block.length * dims);
    block.forEach((row, index) => queries.set(matrix.subarray(row * dims, (row + 1) * dims), index * dims));
    const found = await search.search(queries, matrix, k);
    block.forEach((row, index) => {
      const list: WeightedIds = { ids: [], weights: [] };
      for (let rank = 0; rank < found.k && list.ids.length < NEIGHBOURS_PER_PRODUCT; rank++) {
        const neighbour = found.indices[index * found.k + rank]!;
        if (neighbour === row || skip.has(neighbour)) continue;
        list.ids.push(ids[neighbour]!);
        list.weights.push(found.scores[index * found.k + rank]!);
      }
      lists.push(list);
    });
    onBlock(Math.min(rows.length, start + QUERY_BLOCK));
  }
  return lists;
}
