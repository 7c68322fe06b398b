// The similar-products model as stored: which model file a merchant uses, one
// unit vector per product, the same vectors as rows laid out for scanning, and
// each product's nearest neighbours. Opened by Store (src/stores/store.ts),
// which owns the LMDB environment. Written by one thread at a time (a training,
// then the refresh thread); pool workers only read.
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

/** A merchant's catalogue and similar-products data versions (Store.version), as a reconcile compares them. */
export interface DataVersions {
  catalogue: number;
  similar: number;
}

/**
 * Vector bytes per row chunk. Every query of quick-view's meaning fallback
 * scans all of a merchant's rows, one chunk per ONNX run, so chunks are big
 * enough to amortise a run (about 20 µs); a refresh rewrites each chunk whose
 * rows it changed, so they are not bigger.
 */
const CHUNK_VECTOR_BYTES = 2 * 1024 * 1024;
/** The id a removed product's row keeps (its vector zeroed) until the next training compacts the rows. */
export const REMOVED_ROW = -1;

/** Rows per chunk: the same for every chunk of a model, so row r lives in chunk ⌊r / rowsPerChunk⌋. */
export function rowsPerChunk(dims: number): number {
  return Math.max(1, Math.floor(CHUNK_VECTOR_BYTES / (dims * Float32Array.BYTES_PER_ELEMENT)));
}

/**
 * One chunk of a merchant's rows as stored, read in place: `vectors` is a view
 * of lmdb's read buffer (or of the memory map), valid only until this thread's
 * next read of the store. Callers use it before reading anything else.
 */
export interface RowChunk {
  rows: number;
  /** rows × dims, row-major. */
  vectors: Float32Array;
  /** The product id of a row, or REMOVED_ROW. */
  idAt(row: number): number;
}

function merchantRange(merchant: MerchantId): { start: Key; end: Key } {
  return { start: [merchant], end: [merchant, "\uffff"] };
}

export class SimilarStore {
  private readonly models: Database<ModelManifest, MerchantId>;
  private readonly vectors: Database<Uint8Array, Key>;
  private readonly neighbours: Database<WeightedIds, Key>;
  /** [merchant, chunk] → rows × dims float32 vectors, then rows float64 product ids (little-endian). */
  private readonly rowChunks: Database<Uint8Array, Key>;
  /** merchant → the data versions at which the model's products were last found to be the catalogue's (see inStepAt). */
  private readonly inStep: Database<DataVersions, MerchantId>;

