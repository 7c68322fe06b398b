// The one way a model file on disk reaches onnxruntime: only when its manifest
// is in the format this code writes and the file's bytes are the ones the
// manifest describes. A file changed after training would otherwise load and
// serve vectors that match neither the model nor the stored lists.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MerchantId } from "../core/types.js";
import type { ModelManifest } from "../stores/similar.js";
import { Encoder } from "./onnx-runtime.js";

/** The manifest format this code writes and reads: the encoder graph's inputs and output, and the hashing of features.ts. */
export const MODEL_FORMAT: ModelManifest["format"] = "aisle-product-encoder";

/** A model this code will not load; the message names the merchant, the file, and what was expected and found. */
export class ModelFileRefused extends Error {
  constructor(
    readonly merchant: MerchantId,
    readonly file: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`similar-products model of merchant "${merchant}" refused: ${file}: expected ${expected}, found ${found}`);
    this.name = "ModelFileRefused";
  }
}

/** What the manifest itself gets wrong, before the file is read; null when it is one this code reads. */
function manifestMismatch(manifest: ModelManifest): { expected: string; found: string } | null {
  // Compared as strings: the manifest comes from disk or LMDB, possibly written by another version of aisle.
  const format: string = manifest.format;
  if (format !== MODEL_FORMAT) return { expected: `manifest format "${MODEL_FORMAT}"`, found: `format "${format}"` };
  // A version is the first 16 hex digits of the file's sha256; workers tell models apart by it.
  const version = manifest.sha256.slice(0, 16);
  if (manifest.version !== version)
    return { expected: `manifest version ${version} (from its sha256)`, found: `version ${manifest.version}` };
  return null;
}

/**
 * Reads a merchant's model file once, checks it against its manifest and loads
 * it; throws ModelFileRefused when the check fails. Costs one read and one
 * sha256 of the file (about 0.1 s for the largest tables, 64 MB), so callers
 * load once per model, not per request.
 */
export async function loadModelFile(directory: string, merchant: MerchantId, manifest: ModelManifest): Promise<Encoder> {
  const file = join(directory, manifest.file);
  const mismatch = manifestMismatch(manifest);
  if (mismatch) throw new ModelFileRefused(merchant, file, mismatch.expected, mismatch.found);
  const expected = `sha256 ${manifest.sha256} (from its manifest)`;
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new ModelFileRefused(merchant, file, expected, `no readable file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (sha256 !== manifest.sha256) throw new ModelFileRefused(merchant, file, expected, `sha256 ${sha256}`);
  return Encoder.load(bytes, manifest.dims);
}
