// Nearest-neighbour lists over a merchant's product vectors, shared by the
// full build and the incremental refresh.
import type { WeightedIds } from "../core/recs/copurchase.js";
import type { NeighbourSearch } from "../embeddings/onnx-runtime.js";

/** Neighbours kept per product: more than any widget shows, so filters still leave enough. */
export const NEIGHBOURS_PER_PRODUCT = 50;

/** Queries per ONNX run: big enough to amortise the call… */
const QUERY_BLOCK = 256;
/** …unless their score matrix (queries × products, float32) would pass this many scores: 256 MB. */
const MAX_SCORES_PER_RUN = 2 ** 26;

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
  const lists: WeightedIds[] = [];
  await eachNeighbourList(search, vectors, rows, skip, (index, list) => (lists[index] = list), onBlock);
  return lists;
}

/**
 * neighbourLists handing each list to `take` (with its index in `rows`) as its
 * block is done, for a caller that keeps them in a compact form: a whole
 * catalogue's lists as arrays take ~2 KB each.
 */
export async function eachNeighbourList(
  search: NeighbourSearch,
  vectors: VectorMatrix,
  rows: number[],
  skip: ReadonlySet<number>,
  take: (index: number, list: WeightedIds) => void,
  onBlock: (done: number) => void = () => {},
): Promise<void> {
  const { dims, matrix, ids } = vectors;
  // One extra for the product itself, plus room for skipped rows.
  const k = NEIGHBOURS_PER_PRODUCT + 1 + skip.size;
  const blockSize = Math.max(1, Math.min(QUERY_BLOCK, Math.floor(MAX_SCORES_PER_RUN / Math.max(1, ids.length))));
  for (let start = 0; start < rows.length; start += blockSize) {
    const block = rows.slice(start, start + blockSize);
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
      take(start + index, list);
    });
    onBlock(Math.min(rows.length, start + blockSize));
  }
}

/**
 * Many products' lists in flat typed arrays, NEIGHBOURS_PER_PRODUCT slots a
 * row: product ids as float64 (exact below 2^53), scores as the float32 the
 * search returns them in.
 */
export class NeighbourTable {
  private readonly ids: Float64Array;
  private readonly weights: Float32Array;
  private readonly lengths: Uint8Array;

  constructor(rows: number) {
    this.ids = new Float64Array(rows * NEIGHBOURS_PER_PRODUCT);
    this.weights = new Float32Array(rows * NEIGHBOURS_PER_PRODUCT);
    this.lengths = new Uint8Array(rows);
  }

  set(row: number, list: WeightedIds): void {
    const at = row * NEIGHBOURS_PER_PRODUCT;
    this.ids.set(list.ids, at);
    this.weights.set(list.weights, at);
    this.lengths[row] = list.ids.length;
  }

  get(row: number): WeightedIds {
    const at = row * NEIGHBOURS_PER_PRODUCT;
    const end = at + this.lengths[row]!;
    return { ids: Array.from(this.ids.subarray(at, end)), weights: Array.from(this.weights.subarray(at, end)) };
  }
}
