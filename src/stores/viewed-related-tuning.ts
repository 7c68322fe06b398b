// Each shop's tuned viewed-related settings (src/recs/tune-viewed-related.ts)
// with the validation figures that chose them, one small record per merchant.
// Workers read it per viewed-related answer: one read of a few hundred bytes
// beside a query that reads hundreds of sessions. A shop not tuned yet is
// served the defaults.
import type { Database, RootDatabase } from "lmdb";
import type { NextItemFigures } from "../core/recs/next-item-figures.js";
import { DEFAULT_VIEWED_RELATED, type ViewedRelatedSettings } from "../core/recs/viewed-related-settings.js";
import type { MerchantId } from "../core/types.js";

/** Validation figures (HR@20, MRR@20) of one setting: the defaults', and the chosen settings'. */
export interface ValidationFigures {
  defaults: NextItemFigures;
  tuned: NextItemFigures;
}

export interface ViewedRelatedTuning {
  settings: ViewedRelatedSettings;
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

export class ViewedRelatedTunings {
  private readonly db: Database<ViewedRelatedTuning, MerchantId>;

  constructor(root: RootDatabase) {
    this.db = root.openDB<ViewedRelatedTuning, MerchantId>({
      name: "viewed_related_tuning",
      encoding: "msgpack",
      sharedStructuresKey: Symbol.for("structures"),
    });
  }

  /** The merchant's last tuning (undefined: never tuned). */
  read(merchant: MerchantId): ViewedRelatedTuning | undefined {
    return this.db.get(merchant);
  }

  /** The settings viewed-related answers the merchant with: its tuned ones, or the defaults. */
  settings(merchant: MerchantId): ViewedRelatedSettings {
    return this.db.get(merchant)?.settings ?? DEFAULT_VIEWED_RELATED;
  }

  async write(merchant: MerchantId, tuning: ViewedRelatedTuning): Promise<void> {
    await this.db.put(merchant, tuning);
  }
}
