// A term's postings as stored: blocks of up to POSTING_BLOCK_MAX entries,
// sorted by doc number, each entry carrying the doc's length and the term's
// mark in it (see termMarks), so scoring a posting reads nothing else. A block
// is three runs of raw little-endian numbers behind its count:
//   count u32 · docs u32[count] · lengths u32[count] · marks u16[count]
// and is read in place through typed-array views.

/** Entries per stored block, at most: ~10 KB, a few LMDB pages per read or rewrite. */
export const POSTING_BLOCK_MAX = 1_024;

/** One block's entries, in doc order. */
export interface PostingBlock {
  count: number;
  docs: Uint32Array;
  lengths: Uint32Array;
  marks: Uint16Array;
}

const HEADER_BYTES = 4;

function postingBlockBytes(count: number): number {
  return HEADER_BYTES + count * 10;
}

/** Views over a stored block (valid as long as `bytes` is); copied first when `bytes` is not 4-byte aligned. */
export function readPostingBlock(bytes: Uint8Array): PostingBlock {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const { buffer, byteOffset } = aligned;
  const count = new Uint32Array(buffer, byteOffset, 1)[0]!;
  return {
    count,
    docs: new Uint32Array(buffer, byteOffset + HEADER_BYTES, count),
    lengths: new Uint32Array(buffer, byteOffset + HEADER_BYTES + count * 4, count),
    marks: new Uint16Array(buffer, byteOffset + HEADER_BYTES + count * 8, count),
  };
}

/** Entries [from, to) of parallel arrays, as a stored block. */
export function encodePostingBlock(
  docs: ArrayLike<number>,
  lengths: ArrayLike<number>,
  marks: ArrayLike<number>,
  from: number,
  to: number,
): Uint8Array {
  const count = to - from;
  const bytes = new Uint8Array(postingBlockBytes(count));
  new Uint32Array(bytes.buffer, 0, 1)[0] = count;
  const docView = new Uint32Array(bytes.buffer, HEADER_BYTES, count);
  const lengthView = new Uint32Array(bytes.buffer, HEADER_BYTES + count * 4, count);
  const markView = new Uint16Array(bytes.buffer, HEADER_BYTES + count * 8, count);
  for (let i = 0; i < count; i++) {
    docView[i] = docs[from + i]!;
    lengthView[i] = lengths[from + i]!;
    markView[i] = marks[from + i]!;
  }
  return bytes;
}

/** First index in the sorted docs whose doc is ≥ `doc`. */
export function docPosition(docs: ArrayLike<number>, count: number, doc: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (docs[mid]! < doc) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** How many blocks `count` entries are stored in, each as full as an even split allows. */
export function blocksFor(count: number): number {
  return Math.max(1, Math.ceil(count / POSTING_BLOCK_MAX));
}