  constructor(
    root: RootDatabase,
    private readonly bumpVersion: (merchant: MerchantId) => void,
  ) {
    const structured = { encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") } as const;
    this.models = root.openDB<ModelManifest, MerchantId>({ name: "similar_models", ...structured });
    // Raw bytes: a vector is a Float32Array, and msgpack would only wrap it.
    this.vectors = root.openDB<Uint8Array, Key>({ name: "similar_vectors", encoding: "binary" });
    this.neighbours = root.openDB<WeightedIds, Key>({ name: "similar_neighbours", ...structured });
    this.rowChunks = root.openDB<Uint8Array, Key>({ name: "similar_row_chunks", encoding: "binary" });
    this.inStep = root.openDB<DataVersions, MerchantId>({ name: "similar_in_step", ...structured });
  }

  manifest(merchant: MerchantId): ModelManifest | undefined {
    return this.models.get(merchant);
  }

  /** Whether the merchant has a trained model, without decoding its manifest (a list miss asks twice; decoding was 2.6 µs of one). */
  hasModel(merchant: MerchantId): boolean {
    return this.models.doesExist(merchant);
  }

  vector(merchant: MerchantId, productId: number): Float32Array | undefined {
    const bytes = this.vectors.get([merchant, productId]);
    // Copied: lmdb may hand out a view of the memory map.
    return bytes === undefined ? undefined : new Float32Array(Uint8Array.from(bytes).buffer);
  }

  /** Every product vector of a merchant, in product id order, copied into one matrix (for laying out rows where none are stored). */
  vectorsByProduct(merchant: MerchantId, dims: number): { ids: number[]; matrix: Float32Array } {
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

  /** Chunk `chunk` of the merchant's rows, read in place (see RowChunk); undefined past the last. */
  rowChunk(merchant: MerchantId, chunk: number, dims: number): RowChunk | undefined {
    const found = this.rowChunks.getBinaryFast([merchant, chunk]);
    if (found === undefined) return undefined;
    // A Float32Array view needs a 4-byte boundary: lmdb copies a value to the start of its read buffer, and
    // maps a large one at a page boundary, so this copy is only for a value placed otherwise.
    const bytes = found.byteOffset % Float32Array.BYTES_PER_ELEMENT === 0 ? found : found.slice(0, found.length);
    const vectorBytes = dims * Float32Array.BYTES_PER_ELEMENT;
    // `length`, not byteLength: lmdb hands out its whole read buffer with `length` set to the value's size.
    const rows = bytes.length / (vectorBytes + Float64Array.BYTES_PER_ELEMENT);
    const ids = new DataView(bytes.buffer, bytes.byteOffset + rows * vectorBytes, rows * Float64Array.BYTES_PER_ELEMENT);
    return {
      rows,
      vectors: new Float32Array(bytes.buffer, bytes.byteOffset, rows * dims),
      idAt: (row) => ids.getFloat64(row * Float64Array.BYTES_PER_ELEMENT, true),
    };
  }

  /** Whether the merchant's rows are laid out for scanning (a model trained before they were is not, until its first refresh). */
  hasRows(merchant: MerchantId): boolean {
    return this.rowChunks.doesExist([merchant, 0]);
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

  /** Writes chunk `chunk` of the rows: `ids` (REMOVED_ROW for a removed row) and their vectors, rows × dims. */
  putRowChunk(merchant: MerchantId, chunk: number, ids: ArrayLike<number>, vectors: Float32Array): void {
    const bytes = new Uint8Array(vectors.byteLength + ids.length * Float64Array.BYTES_PER_ELEMENT);
    bytes.set(new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength));
    const view = new DataView(bytes.buffer, vectors.byteLength);
    for (let row = 0; row < ids.length; row++) view.setFloat64(row * Float64Array.BYTES_PER_ELEMENT, ids[row]!, true);
    this.rowChunks.put([merchant, chunk], bytes);
  }

  putNeighbours(merchant: MerchantId, productId: number, list: WeightedIds): void {
    this.neighbours.put([merchant, productId], list);
  }

  remove(merchant: MerchantId, productId: number): void {
    this.vectors.remove([merchant, productId]);
    this.neighbours.remove([merchant, productId]);
  }

  /** Drops every vector, row and list of a merchant (a new model replaces them all). */
  clear(merchant: MerchantId): void {
    for (const key of this.vectors.getKeys(merchantRange(merchant))) this.vectors.remove(key);
    for (const key of this.rowChunks.getKeys(merchantRange(merchant))) this.rowChunks.remove(key);
    for (const key of this.neighbours.getKeys(merchantRange(merchant))) this.neighbours.remove(key);
  }

  /**
   * The data versions at which the merchant's vectors were last found to be
   * exactly its products (undefined: never). While both versions stay, so
   * does that: each moves with every write of its data.
   */
  inStepAt(merchant: MerchantId): DataVersions | undefined {
    return this.inStep.get(merchant);
  }

  /** Writes inside the caller's transaction, with no bump: no answer reads it. */
  markInStep(merchant: MerchantId, versions: DataVersions): void {
    this.inStep.put(merchant, versions);
  }

  putManifest(merchant: MerchantId, manifest: ModelManifest): void {
    this.models.put(merchant, manifest);
  }

  /** Every write above ends with this, so cached answers that used the old lists are not served. */
  bump(merchant: MerchantId): void {
    this.bumpVersion(merchant);
  }
}
