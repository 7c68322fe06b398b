// What one query has found of each doc it touches, in one 16-byte record per
// doc. In a big shop a query's docs lie far apart among a million, so each
// read of a doc's state is a cache miss; kept in a column per field, scoring a
// posting and bounding its doc missed about once per field read. Side by
// side, the first read of a doc brings in the fields read next to it. On the
// kept 1M shop's slow keystrokes, nearly all of the ranker's time was those
// misses (perf: a single load each). At 16 bytes, about what the columns
// held per doc, a word that most products hold still finds four docs a cache
// line.
//
// A record's words, by offset from the doc's first: the stamp it was last
// touched under, its text score so far (float), its matched words and its
// title bits. A slot of several alternatives keeps what they gave the doc in
// a slot record of the same size, in a buffer of its own: the slot's stamp,
// its best alternative's score (float) and the title flags of the
// alternatives it holds (the last word is unused). A slot of one alternative
// needs none.

/** The query stamp the doc was last touched under: its other fields hold this query's only when it is the current one. */
export const SEEN = 0;
/** Its text score so far (float). */
export const TOTAL = 1;
/** How many of the query's words it matched so far. */
export const MATCHED = 2;
/** Its title bits (title-pairs.ts titleBitsWith). */
export const TITLE = 3;

/** In a slot record: the slot stamp the next two were written under. */
export const SLOT_STAMP = 0;
/** In a slot record: the best score of the slot's alternatives the doc holds (float). */
export const SLOT_BEST = 1;
/** In a slot record: the title flags of the slot's alternatives the doc holds (title-pairs.ts). */
export const SLOT_FLAGS = 2;

/** Words per record as a shift: 4 words, 16 bytes, a quarter of a 64-byte cache line. */
const RECORD_SHIFT = 2;

/**
 * Stamps are kept as 32-bit integers: past this they start again from 1,
 * every record cleared first. A query takes one stamp and one per slot (two
 * rankings' worth when it falls back from leader lists), far fewer than the
 * room left above it.
 */
const STAMP_LIMIT = 0x7fff_0000;

/**
 * The offset of a doc's record in `ints` and `floats`, and of its slot record
 * in `slotInts` and `slotFloats` (doc numbers stay far below the 2^29 this
 * could reach).
 */
export function recordOf(doc: number): number {
  return doc << RECORD_SHIFT;
}

export class DocRecords {
  /** The records as 32-bit integers and, over the same bytes, as floats: TOTAL is read as a float. */
  ints = new Int32Array(0);
  floats = new Float32Array(0);
  /** The slot records, likewise: SLOT_BEST is read as a float. */
  slotInts = new Int32Array(0);
  slotFloats = new Float32Array(0);
  /** Docs below this have a record. */
  capacity = 0;
  private stamp = 0;

  constructor(private readonly stampLimit = STAMP_LIMIT) {}

  /** Records for docs below `capacity` at least; what they held is lost when they move. */
  fit(capacity: number): void {
    if (capacity <= this.capacity) return;
    const bytes = capacity * (4 << RECORD_SHIFT);
    const buffer = new ArrayBuffer(bytes);
    this.ints = new Int32Array(buffer);
    this.floats = new Float32Array(buffer);
    const slotBuffer = new ArrayBuffer(bytes);
    this.slotInts = new Int32Array(slotBuffer);
    this.slotFloats = new Float32Array(slotBuffer);
    this.capacity = capacity;
  }

  /**
   * A new query's stamp, above every stamp a record holds, so that no record
   * reads as touched by it; 1 when the stamps start again (every record
   * cleared), and for the first query.
   */
  queryStamp(): number {
    if (this.stamp >= this.stampLimit) {
      this.ints.fill(0);
      this.slotInts.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** A stamp for a slot of the current query: above every stamp given before it. */
  slotStamp(): number {
    return ++this.stamp;
  }
}
