// Each shop's tuned viewed-related settings (src/recs/tune-viewed-related.ts)
// with the validation figures that chose them, one small record per merchant.
// Workers read it per viewed-related answer: one read of a few hundred bytes
// beside a query that reads hundreds of sessions. A shop not tuned yet is
// served the defaults.
//
// A tuning may also train a re-ranker per setting (an ONNX model of a few
// kilobytes). Its bytes are kept apart, keyed by merchant and setting, and
// named by the tuning record (version and sha256). The record and the bytes
// are replaced in one transaction, so a reader that finds a version in the
// record finds those bytes beside it: no request sees half a model.
import type { Database, RootDatabase } from "lmdb";
import type { NextItemFigures } from "../core/recs/next-item-figures.js";
import { DEFAULT_VIEWED_RELATED, type ViewedRelatedMode, type ViewedRelatedSettings } from "../core/recs/viewed-related-settings.js";
import type { MerchantId } from "../core/types.js";

/** Validation figures (HR@20, MRR@20) of one setting: the defaults', and the chosen settings'. */
export interface ValidationFigures {
  defaults: NextItemFigures;
  tuned: NextItemFigures;
}

/** The format of a stored re-ranker: its inputs are RERANK_FEATURE_NAMES in order; bump it when they change. */
export const RERANKER_FORMAT = "aisle-viewed-reranker-2";

/** A setting's re-ranker, as its tuning trained it: validated, and served only when `adopted`. */
export interface RerankerSummary {
  /** Whether it beat the setting's own ranking on the check cases (else the stored bytes are absent and kNN answers). */
  adopted: boolean;
  format: string;
  /** The first 16 hex digits of the ONNX bytes' sha256: workers tell models apart by it. */
  version: string;
  sha256: string;
  /** Features per candidate and hidden units. */
  inputs: number;
  hidden: number;
  /**
   * Figures on the check cases (validation sessions it was not fitted on): the setting's own ranking, re-ranked,
   * and the 90% interval of the paired gain per case in HR@20 + MRR@20 points (adopted when its low end is above 0).
   */
  check: { ranking: NextItemFigures; reranked: NextItemFigures; gain: [number, number] };
  /** Queries it was fitted on (those whose next view was among the candidates). */
  fitted: number;
}

export interface ViewedRelatedTuning {
  settings: ViewedRelatedSettings;
  /** Per setting: its re-ranker (null: none was trained: too few cases, or not asked for). Absent in tunings written before re-rankers. */
  rerankers?: Record<ViewedRelatedMode, RerankerSummary | null>;
  validation: { served: ValidationFigures; protocol: ValidationFigures };
  /** Sessions the index had numbered when it was tuned: what "grown since" is counted against. */
  sessionsNumbered: number;
  /** Sessions it learned from: the training part, then the most recent ones it was validated on. */
  trainSessions: number;
  validationSessions: number;
  /** Whether bought-together reached enough validation cases for its weight to be tuned (else it kept the default). */
  copurchaseTuned: boolean;
  /** Settings scored by the search, the seed of its case sample, and when it ran (ms) and for how long (s). */
  evaluated: number;
  seed: number;
  tunedAt: number;
  seconds: number;
}

/** Whether a tuning was written by an earlier build: without re-rankers, or with one in a format this build refuses. */
export function tunedByEarlierBuild(tuning: ViewedRelatedTuning): boolean {
  if (tuning.rerankers === undefined) return true;
  return Object.values(tuning.rerankers).some((summary) => summary !== null && summary.format !== RERANKER_FORMAT);
}

/** An adopted re-ranker's ONNX bytes, for the tuning record to store beside it. */
export type RerankerBytes = Partial<Record<ViewedRelatedMode, Uint8Array>>;

export class ViewedRelatedTunings {
  private readonly db: Database<ViewedRelatedTuning, MerchantId>;
  private readonly models: Database<Uint8Array, [MerchantId, ViewedRelatedMode]>;

  constructor(private readonly root: RootDatabase) {
    this.db = root.openDB<ViewedRelatedTuning, MerchantId>({
      name: "viewed_related_tuning",
      encoding: "msgpack",
      sharedStructuresKey: Symbol.for("structures"),
    });
    this.models = root.openDB<Uint8Array, [MerchantId, ViewedRelatedMode]>({ name: "viewed_related_rerankers", encoding: "binary" });
  }

  /** The merchant's last tuning (undefined: never tuned). */
  read(merchant: MerchantId): ViewedRelatedTuning | undefined {
    return this.db.get(merchant);
  }

  /** The settings viewed-related answers the merchant with: its tuned ones, or the defaults. */
  settings(merchant: MerchantId): ViewedRelatedSettings {
    return this.db.get(merchant)?.settings ?? DEFAULT_VIEWED_RELATED;
  }

  /** The adopted re-ranker's ONNX bytes for a setting (a copy), as stored with the tuning that names them. */
  rerankerBytes(merchant: MerchantId, mode: ViewedRelatedMode): Uint8Array | undefined {
    return this.models.getBinary([merchant, mode]) ?? undefined;
  }

  /** Replaces the merchant's tuning and its re-rankers' bytes in one transaction (a setting without bytes has none). */
  async write(merchant: MerchantId, tuning: ViewedRelatedTuning, rerankers: RerankerBytes = {}): Promise<void> {
    await this.root.transaction(() => {
      void this.db.put(merchant, tuning);
      for (const mode of ["served", "protocol"] as const) {
        const bytes = rerankers[mode];
        if (bytes === undefined) void this.models.remove([merchant, mode]);
        else void this.models.put([merchant, mode], bytes);
      }
    });
  }
}
