// Approximate neighbour lists for big catalogues. Exact lists compare every
// product with every other: n² · dims multiply-adds, about 45 minutes of one
// core at 1M products. Here the vectors are grouped into about √n clusters by
// spherical k-means, and the products of each cluster are compared only with
// those of the `probes` clusters whose centres lie nearest its own centre: a
// probes/clusters share of the exact work, plus a few k-means passes. A
// product whose true neighbours sit across a cluster border the probes do not
// reach loses some of them: build.ts uses this only past EXACT_NEIGHBOURS_UP_TO.
import { Rng } from "../core/random.js";
import type { WeightedIds } from "../core/recs/copurchase.js";
import type { NeighbourSearch } from "../embeddings/onnx-runtime.js";
import type { Checkpoint } from "./cancellation.js";
import { eachNeighbourList, type VectorMatrix } from "./neighbours.js";

export interface ClusteringOptions {
  clusters: number;
  /** Clusters each cluster's products are compared with, its own included. */
  probes: number;
  /** k-means passes after the seeding. */
  iterations: number;
  seed: number;
}

/** √n clusters; 8 probes found 99.9% of the exact lists' neighbours on the 100k scale shop (models/README.md). */
export function clusteringFor(products: number): ClusteringOptions {
  return { clusters: Math.max(1, Math.round(Math.sqrt(products))), probes: 8, iterations: 6, seed: 1 };
}

/** The clusters there can be among `rows` products, and the probes among them: what a build with `options` uses. */
export function effectiveClustering(options: ClusteringOptions, rows: number): { clusters: number; probes: number } {
  const clusters = Math.max(1, Math.min(options.clusters, rows));
  return { clusters, probes: Math.min(options.probes, clusters) };
}

/** Rows assigned to the nearest centre per k-means pass. */
const ASSIGN_BLOCK = 1024;

/**
 * Every row's list (as eachNeighbourList gives it: best first, without the
 * product itself), computed cluster by cluster; `take` gets the row number.
 */
export async function clusteredNeighbourLists(
  search: NeighbourSearch,
  vectors: VectorMatrix,
  options: ClusteringOptions,
  take: (row: number, list: WeightedIds) => void,
  onProgress: (done: number) => void = () => {},
  checkpoint: Checkpoint = () => {},
): Promise<void> {
  const { dims, matrix, ids } = vectors;
  const rows = ids.length;
  const { clusters, probes: probeCount } = effectiveClustering(options, rows);
  let centres = seedCentres(matrix, dims, clusters, new Rng(options.seed));
  let assignment = await nearestCentres(search, matrix, dims, centres, checkpoint);
  for (let pass = 0; pass < options.iterations; pass++) {
    centres = meanDirections(matrix, dims, assignment, centres);
    assignment = await nearestCentres(search, matrix, dims, centres, checkpoint);
  }
  const members = membersOf(assignment, clusters);
  const probes = await search.search(centres, centres, probeCount);

  let done = 0;
  for (let cluster = 0; cluster < clusters; cluster++) {
    checkpoint();
    const own = members.rowsOf(cluster);
    if (own.length === 0) continue;
    // The candidates: this cluster's rows first (so a query's position is its index in `own`), then its probes'.
    const candidateRows: number[] = Array.from(own);
    for (let rank = 0; rank < probes.k; rank++) {
      const probe = probes.indices[cluster * probes.k + rank]!;
      if (probe !== cluster) for (const row of members.rowsOf(probe)) candidateRows.push(row);
    }
    const candidates: VectorMatrix = {
      dims,
      ids: candidateRows.map((row) => ids[row]!),
      matrix: new Float32Array(candidateRows.length * dims),
    };
    candidateRows.forEach((row, index) => candidates.matrix.set(matrix.subarray(row * dims, (row + 1) * dims), index * dims));
    const queries = Array.from(own.keys());
    await eachNeighbourList(search, candidates, queries, new Set(), (index, list) => take(own[index]!, list));
    done += own.length;
    onProgress(done);
  }
}

/** `clusters` distinct rows, drawn at random, as the first centres. */
function seedCentres(matrix: Float32Array, dims: number, clusters: number, rng: Rng): Float32Array {
  const rows = matrix.length / dims;
  const chosen = new Set<number>();
  while (chosen.size < clusters) chosen.add(Math.floor(rng.next() * rows));
  const centres = new Float32Array(clusters * dims);
  [...chosen].forEach((row, index) => centres.set(matrix.subarray(row * dims, (row + 1) * dims), index * dims));
  return centres;
}

/** Each row's nearest centre (the vectors are unit length: the largest dot product). */
async function nearestCentres(
  search: NeighbourSearch,
  matrix: Float32Array,
  dims: number,
  centres: Float32Array,
  checkpoint: Checkpoint,
): Promise<Int32Array> {
  const rows = matrix.length / dims;
  const assignment = new Int32Array(rows);
  for (let start = 0; start < rows; start += ASSIGN_BLOCK) {
    checkpoint();
    const end = Math.min(rows, start + ASSIGN_BLOCK);
    const found = await search.search(matrix.slice(start * dims, end * dims), centres, 1);
    assignment.set(found.indices, start);
  }
  return assignment;
}

/** Each cluster's new centre: the direction of its rows' sum; a cluster left empty keeps its old centre. */
function meanDirections(matrix: Float32Array, dims: number, assignment: Int32Array, previous: Float32Array): Float32Array {
  const sums = new Float64Array(previous.length);
  for (let row = 0; row < assignment.length; row++) {
    const at = assignment[row]! * dims;
    for (let d = 0; d < dims; d++) sums[at + d]! += matrix[row * dims + d]!;
  }
  const centres = new Float32Array(previous.length);
  for (let at = 0; at < sums.length; at += dims) {
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += sums[at + d]! ** 2;
    norm = Math.sqrt(norm);
    for (let d = 0; d < dims; d++) centres[at + d] = norm > 0 ? sums[at + d]! / norm : previous[at + d]!;
  }
  return centres;
}

/** The rows of each cluster, in row order, in one flat array. */
function membersOf(assignment: Int32Array, clusters: number): { rowsOf(cluster: number): Int32Array } {
  const starts = new Int32Array(clusters + 1);
  for (const cluster of assignment) starts[cluster + 1]!++;
  for (let cluster = 0; cluster < clusters; cluster++) starts[cluster + 1]! += starts[cluster]!;
  const rows = new Int32Array(assignment.length);
  const filled = starts.slice(0, clusters);
  assignment.forEach((cluster, row) => (rows[filled[cluster]!++] = row));
  return { rowsOf: (cluster) => rows.subarray(starts[cluster]!, starts[cluster + 1]!) };
}
