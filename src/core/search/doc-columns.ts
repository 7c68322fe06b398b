// What is kept of each doc by doc number, in chunks of DOC_CHUNK consecutive
// docs, as columns of raw little-endian numbers:
// - bounds, what the ranker reads of every doc a query may show, five bytes a
//   doc so that a query reading every chunk copies little:
//     rankSteps u16[DOC_CHUNK] · priorSteps u16[DOC_CHUNK] · flags u8[DOC_CHUNK]
// - grids, what the bounds' prior steps are kept from (written, never read by queries):
//     grids i32[DOC_CHUNK] · titleCounts u16[DOC_CHUNK]
// - products, each doc's product id: f64[DOC_CHUNK].
// A query groups the docs it touched by chunk and reads each chunk once.

export const DOC_CHUNK = 1_024;
const DOC_CHUNK_SHIFT = 10;

/** The doc is in use (a freed doc's columns are all zero). */
export const LIVE = 1;
/** The product can be bought (the shared availability rule). */
export const AVAILABLE = 2;

/** Steps per unit of the bounds' fixed-point values: a value v is kept as floor(v · STEPS), within 1/STEPS below it. */
const STEPS = 2_048;
/** The rank step of a product the top-sellers ranking leaves out. */
const UNRANKED = 0xffff;

export const DOC_BOUNDS_BYTES = DOC_CHUNK * 5;
export const DOC_GRIDS_BYTES = DOC_CHUNK * 6;
export const DOC_PRODUCTS_BYTES = DOC_CHUNK * 8;

export interface DocBounds {
  /** ln(1 + the product's 0-based top-sellers rank) in steps, or UNRANKED: sales popularity to within a step. */
  rankSteps: Uint16Array;
  /** The mean over the title's terms of priorGrid(df), in steps: the prior to within ln 2 / ln N (see prior.ts). */
  priorSteps: Uint16Array;
  flags: Uint8Array;
}

export interface DocGrids {
  /** The sum over the title's terms (repeats counted) of priorGrid(df). */
  grids: Int32Array;
  titleCounts: Uint16Array;
}

/** Where the flags column starts: a doc's flags are the byte at FLAGS_OFFSET + its slot. */
export const FLAGS_OFFSET = DOC_CHUNK * 4;

/** Views over a bounds chunk's bytes (DOC_BOUNDS_BYTES long, 2-byte aligned). */
export function docBounds(bytes: Uint8Array): DocBounds {
  const { buffer, byteOffset } = bytes;
  return {
    rankSteps: new Uint16Array(buffer, byteOffset, DOC_CHUNK),
    priorSteps: new Uint16Array(buffer, byteOffset + DOC_CHUNK * 2, DOC_CHUNK),
    flags: new Uint8Array(buffer, byteOffset + FLAGS_OFFSET, DOC_CHUNK),
  };
}

/** Views over a grids chunk's bytes (DOC_GRIDS_BYTES long, 4-byte aligned). */
export function docGrids(bytes: Uint8Array): DocGrids {
  const { buffer, byteOffset } = bytes;
  return {
    grids: new Int32Array(buffer, byteOffset, DOC_CHUNK),
    titleCounts: new Uint16Array(buffer, byteOffset + DOC_CHUNK * 4, DOC_CHUNK),
  };
}

/** Views over a products chunk's bytes (DOC_PRODUCTS_BYTES long, 8-byte aligned). */
export function docProducts(bytes: Uint8Array): Float64Array {
  return new Float64Array(bytes.buffer, bytes.byteOffset, DOC_CHUNK);
}

export function chunkOf(doc: number): number {
  return doc >>> DOC_CHUNK_SHIFT;
}

export function slotOf(doc: number): number {
  return doc & (DOC_CHUNK - 1);
}

/** The rank as rankSteps keeps it. */
export function rankSteps(rank: number | undefined): number {
  return rank === undefined ? UNRANKED : Math.floor(Math.log(1 + rank) * STEPS);
}

/** A title's grid sum as priorSteps keeps it (its mean). */
export function priorSteps(grid: number, titleCount: number): number {
  return titleCount === 0 ? 0 : Math.floor((grid / titleCount) * STEPS);
}

/** Rounding slack of the bounds: the exact values are rounded to 32 bits and computed in another order. */
const SLACK = 1e-6;

/**
 * Sales popularity in [0, 1]: 1 for the best seller, fading by log rank to 0
 * past the last of the ranked products (0 for a product not ranked), as 32
 * bits, as the ranker weighs it. `scale` is popularityScale of the ranked products.
 */
export function popularityOf(rank: number | undefined, scale: number): number {
  return rank === undefined ? 0 : Math.fround(1 - Math.log(1 + rank) / scale);
}

/** The scale popularityOf divides by: ln(1 + ranked products). */
export function popularityScale(ranked: number): number {
  return Math.log(1 + ranked);
}

/**
 * Bounds on a doc's popularity and prior from its steps, in a shop whose
 * ranked products give popularityScale `scale` and whose size gives ln N =
 * `logN`: per query, factors multiply what per doc would divide (the slack
 * covers the rounding that changes).
 */
export class StepBounds {
  private readonly popularityStep: number;
  private readonly priorStep: number;
  /** How far above its lower bound a ranked product's popularity can be. */
  readonly popularitySpread: number;
  /** How far above its lower bound the prior can be: the grid's ln 2, a step, and the slack on both sides. */
  readonly priorSpread: number;

  constructor(scale: number, logN: number) {
    this.popularityStep = 1 / (STEPS * scale);
    this.priorStep = Math.LN2 / (STEPS * logN);
    this.popularitySpread = this.popularityStep + 2 * SLACK;
    this.priorSpread = Math.LN2 / logN + this.priorStep + 2 * SLACK;
  }

  /** popularityOf's value at or above this, for a doc with these rank steps. */
  popularityLower(steps: number): number {
    return steps === UNRANKED ? 0 : Math.max(0, 1 - (steps + 1) * this.popularityStep - SLACK);
  }

  /** How far above popularityLower the popularity can be. */
  popularityWidth(steps: number): number {
    return steps === UNRANKED ? 0 : this.popularitySpread;
  }

  /** The prior (prior.ts) at or above this, for a doc with these prior steps. */
  priorLower(steps: number): number {
    return steps * this.priorStep - SLACK;
  }
}
