// What one query has found of each doc it touches, in one 32-byte record per
// doc. In a big shop a query's docs lie far apart among a million, so each
// read of a doc's state is a cache miss; kept in a column per field, scoring
// a posting and bounding its doc missed once per field (about nine times).
// Side by side, the fields of a doc share one cache line: the first read of a
// doc brings in the rest. On the kept 1M shop's slow keystrokes, nearly all
// of the ranker's time was those misses (perf: a single load each).
//
// A record's words, by offset from the doc's first (RECORD_WORDS apart):
// the query stamp it was last touched under, its text score so far (float),
// its matched words, its title bits (title-pairs.ts), and for the slot being
// scored: the slot's stamp, its best alternative's score (float) and the
// title flags of the alternatives it holds.

/** The query stamp the doc was last touched under: its other fields hold this query's only when it is the current one. */
export const SEEN = 0;
/** Its text score so far (float). */
export const TOTAL = 1;
/** How many of the query's words it matched so far. */
export const MATCHED = 2;
/** Its title bits (title-pairs.ts titleBitsWith). */
export const TITLE = 3;
/** The slot stamp the next two were written under. */
export const SLOT_STAMP = 4;
/** The best score of the slot's alternatives it holds (float). */
export const SLOT_BEST = 5;
/** The title flags of the slot's alternatives it holds (title-pairs.ts). */
export const SLOT_FLAGS = 6;

/** Words per record: a power of two (offsets by shift), two records a 64-byte cache line. */
const RECORD_SHIFT = 3;

/** The offset of a doc's record in `ints` and `floats`. */
export function recordOf(doc: number): number {
  return doc << RECORD_SHIFT;
}

export class DocRecords {
  /** The records as 32-bit integers and, over the same bytes, as floats: TOTAL and SLOT_BEST are read as floats. */
  ints = new Int32Array(0);
  floats = new Float32Array(0);
  /** Docs below this have a record. */
  capacity = 0;

  /** Records for docs below `capacity` at least; what they held is lost when they move. */
  fit(capacity: number): void {
    if (capacity <= this.capacity) return;
    const buffer = new ArrayBuffer(capacity * (4 << RECORD_SHIFT));
    this.ints = new Int32Array(buffer);
    this.floats = new Float32Array(buffer);
    this.capacity = capacity;
  }
}
