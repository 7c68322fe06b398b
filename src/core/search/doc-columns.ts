// What the ranker reads of every product a query touches, stored per chunk of
// DOC_CHUNK consecutive doc numbers as columns of raw little-endian numbers:
//   rankLogs f64[DOC_CHUNK] · grids i32[DOC_CHUNK] · titleCounts u16[DOC_CHUNK] · flags u8[DOC_CHUNK]
// A query groups the docs it touched by chunk and reads each chunk once.

export const DOC_CHUNK = 1_024;
const DOC_CHUNK_SHIFT = 10;

/** The doc is in use (a freed doc's columns are all zero). */
export const LIVE = 1;
/** The product can be bought (the shared availability rule). */
export const AVAILABLE = 2;

/** ln(1 + rank) of a product the top-sellers ranking leaves out. */
const UNRANKED = -1;

export const DOC_COLUMNS_BYTES = DOC_CHUNK * (8 + 4 + 2 + 1);

export interface DocColumns {
  /** ln(1 + its 0-based top-sellers rank), or UNRANKED: sales popularity without a logarithm per query. */
  rankLogs: Float64Array;
  /** The sum over the title's terms of priorGrid(df): bounds the prior without reading the terms (see prior.ts). */
  grids: Int32Array;
  titleCounts: Uint16Array;
  flags: Uint8Array;
}

/** Where the flags column starts: a doc's flags are the byte at FLAGS_OFFSET + its slot. */
export const FLAGS_OFFSET = DOC_CHUNK * 14;

/** Views over a chunk's bytes, which must be DOC_COLUMNS_BYTES long and 8-byte aligned. */
export function docColumns(bytes: Uint8Array): DocColumns {
  const { buffer, byteOffset } = bytes;
  return {
    rankLogs: new Float64Array(buffer, byteOffset, DOC_CHUNK),
    grids: new Int32Array(buffer, byteOffset + DOC_CHUNK * 8, DOC_CHUNK),
    titleCounts: new Uint16Array(buffer, byteOffset + DOC_CHUNK * 12, DOC_CHUNK),
    flags: new Uint8Array(buffer, byteOffset + FLAGS_OFFSET, DOC_CHUNK),
  };
}

export function chunkOf(doc: number): number {
  return doc >>> DOC_CHUNK_SHIFT;
}

export function slotOf(doc: number): number {
  return doc & (DOC_CHUNK - 1);
}

/** The rank as rankLogs keeps it. */
export function rankLog(rank: number | undefined): number {
  return rank === undefined ? UNRANKED : Math.log(1 + rank);
}

/**
 * Sales popularity in [0, 1]: 1 for the best seller, fading by log rank to 0
 * past the last of `ranked` products (0 for a product not ranked). Rounded to
 * 32 bits, as the ranker weighs it.
 */
export function popularityOf(rankLogValue: number, scale: number): number {
  return rankLogValue < 0 ? 0 : Math.fround(1 - rankLogValue / scale);
}

/** The scale popularityOf divides by: ln(1 + ranked products). */
export function popularityScale(ranked: number): number {
  return Math.log(1 + ranked);
}
