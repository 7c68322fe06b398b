// Each product's starter vector (src/core/embedding/starter.ts), written in the
// transaction that writes the product: the similar-products lists a shop has
// before its trained model exists, or while a worker refuses the model's file.
import type { Database, RootDatabase } from "lmdb";
import { starterVector } from "../core/embedding/starter.js";
import type { MerchantId, Product } from "../core/types.js";
import type { DerivedBuild } from "./derived-builds.js";
import { merchantRange, type Key } from "./merchant-keys.js";

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

  constructor(
    root: RootDatabase,
    private readonly source: StarterSource,
  ) {
    this.vectors = root.openDB<Uint8Array, Key>({ name: "similar_starter_vectors", encoding: "binary" });
  }

  /** In the caller's transaction (the product write's). */
  write(merchant: MerchantId, product: Product): void {
    const vector = starterVector(product);
    this.vectors.put([merchant, product.id], new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
  }

  remove(merchant: MerchantId, productId: number): void {
    this.vectors.remove([merchant, productId]);
  }

  vector(merchant: MerchantId, productId: number): Int8Array | undefined {
    const bytes = this.vectors.get([merchant, productId]);
    return bytes === undefined ? undefined : Int8Array.from(bytes, (byte) => (byte << 24) >> 24);
  }

  /** Every vector of a merchant, in product id order. */
  *all(merchant: MerchantId): Generator<{ id: number; vector: Int8Array }> {
    for (const { key, value } of this.vectors.getRange(merchantRange(merchant))) {
      yield { id: key[1] as number, vector: new Int8Array(value.buffer, value.byteOffset, value.byteLength) };
    }
  }

  clear(merchant: MerchantId): void {
    for (const key of this.vectors.getKeys(merchantRange(merchant))) this.vectors.remove(key);
  }

  buildSlice(merchant: MerchantId, cursor: number | null): number | null {
    const ids = this.source.productIdsAfter(merchant, cursor, BUILD_SLICE);
    for (const id of ids) this.write(merchant, this.source.product(merchant, id)!);
    return ids.length < BUILD_SLICE ? null : ids[ids.length - 1]!;
  }
}
