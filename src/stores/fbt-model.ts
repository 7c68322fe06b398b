// Each shop's trained bought-together model (src/recs/train-fbt.ts): per
// product its model list (EASE plus its text neighbours), and one manifest per
// merchant with the settings its own orders chose, their validation figures and what the training cost. One
// writer, the training's thread, replaces a merchant's whole model in one
// transaction, so a reader sees the old model or the new one, never a mix.
// Workers read the lists in place, beside the co-purchase lists they blend.
//
// Every record carries FBT_MODEL_FORMAT. A reader serves the formats it
// knows (SERVED_FORMATS) and treats any other as absent (today's co-purchase
// lists answer) until a training rewrites it; a model of an earlier format is
// due a training at once.
import type { Database, RootDatabase } from "lmdb";
import type { WeightedIds } from "../core/recs/copurchase.js";
import type { FbtBlend } from "../core/recs/fbt-blend.js";
import type { MerchantId } from "../core/types.js";
import { merchantRange, type Key } from "./merchant-keys.js";

/**
 * The format of the manifest and of every stored list; bump it when either
 * changes shape or meaning. 2: the settings name the text neighbours' weight
 * and the lists may hold text neighbours.
 */
export const FBT_MODEL_FORMAT = 2;
/**
 * Formats answered from. A format-1 model is EASE lists alone, which is what
 * text weight 0 gives: its shop keeps it, rather than falling back to the
 * co-purchase lists, until its retraining.
 */
const SERVED_FORMATS: ReadonlySet<number> = new Set([1, FBT_MODEL_FORMAT]);

/** HR@10 and NDCG@10 on the shop's validation cases. */
export interface FbtFigures {
  hr: number;
  ndcg: number;
}

export interface FbtSettings {
  /** EASE's ridge penalty. */
  lambda: number;
  /** The text neighbours' weight in each product's list, on EASE's scale (0: EASE alone). */
  textWeight: number;
  blend: FbtBlend;
}

export interface FbtManifest {
  format: number;
  /** Moves with every training that writes lists: cached answers follow it. */
  generation: number;
  /** The chosen settings; null when the shop keeps today's co-purchase lists (too many products, or too few validation cases). */
  settings: FbtSettings | null;
  /** Why there are no settings, when there are none. */
  skipped: string | null;
  /** Validation figures of today's co-purchase lists and of the chosen settings (null when nothing was tuned). */
  validation: { copurchase: FbtFigures; tuned: FbtFigures; cases: number } | null;
  /** Orders the shop had stored at the training, cancelled ones too: what "grown since" is counted against. */
  orders: number;
  /** Products the model covers. */
  products: number;
  trainedAt: number;
  seconds: number;
  /** The largest matrix the training held, in bytes. */
  peakBytes: number;
}

interface StoredList extends WeightedIds {
  format: number;
}

/**
 * What requests read of a training, apart from the manifest: every
 * bought-together request reads the generation for its cache key (hits
 * included, on the HTTP thread), and every miss the blend.
 */
interface Serving {
  format: number;
  generation: number;
  blend: FbtBlend | null;
}

export class FbtModelStore {
  private readonly manifests: Database<FbtManifest, MerchantId>;
  /** [merchant, product] → the product's EASE list (with its text neighbours, at the settings' text weight). */
  private readonly lists: Database<StoredList, Key>;
  /** merchant → its Serving record, written with the manifest. */
  private readonly serving: Database<Serving, MerchantId>;

  constructor(private readonly root: RootDatabase) {
    const options = { encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") } as const;
    this.manifests = root.openDB<FbtManifest, MerchantId>({ name: "fbt_manifests", ...options });
    this.lists = root.openDB<StoredList, Key>({ name: "fbt_lists", ...options });
    this.serving = root.openDB<Serving, MerchantId>({ name: "fbt_serving", ...options });
  }

  /** The merchant's last training (undefined: never trained, or written in a format this build does not serve). */
  manifest(merchant: MerchantId): FbtManifest | undefined {
    const manifest = this.manifests.get(merchant);
    if (manifest === undefined || !SERVED_FORMATS.has(manifest.format)) return undefined;
    // Format 1 had no text neighbours.
    return manifest.settings === null
      ? manifest
      : { ...manifest, settings: { ...manifest.settings, textWeight: manifest.settings.textWeight ?? 0 } };
  }

  /** Whether the merchant's model was written in an earlier format than this build writes: a training is due. */
  writtenInEarlierFormat(merchant: MerchantId): boolean {
    const format = this.manifests.get(merchant)?.format;
    return format !== undefined && format < FBT_MODEL_FORMAT;
  }

  /** The product's model list: EASE, with its text neighbours at the settings' weight (undefined: not covered by the model). */
  list(merchant: MerchantId, productId: number): WeightedIds | undefined {
    const list = this.lists.get([merchant, productId]);
    return list !== undefined && SERVED_FORMATS.has(list.format) ? list : undefined;
  }

  /** What cached bought-together answers of the merchant depend on besides the inputs' co-purchase lists. */
  generation(merchant: MerchantId): number {
    return this.servingOf(merchant)?.generation ?? 0;
  }

  /** How the merchant's answers blend its model lists with the co-purchase lists; null: co-purchase lists alone. */
  blend(merchant: MerchantId): FbtBlend | null {
    return this.servingOf(merchant)?.blend ?? null;
  }

  private servingOf(merchant: MerchantId): Serving | undefined {
    const serving = this.serving.get(merchant);
    return serving !== undefined && SERVED_FORMATS.has(serving.format) ? serving : undefined;
  }

  /**
   * Replaces the merchant's model in one transaction: its manifest (its
   * generation moved on) and every list, those the new model lacks removed.
   */
  async replace(
    merchant: MerchantId,
    manifest: Omit<FbtManifest, "format" | "generation">,
    lists: ReadonlyMap<number, WeightedIds>,
  ): Promise<FbtManifest> {
    return this.root.childTransaction(() => {
      const written: FbtManifest = {
        ...manifest,
        format: FBT_MODEL_FORMAT,
        generation: (this.manifests.get(merchant)?.generation ?? 0) + 1,
      };
      for (const key of [...this.lists.getKeys(merchantRange(merchant))]) if (!lists.has(key[1] as number)) this.lists.remove(key);
      for (const [id, { ids, weights }] of lists) this.lists.put([merchant, id], { format: FBT_MODEL_FORMAT, ids, weights });
      this.manifests.put(merchant, written);
      this.serving.put(merchant, { format: FBT_MODEL_FORMAT, generation: written.generation, blend: written.settings?.blend ?? null });
      return written;
    });
  }
}
