import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rng } from "../../src/core/random.js";
import type { WeightedIds } from "../../src/core/recs/copurchase.js";
import { NeighbourSearch } from "../../src/embeddings/onnx-runtime.js";
import { ingest } from "../../src/ingest/ingest.js";
import { buildSimilarModel, DEFAULT_BUILD } from "../../src/similar/build.js";
import { clusteredNeighbourLists, clusteringFor } from "../../src/similar/clustered-neighbours.js";
import { eachNeighbourList, NEIGHBOURS_PER_PRODUCT, type VectorMatrix } from "../../src/similar/neighbours.js";
import { Store } from "../../src/stores/store.js";
import { product } from "../helpers/fixtures.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-clustered-");

const DIMS = 64;

/** Unit vectors scattered around `topics` random directions, as product embeddings cluster by kind. */
function topicVectors(count: number, topics: number, spread: number, rng: Rng): VectorMatrix {
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const unit = (vector: Float32Array) => {
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  };
  const centres = Array.from({ length: topics }, () => unit(Float32Array.from({ length: DIMS }, normal)));
  const matrix = new Float32Array(count * DIMS);
  for (let row = 0; row < count; row++) {
    const centre = centres[Math.floor(rng.next() * topics)]!;
    matrix.set(unit(centre.map((value) => value + spread * normal())), row * DIMS);
  }
  // Product ids past 2^32, as real ones are.
  return { dims: DIMS, matrix, ids: Array.from({ length: count }, (_, row) => 7_100_000_000_000 + row * 7) };
}

let search: NeighbourSearch;
beforeAll(async () => {
  search = await NeighbourSearch.create(DIMS);
});
afterAll(() => search.release());

/** Every row's exact list (each compared with every other), by row. */
async function exactLists(vectors: VectorMatrix): Promise<WeightedIds[]> {
  const lists: WeightedIds[] = [];
  await eachNeighbourList(
    search,
    vectors,
    vectors.ids.map((_, row) => row),
    new Set(),
    (row, list) => (lists[row] = list),
  );
  return lists;
}

describe("clustered neighbour lists (catalogues past exactNeighboursUpTo)", () => {
  it("give every product one list, best first, without itself, that holds most of its exact list", async () => {
    const vectors = topicVectors(4_000, 40, 0.15, new Rng(3));
    const rows = vectors.ids.map((_, row) => row);
    const exact = await exactLists(vectors);
    const clustered: WeightedIds[] = [];
    const options = clusteringFor(vectors.ids.length);
    expect(options.clusters).toBe(63);
    await clusteredNeighbourLists(search, vectors, options, (row, list) => {
      expect(clustered[row]).toBeUndefined();
      clustered[row] = list;
    });

    let found = 0;
    rows.forEach((row) => {
      const list = clustered[row]!;
      expect(list.ids).toHaveLength(NEIGHBOURS_PER_PRODUCT);
      expect(list.ids).not.toContain(vectors.ids[row]);
      expect(new Set(list.ids).size).toBe(list.ids.length);
      for (let rank = 1; rank < list.weights.length; rank++) expect(list.weights[rank - 1]!).toBeGreaterThanOrEqual(list.weights[rank]!);
      const truth = new Set(exact[row]!.ids);
      found += list.ids.filter((id) => truth.has(id)).length;
    });
    const recall = found / (rows.length * NEIGHBOURS_PER_PRODUCT);
    // 0.978 here; vectors with no cluster structure at all (spread 0.3) fall to ~0.36.
    expect(recall).toBeGreaterThan(0.95);
    expect(recall).toBeLessThanOrEqual(1);
  }, 60_000);

  it("are the exact lists when the probes reach every cluster", async () => {
    const vectors = topicVectors(600, 6, 0.2, new Rng(5));
    const exact = await exactLists(vectors);
    const clustered: WeightedIds[] = [];
    await clusteredNeighbourLists(
      search,
      vectors,
      { clusters: 5, probes: 5, iterations: 3, seed: 1 },
      (row, list) => (clustered[row] = list),
    );
    exact.forEach((_, row) => expect(new Set(clustered[row]!.ids)).toEqual(new Set(exact[row]!.ids)));
  }, 60_000);

  it("are what a build uses past exactNeighboursUpTo, and its manifest says so", async () => {
    const WORDS = ["velvet sofa", "ceramic mug", "wool socks", "desk lamp"];
    for (const [exactUpTo, expected] of [
      [10, { method: "clustered", clusters: 6, probes: 6 }],
      [DEFAULT_BUILD.exactNeighboursUpTo, { method: "exact" }],
    ] as const) {
      const dataDir = tempDir();
      const store = Store.open(dataDir);
      try {
        await store.catalogue.createMerchant(storedMerchant("shop"));
        await ingest(
          store,
          "shop",
          "products",
          Array.from({ length: 40 }, (_, i) => product(100 + i, { title: `Harbor ${WORDS[i % WORDS.length]} ${i}` })),
        );
        const manifest = await buildSimilarModel(store, dataDir, "shop", { ...DEFAULT_BUILD, exactNeighboursUpTo: exactUpTo });
        expect(manifest.neighbours).toEqual(expected);
        expect(store.similar.manifest("shop")?.neighbours).toEqual(expected);
        // 40 products, 6 clusters, each probing all 6: every product still reaches all 39 others.
        for (const id of store.catalogue.productIds("shop")) expect(store.similar.neighboursOf("shop", id)?.ids).toHaveLength(39);
      } finally {
        await store.close();
      }
    }
  }, 60_000);
});
