// The similar-products model as stored: which model file a merchant uses, one
// unit vector per product, and each product's nearest neighbours. Opened by
// Store (src/stores/store.ts), which owns the LMDB environment.
import type { Database, RootDatabase } from "lmdb";
import type { HashingScheme } from "../core/embedding/features.js";
import type { WeightedIds } from "../core/recs/copurchase.js";
import type { MerchantId } from "../core/types.js";

/** Exact lists compare every product with every other; clustered ones (big catalogues) see similar/clustered-neighbours.ts. */
export type NeighbourMethod = { method: "exact" } | { method: "clustered"; clusters: number; probes: number };

/** What the manifest beside a model file says; also kept in LMDB so readers need no file access. */
export interface ModelManifest {
  format: "aisle-product-encoder";
  version: string;
  createdAt: string;
  dims: number;
  hashing: HashingScheme & { function: "fnv1a32 over UTF-16 code units of a namespaced token, masked to buckets" };
  inputs: { featureIds: string; featureWeights: string };
  output: string;
  training: {
    seed: number;
    products: number;
    productsWithBehaviour: number;
    orders: number;
    viewSessions: number;
    samples: number;
    batches: number;
    firstLoss: number | null;
    lastLoss: number | null;
    seconds: number;
  };
  /** The cosine a product must reach for quick-view's semantic fallback (absent: a model built before it was measured). */
  meaningFloor?: number;
  /** How the neighbour lists were found (absent: a model built before this was recorded, exact). */
  neighbours?: NeighbourMethod;
  /** Hex sha256 of the .onnx file. */
  sha256: string;
  /** Model file name, relative to the merchant's model directory. */
  file: string;
}

type Key = (string | number)[];

function merchantRange(merchant: MerchantId): { start: Key; end: Key } {
  return { start: [merchant], end: [merchant, "\uffff"] };
}

export class SimilarStore {
  private readonly models: Database<ModelManifest, MerchantId>;
  private readonly vectors: Database<Uint8Array, Key>;
  private readonly neighbours: Database<WeightedIds, Key>;

  constructor(
    root: RootDatabase,
    private readonly bumpVersion: (merchant: MerchantId) => void,
  ) {
    const structured = { encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") } as const;
    this.models = root.openDB<ModelManifest, MerchantId>({ name: "similar_models", ...structured });
    // Raw bytes: a vector is a Float32Array, and msgpack would only wrap it.
    this.vectors = root.openDB<Uint8Array, Key>({ name: "similar_vectors", encoding: "binary" });
    this.neighbours = root.openDB<WeightedIds, Key>({ name: "similar_neighbours", ...structured });
  }

  manifest(merchant: MerchantId): ModelManifest | undefined {
    return this.models.get(merchant);
  }

  vector(merchant: MerchantId, productId: number): Float32Array | undefined {
    const bytes = this.vectors.get([merchant, productId]);
    // Copied: lmdb may hand out a view of the memory map.
    return bytes === undefined ? undefined : new Float32Array(Uint8Array.from(bytes).buffer);
  }

  /** Every product vector of a merchant, in product id order, as one matrix. */
  allVectors(merchant: MerchantId, dims: number): { ids: number[]; matrix: Float32Array } {
    const ids: number[] = [];
    const rows: Uint8Array[] = [];
    for (const { key, value } of this.vectors.getRange(merchantRange(merchant))) {
      ids.push(key[1] as number);
      rows.push(Uint8Array.from(value));
    }
    const matrix = new Float32Array(ids.length * dims);
    rows.forEach((row, index) => matrix.set(new Float32Array(row.buffer), index * dims));
    return { ids, matrix };
  }

  /** Products that have a vector. */
  vectorIds(merchant: MerchantId): Set<number> {
    return new Set([...this.vectors.getKeys(merchantRange(merchant))].map((key) => key[1] as number));
  }

  neighboursOf(merchant: MerchantId, productId: number): WeightedIds | undefined {
    return this.neighbours.get([merchant, productId]);
  }

  /** Writes inside the caller's transaction. */
  putVector(merchant: MerchantId, productId: number, vector: Float32Array): void {
    this.vectors.put([merchant, productId], new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength).slice());
  }

  putNeighbours(merchant: MerchantId, productId: number, list: WeightedIds): void {
    this.neighbours.put([merchant, productId], list);
  }

  remove(merchant: MerchantId, productId: number): void {
    this.vectors.remove([merchant, productId]);
    this.neighbours.remove([merchant, productId]);
  }

  /** Drops every vector and list of a merchant (a new model replaces them all). */
  clear(merchant: MerchantId): void {
    for (const key of this.vectors.getKeys(merchantRange(merchant))) this.vectors.remove(key);
    for (const key of this.neighbours.getKeys(merchantRange(merchant))) this.neighbours.remove(key);
  }

  putManifest(merchant: MerchantId, manifest: ModelManifest): void {
    this.models.put(merchant, manifest);
  }

  /** Every write above ends with this, so cached answers that used the old lists are not served. */
  bump(merchant: MerchantId): void {
    this.bumpVersion(merchant);
  }
}
