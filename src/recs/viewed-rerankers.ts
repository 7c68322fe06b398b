// The re-rankers a thread serves viewed-related with: each shop's adopted
// model, loaded into ONNX Runtime once per version and kept while the shop's
// tuning names it. A model is loaded only when its bytes are the ones its
// tuning record describes (format, input width, sha256); one that is not is
// refused, and the shop is answered by its setting's kNN ranking.
import { createHash } from "node:crypto";
import { RERANK_INPUTS } from "../core/recs/rerank-features.js";
import type { ViewedRelatedMode } from "../core/recs/viewed-related-settings.js";
import type { MerchantId } from "../core/types.js";
import { RankerSession } from "../embeddings/ranker-runtime.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";
import { RERANKER_FORMAT, type RerankerSummary } from "../stores/viewed-related-tuning.js";

/** A replaced model is released this long after its successor is asked for: answers still scoring with it finish first. */
const RELEASE_AFTER_MS = 60_000;

interface Loaded {
  version: string;
  /** null: refused, or failed to load. */
  session: Promise<RankerSession | null>;
}

const loadedByStore = new PerStore<string, Loaded>();

/** Why stored bytes are not the model a summary describes; null when they are. */
export function rerankerMismatch(summary: RerankerSummary, bytes: Uint8Array | undefined): string | null {
  if (summary.format !== RERANKER_FORMAT) return `format "${summary.format}", expected "${RERANKER_FORMAT}"`;
  if (summary.inputs !== RERANK_INPUTS) return `${summary.inputs} inputs, expected ${RERANK_INPUTS}`;
  if (bytes === undefined) return "no stored model";
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (sha256 !== summary.sha256) return `sha256 ${sha256}, expected ${summary.sha256}`;
  if (summary.version !== sha256.slice(0, 16)) return `version ${summary.version}, expected ${sha256.slice(0, 16)}`;
  return null;
}

/**
 * The merchant's adopted re-ranker for a setting, loading it the first time
 * its version is asked for. The bytes are read at once, at the snapshot the
 * caller read `summary` at (the two are written in one transaction).
 */
export function rerankerFor(
  store: Store,
  merchant: MerchantId,
  mode: ViewedRelatedMode,
  summary: RerankerSummary,
): Promise<RankerSession | null> {
  const loaded = loadedByStore.of(store);
  const key = `${merchant}\u0000${mode}`;
  const known = loaded.get(key);
  if (known?.version === summary.version) return known.session;
  if (known !== undefined) setTimeout(() => void known.session.then((session) => session?.release()), RELEASE_AFTER_MS).unref();
  const bytes = store.viewedRelatedTuning.rerankerBytes(merchant, mode);
  const mismatch = rerankerMismatch(summary, bytes);
  const session =
    mismatch === null
      ? RankerSession.load(bytes!, RERANK_INPUTS).catch((error: unknown) => {
          console.error(`viewed-related re-ranker ${summary.version} of merchant "${merchant}" failed to load: ${String(error)}`);
          return null;
        })
      : Promise.resolve(null);
  if (mismatch !== null) console.error(`viewed-related re-ranker of merchant "${merchant}" (${mode}) refused: ${mismatch}`);
  loaded.set(key, { version: summary.version, session });
  return session;
}
