// How close a product must be to a query for quick-view's semantic fallback to
// count it as being about the query. Any text embeds somewhere, and a shop's
// fine-tuned model puts random strings close to some product: on the demo shop
// the nearest product to a random letter string scored a median cosine of
// 0.46 and up to 0.87, so a fixed floor let gibberish ("qwerty", "blorp") and
// unknown barcodes fill a list with unrelated products. Each model measures its
// own noise instead: the nearest-product similarity of strings that mean
// nothing, and the fallback keeps only products above nearly all of them.
import { queryFeatures, type HashingScheme } from "../core/embedding/features.js";
import { Rng } from "../core/random.js";
import type { Encoder } from "../embeddings/onnx-runtime.js";

/** Below this a product is never "about" a query, whatever the noise (64 random dimensions spread about ±0.125). */
export const MIN_MEANING_SIMILARITY = 0.35;
/** Strings that mean nothing, measured per model: letters of word-like lengths, and digit runs like barcodes. */
const NOISE_QUERIES = 256;
/** The share of noise the floor is above. */
const NOISE_QUANTILE = 0.98;
/** Fixed, so that a model's floor depends on the model alone. */
const NOISE_SEED = 20_261_126;

function noiseQueries(): string[] {
  const rng = new Rng(NOISE_SEED);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return Array.from({ length: NOISE_QUERIES }, (_, i) =>
    i % 4 === 3
      ? Array.from({ length: rng.int(6, 13) }, () => String(rng.int(0, 9))).join("")
      : Array.from({ length: rng.int(3, 10) }, () => letters[rng.int(0, 25)]).join(""),
  );
}

/**
 * The similarity a product must reach to be about a query, for this model and
 * the product vectors `nearestScores` searches: it gives each query's best
 * score, or nothing for a catalogue without products.
 */
export async function meaningFloor(
  encoder: Encoder,
  scheme: HashingScheme,
  nearestScores: (queries: Float32Array) => Promise<number[]>,
): Promise<number> {
  const queries = await encoder.embed(noiseQueries().map((query) => queryFeatures(query, scheme)));
  const nearest = (await nearestScores(queries)).sort((a, b) => a - b);
  if (nearest.length === 0) return MIN_MEANING_SIMILARITY;
  return Math.max(MIN_MEANING_SIMILARITY, nearest[Math.floor(NOISE_QUANTILE * (nearest.length - 1))]!);
}
