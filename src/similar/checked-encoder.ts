// A merchant's encoder as a thread loads it: checked against its manifest
// first (model-file.ts), with a refused file remembered per thread so that
// neither searches nor refreshes read and hash it, or log the refusal, again.
import type { MerchantId } from "../core/types.js";
import { loadModelFile, ModelFileRefused } from "../embeddings/model-file.js";
import type { Encoder } from "../embeddings/onnx-runtime.js";
import type { ModelManifest } from "../stores/similar.js";
import { modelDirectory } from "./build.js";

/**
 * Model files this thread refused, by data dir and merchant (a file's), with
 * the manifest they were checked against. A refusal stands until another
 * manifest comes.
 */
const refusals = new Map<string, { manifest: ModelManifest; refusal: ModelFileRefused }>();

/** A retraining on unchanged data writes the same version (the same bytes) again, but never the same createdAt. */
export function sameTraining(a: ModelManifest, b: ModelManifest): boolean {
  return a.version === b.version && a.createdAt === b.createdAt;
}

/** The merchant's model file, checked against its manifest and loaded; or why it was refused. */
export async function loadCheckedEncoder(
  dataDir: string,
  merchant: MerchantId,
  manifest: ModelManifest,
): Promise<Encoder | ModelFileRefused> {
  const fileKey = `${dataDir}\u0000${merchant}`;
  const earlier = refusals.get(fileKey);
  if (earlier && sameTraining(earlier.manifest, manifest)) return earlier.refusal;
  try {
    const encoder = await loadModelFile(modelDirectory(dataDir, merchant), merchant, manifest);
    refusals.delete(fileKey);
    return encoder;
  } catch (error) {
    if (!(error instanceof ModelFileRefused)) throw error;
    // Worker threads have no structured logger; their failures go to stderr.
    console.error(error.message);
    refusals.set(fileKey, { manifest, refusal: error });
    return error;
  }
}
