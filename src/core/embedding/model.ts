// The product encoder's parameters and its TypeScript reference: the ONNX
// export computes exactly this (a test holds them within 1e-5).
import type { Features, HashingScheme } from "./features.js";

export interface EmbeddingModel {
  dims: number;
  scheme: HashingScheme;
  /** buckets × dims, row-major: one vector per hash bucket. */
  table: Float32Array;
  /** Per bucket: log-scaled inverse document frequency over the catalogue; 0 for buckets no product uses. */
  idf: Float32Array;
}

/** A norm this small means "no known features": the vector stays zero instead of dividing by nothing. */
export const MIN_NORM = 1e-12;

/**
 * The encoder: sum over features of weight × idf × table row, then L2
 * normalisation (a weighted mean has the same direction, so the division by
 * the weight total is left out).
 */
export function embedInto(model: EmbeddingModel, features: Features, out: Float32Array, offset = 0): void {
  const { dims, table, idf } = model;
  out.fill(0, offset, offset + dims);
  for (let index = 0; index < features.ids.length; index++) {
    const bucket = features.ids[index]!;
    const weight = features.weights[index]! * idf[bucket]!;
    if (weight === 0) continue;
    const row = bucket * dims;
    for (let dim = 0; dim < dims; dim++) out[offset + dim]! += weight * table[row + dim]!;
  }
  normaliseInPlace(out, offset, dims);
}

export function normaliseInPlace(vector: Float32Array, offset: number, dims: number): number {
  let squares = 0;
  for (let dim = 0; dim < dims; dim++) squares += vector[offset + dim]! ** 2;
  const norm = Math.sqrt(Math.max(squares, MIN_NORM * MIN_NORM));
  for (let dim = 0; dim < dims; dim++) vector[offset + dim]! /= norm;
  return norm;
}

/** Inverse document frequency per bucket: ln(1 + N / df); 0 where df = 0, so unknown words add nothing. */
export function inverseDocumentFrequency(buckets: number, catalogue: Features[]): Float32Array {
  const documentFrequency = new Uint32Array(buckets);
  for (const features of catalogue) for (const bucket of features.ids) documentFrequency[bucket]!++;
  const idf = new Float32Array(buckets);
  for (let bucket = 0; bucket < buckets; bucket++) {
    const df = documentFrequency[bucket]!;
    if (df > 0) idf[bucket] = Math.log(1 + catalogue.length / df);
  }
  return idf;
}

export function dot(a: Float32Array, aOffset: number, b: Float32Array, bOffset: number, dims: number): number {
  let sum = 0;
  for (let dim = 0; dim < dims; dim++) sum += a[aOffset + dim]! * b[bOffset + dim]!;
  return sum;
}
