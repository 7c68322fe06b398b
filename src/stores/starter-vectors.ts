// Each product's starter vector (src/core/embedding/starter.ts), written in the
// transaction that writes the product: the similar-products lists a shop has
// before its trained model exists, or while a worker refuses the model's file.
import type { Database, RootDatabase } from "lmdb";
import { starterSignature, starterVector } from "../core/embedding/starter.js";
import type { MerchantId, Product } from "../core/types.js";
import type { DerivedBuild } from "./derived-builds.js";
import { merchantRange, type Key } from "./merchant-keys.js";
import { StarterRows } from "./starter-rows.js";

/** Products per rebuild slice: a vector costs microseconds, reading the product most of them. */
const BUILD_SLICE = 2_000;

/** What a rebuild reads. */
export interface StarterSource {
  productIdsAfter(merchant: MerchantId, after: number | null, limit: number): number[];
  product(merchant: MerchantId, id: number): Product | undefined;
}

export class StarterVectors implements DerivedBuild {
  readonly name = "similar_starter";
  readonly layout = 1;
  private readonly vectors: Database<Uint8Array, Key>;
  /** The vectors' signatures in rows a scan reads in place (a derived build of its own). */
  readonly rows: StarterRows;

  constructor(
    root: RootDatabase,
    private readonly source: StarterSource,
  ) {
    this.vectors = root.openDB<Uint8Array, Key>({ name: "similar_starter_vectors", encoding: "binary" });
    this.rows = new StarterRows(root, { signaturesAfter: (merchant, after, limit) => this.signaturesAfter(merchant, after, limit) });
  }

  /** In the caller's transaction (the product write's). */
  writeProducts(merchant: MerchantId, products: readonly Product[]): void {
    const signed = products.map((product) => {
      const vector = starterVector(product);
      this.vectors.put([merchant, product.id], new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
      return { id: product.id, signature: starterSignature(vector) };
    });
    this.rows.write(merchant, signed);
  }

  remove(merchant: MerchantId, productId: number): void {
    this.vectors.remove([merchant, productId]);
    this.rows.remove(merchant, productId);
  }

  vector(merchant: MerchantId, productId: number): Int8Array | undefined {
    const bytes = this.vectors.get([merchant, productId]);
    // The bytes are this read's own: viewed as signed, not converted one by one.
    return bytes === undefined ? undefined : new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Every vector of a merchant, in product id order. */
  *all(merchant: MerchantId): Generator<{ id: number; vector: Int8Array }> {
    for (const { key, value } of this.vectors.getRange(merchantRange(merchant))) {
      yield { id: key[1] as number, vector: new Int8Array(value.buffer, value.byteOffset, value.byteLength) };
    }
  }

  /** The signatures of the stored vectors of products after `after` (null: from the first), in id order. */
  private signaturesAfter(merchant: MerchantId, after: number | null, limit: number): { id: number; signature: [number, number] }[] {
    const { start, end } = merchantRange(merchant);
    const signed: { id: number; signature: [number, number] }[] = [];
    // Each value is read as it comes: lmdb may reuse its bytes for the next one.
    for (const { key, value } of this.vectors.getRange({ start: after === null ? start : [merchant, after + 1], end, limit })) {
      signed.push({ id: key[1] as number, signature: starterSignature(new Int8Array(value.buffer, value.byteOffset, value.byteLength)) });
    }
    return signed;
  }

  /** Its rows go too: the rebuild writes them again with the vectors. */
  clear(merchant: MerchantId): void {
    for (const key of this.vectors.getKeys(merchantRange(merchant))) this.vectors.remove(key);
    this.rows.clear(merchant);
  }

  buildSlice(merchant: MerchantId, cursor: number | null): number | null {
    const ids = this.source.productIdsAfter(merchant, cursor, BUILD_SLICE);
    this.writeProducts(
      merchant,
      ids.map((id) => this.source.product(merchant, id)!),
    );
    return ids.length < BUILD_SLICE ? null : ids[ids.length - 1]!;
  }
}
