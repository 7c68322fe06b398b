// viewed-related's session kNN over the session index the applier thread
// keeps in LMDB (src/stores/session-index.ts): read in place at this thread's
// snapshot, so every worker answers from the same sessions, complete from the
// first request after a start, and keeps no copy of them in its heap.
import { DEFAULT_SESSION_KNN, SessionKnn, type SessionKnnConfig, type SessionSource } from "../core/recs/session-knn.js";
import type { ItemScores, ScoreLookup } from "../core/recs/item-scores.js";
import type { MerchantId } from "../core/types.js";
import { SESSIONS_KEPT_PER_ITEM } from "../stores/session-index.js";
import type { Store } from "../stores/store.js";

/** The query's scratch: a thread answers one task at a time. */
const knn = new SessionKnn();

/** A merchant's stored sessions, and the querying session's own number in them (-1: not stored), kept out of its neighbours. */
export interface StoredSessions {
  source: SessionSource;
  self: number;
}

/** The merchant's session index as a query reads it; null when it holds no session. */
export function storedSessions(store: Store, merchant: MerchantId, uuid: string | null): StoredSessions | null {
  const source = store.sessionIndex.source(merchant);
  if (source === null) return null;
  return { source, self: (uuid === null ? undefined : store.sessionIndex.numberOf(merchant, uuid)) ?? -1 };
}

/** A setting that samples more sessions per product than the index keeps is a bug wherever it is asked, with or without sessions. */
function checkSampleKept(config: SessionKnnConfig): void {
  if (config.sampleSize > SESSIONS_KEPT_PER_ITEM)
    throw new RangeError(
      `the session index keeps ${SESSIONS_KEPT_PER_ITEM} sessions per product, a sample of ${config.sampleSize} needs more`,
    );
}

/** Products scored as the next view after `viewed` (product ids in view order), from these sessions. */
export function scoreNextViewsIn(
  sessions: StoredSessions,
  viewed: readonly number[],
  config: SessionKnnConfig = DEFAULT_SESSION_KNN,
): ItemScores {
  checkSampleKept(config);
  return knn.query(sessions.source, viewed, config, sessions.self);
}

/**
 * Products scored as the next view after `viewed` (product ids in view order).
 * `uuid` names the session itself, kept out of its own neighbours.
 */
export function scoreNextViews(
  store: Store,
  merchant: MerchantId,
  viewed: readonly number[],
  uuid: string | null,
  config: SessionKnnConfig = DEFAULT_SESSION_KNN,
): ScoreLookup {
  checkSampleKept(config);
  const sessions = storedSessions(store, merchant, uuid);
  return sessions === null ? new Map() : knn.query(sessions.source, viewed, config, sessions.self);
}
