// The re-rankers a thread serves viewed-related with: each shop's adopted
// model, loaded into ONNX Runtime once per version and kept while the shop's
// tuning names it. A model is loaded only when its bytes are the ones its
// tuning record describes (format, input width, sha256); one that is not, or
// that fails to load or to score, is dropped for that version (said once),
// and the shop is answered by its setting's kNN ranking until a retrain.
import { createHash } from "node:crypto";
import { RERANK_INPUTS } from "../core/recs/rerank-features.js";
import type { ViewedRelatedMode } from "../core/recs/viewed-related-settings.js";
import type { MerchantId } from "../core/types.js";
import { RankerSession } from "../embeddings/ranker-runtime.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";
import { RERANKER_FORMAT, type RerankerSummary } from "../stores/viewed-related-tuning.js";

/** A released model is released this long after it leaves the cache: answers still scoring with it finish first. */
const RELEASE_AFTER_MS = 60_000;
/** Models a thread keeps loaded, the least recently used let go first: each holds ONNX Runtime's native memory. */
const MAX_LOADED = 256;

interface Loaded {
  version: string;
  /** null: refused, or failed to load or to score. */
  session: Promise<RankerSession | null>;
  /** Dropped after a failure to score: said once, however many answers were scoring with it. */
  dropped?: true;
}

const loadedByStore = new PerStore<string, Loaded>();

const keyOf = (merchant: MerchantId, mode: ViewedRelatedMode) => `${merchant}\u0000${mode}`;

function releaseLater(loaded: Loaded): void {
  setTimeout(() => void loaded.session.then((session) => session?.release()), RELEASE_AFTER_MS).unref();
}

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
  const key = keyOf(merchant, mode);
  const known = loaded.get(key);
  if (known !== undefined) loaded.delete(key);
  if (known?.version === summary.version) {
    loaded.set(key, known); // now the most recently used
    return known.session;
  }
  if (known !== undefined) releaseLater(known);
  const bytes = store.viewedRelatedTuning.rerankerBytes(merchant, mode);
  const mismatch = rerankerMismatch(summary, bytes);
  const refused = (why: string) => {
    console.error(`viewed-related re-ranker ${summary.version} of merchant "${merchant}" (${mode}) ${why}`);
    return null;
  };
  const session =
    mismatch === null
      ? RankerSession.load(bytes!, RERANK_INPUTS).catch((error: unknown) => refused(`failed to load: ${String(error)}`))
      : Promise.resolve(refused(`refused: ${mismatch}`));
  loaded.set(key, { version: summary.version, session });
  if (loaded.size > MAX_LOADED) {
    const [oldest, entry] = loaded.entries().next().value!;
    loaded.delete(oldest);
    releaseLater(entry);
  }
  return session;
}

/** Lets go of the merchant's model for a setting, when its tuning no longer names one. */
export function forgetReranker(store: Store, merchant: MerchantId, mode: ViewedRelatedMode): void {
  const loaded = loadedByStore.of(store);
  const key = keyOf(merchant, mode);
  const known = loaded.get(key);
  if (known === undefined) return;
  loaded.delete(key);
  releaseLater(known);
}

/** Stops serving the merchant's current model for a setting (said once): its version answers with the kNN ranking from now on. */
export function dropReranker(store: Store, merchant: MerchantId, mode: ViewedRelatedMode, why: string): void {
  const known = loadedByStore.of(store).get(keyOf(merchant, mode));
  if (known === undefined || known.dropped) return;
  const dropped = known.session;
  known.session = Promise.resolve(null);
  known.dropped = true;
  console.error(`viewed-related re-ranker ${known.version} of merchant "${merchant}" (${mode}) dropped: ${why}`);
  releaseLater({ version: known.version, session: dropped });
}
