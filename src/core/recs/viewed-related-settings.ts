// What viewed-related is tuned by, per shop: the session kNN query and how
// much bought-together counts beside it, for each of its two settings. The
// endpoint serves the `served` one (viewed products are never shown, so a
// repeat view cannot be a hit); `protocol` is the next-item protocol's, where
// repeat views count and the session's own items are boosted.
import { DEFAULT_SESSION_KNN, REMINDING_SESSION_KNN, type SessionKnnConfig } from "./session-knn.js";

export interface ViewedRelatedSetting {
  knn: SessionKnnConfig;
  /** How much bought-together counts beside session neighbours (each scaled to a best of 1; 0: not blended). */
  copurchaseWeight: number;
}

export interface ViewedRelatedSettings {
  served: ViewedRelatedSetting;
  protocol: ViewedRelatedSetting;
}

/** Which of a shop's settings a ranking uses. */
export type ViewedRelatedMode = keyof ViewedRelatedSettings;

/** A shop not tuned yet: the defaults, and bought-together at 0.3 of session neighbours. */
export const DEFAULT_VIEWED_RELATED: ViewedRelatedSettings = {
  served: { knn: DEFAULT_SESSION_KNN, copurchaseWeight: 0.3 },
  protocol: { knn: REMINDING_SESSION_KNN, copurchaseWeight: 0.3 },
};
