// Every product's starter-vector signature (src/core/embedding/starter.ts), in
// rows of chunks a query scans in place: until a shop's trained model exists,
// similar products come from a scan of every product, and at 1M products
// reading each product's vector as its own LMDB entry took 1-3 s a request.
// A chunk holds ROWS product ids and their 64-bit signatures (16 KB), so the
// scan reads a thousand chunks and counts differing bits; only the shortlist
// it keeps is then scored on the full vectors.
//
// Written beside the vectors, in the product write's transaction: each
// product keeps its row (a freed row is used next); built from the stored
// vectors for a data dir that lacks the rows (DerivedBuild).
import type { Database, RootDatabase } from "lmdb";
import { SignatureShortlist, signatureDistance } from "../core/embedding/starter.js";
import type { MerchantId } from "../core/types.js";
import type { DerivedBuild } from "./derived-builds.js";
import { merchantRange, type Key } from "./merchant-keys.js";

/** Products per chunk. */
const ROWS = 1_024;
const ROW_SHIFT = 10;
const CHUNK_BYTES = ROWS * 8 + ROWS * 8;
/** Vectors copied per rebuild slice. */
const BUILD_SLICE = 4_096;

/** A chunk's columns: product ids (0: a free row) and each row's signature as two 32-bit words. */
function chunkViews(bytes: Uint8Array): { ids: Float64Array; signatures: Uint32Array } {
  const { buffer, byteOffset } = bytes;
  return { ids: new Float64Array(buffer, byteOffset, ROWS), signatures: new Uint32Array(buffer, byteOffset + ROWS * 8, ROWS * 2) };
}

/** What a rebuild reads: the stored starter vectors' signatures, by product id. */
export interface SignatureSource {
  signaturesAfter(merchant: MerchantId, after: number | null, limit: number): { id: number; signature: readonly [number, number] }[];
}

export class StarterRows implements DerivedBuild {
  readonly name = "similar_starter_rows";
  readonly layout = 1;
  /** [merchant, product id] → its row. */
  private readonly rows: Database<number, Key>;
  /** [merchant, row] of rows freed by a delete: the lowest is used next. */
  private readonly freeRows: Database<true, Key>;
  /** merchant → rows in use or freed: every row is below it. */
  private readonly capacity: Database<number, MerchantId>;
  /** [merchant, chunk] → the chunk's bytes. */
  private readonly chunks: Database<Uint8Array, Key>;

  constructor(
    root: RootDatabase,
    private readonly source: SignatureSource,
  ) {
    const structured = { encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") } as const;
    this.rows = root.openDB({ name: "similar_starter_rows", ...structured });
    this.freeRows = root.openDB({ name: "similar_starter_free_rows", ...structured });
    this.capacity = root.openDB({ name: "similar_starter_row_capacity", ...structured });
    this.chunks = root.openDB({ name: "similar_starter_row_chunks", encoding: "binary" });
  }

  // ── writes, in the caller's transaction ──

  /** The products' signatures, each in its row (a new product takes the lowest free one). */
  write(merchant: MerchantId, products: readonly { id: number; signature: readonly [number, number] }[]): void {
    const edits = new ChunkEdits(this.chunks, merchant);
    let capacity = this.capacity.get(merchant) ?? 0;
    for (const { id, signature } of products) {
      let row = this.rows.get([merchant, id]);
      if (row === undefined) {
        row = this.freeRow(merchant) ?? capacity++;
        this.rows.put([merchant, id], row);
      }
      const { ids, signatures } = edits.edit(row);
      const slot = row & (ROWS - 1);
      ids[slot] = id;
      signatures[2 * slot] = signature[0];
      signatures[2 * slot + 1] = signature[1];
    }
    edits.write();
    this.capacity.put(merchant, capacity);
  }

  remove(merchant: MerchantId, id: number): void {
    const row = this.rows.get([merchant, id]);
    if (row === undefined) return;
    const edits = new ChunkEdits(this.chunks, merchant);
    const { ids, signatures } = edits.edit(row);
    const slot = row & (ROWS - 1);
    ids[slot] = 0;
    signatures[2 * slot] = 0;
    signatures[2 * slot + 1] = 0;
    edits.write();
    this.rows.remove([merchant, id]);
    this.freeRows.put([merchant, row], true);
  }

  private freeRow(merchant: MerchantId): number | undefined {
    for (const key of this.freeRows.getKeys({ ...merchantRange(merchant), limit: 1 })) {
      this.freeRows.remove(key);
      return key[1] as number;
    }
    return undefined;
  }

  // ── reads ──

  /** The `capacity` products whose signatures differ least from `signature` (ties: lower id), `excluded` left out. */
  shortlist(merchant: MerchantId, signature: readonly [number, number], excluded: ReadonlySet<number>, capacity: number): number[] {
    const shortlist = new SignatureShortlist(capacity);
    const rows = this.capacity.get(merchant) ?? 0;
    for (let chunk = 0; chunk <= (rows - 1) >> ROW_SHIFT; chunk++) {
      const stored = this.chunks.getBinaryFast([merchant, chunk]);
      if (stored === undefined) continue;
      // Read in place: lmdb's shared buffer, valid until the next read.
      const { ids, signatures } = chunkViews(alignedCopyIfNeeded(stored.subarray(0, stored.length)));
      for (let slot = 0; slot < ROWS; slot++) {
        const distance = signatureDistance(signatures[2 * slot]!, signatures[2 * slot + 1]!, signature);
        // Most rows end here: the id is read, and the exclusions looked up, only for rows that can be kept.
        if (distance > shortlist.bound) continue;
        const id = ids[slot]!;
        if (id !== 0 && !excluded.has(id)) shortlist.offer(id, distance);
      }
    }
    return shortlist.ids();
  }

  // ── rebuild (DerivedBuild) ──

  clear(merchant: MerchantId): void {
    for (const table of [this.rows, this.freeRows, this.chunks] as Database<unknown, Key>[]) {
      for (const key of table.getKeys(merchantRange(merchant))) table.remove(key);
    }
    this.capacity.remove(merchant);
  }

  buildSlice(merchant: MerchantId, cursor: number | null): number | null {
    const products = this.source.signaturesAfter(merchant, cursor, BUILD_SLICE);
    this.write(merchant, products);
    return products.length < BUILD_SLICE ? null : products[products.length - 1]!.id;
  }
}

/** Chunks read once, edited in place and written back once per write. */
class ChunkEdits {
  private readonly edited = new Map<number, Uint8Array>();

  constructor(
    private readonly chunks: Database<Uint8Array, Key>,
    private readonly merchant: MerchantId,
  ) {}

  /** The columns of the row's chunk (a copy; all zero for a chunk never written). */
  edit(row: number): { ids: Float64Array; signatures: Uint32Array } {
    const chunk = row >> ROW_SHIFT;
    let bytes = this.edited.get(chunk);
    if (bytes === undefined) {
      bytes = new Uint8Array(CHUNK_BYTES);
      const stored = this.chunks.getBinary([this.merchant, chunk]);
      if (stored !== undefined) bytes.set(stored);
      this.edited.set(chunk, bytes);
    }
    return chunkViews(bytes);
  }

  write(): void {
    for (const [chunk, bytes] of this.edited) this.chunks.put([this.merchant, chunk], bytes);
  }
}

/** Float64 views need 8-byte alignment: lmdb's buffer gives it at most 4 bytes' here and there. */
function alignedCopyIfNeeded(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
}
