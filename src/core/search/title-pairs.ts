// Which neighbouring query words can stand side by side in a doc's title: an
// upper bound on the adjacency a doc can earn (ranker.ts), kept from the
// postings pass 1 reads anyway. A pair of neighbouring words is possible only
// if the title holds an alternative of each. When all it holds of both is one
// term that stands for both words, once ("embers" for "ember s", a compound
// offered to both), no pair is possible either: the pair would need that term
// twice in a row.
import type { Slot } from "./query-plan.js";

/** Flags of one slot in one doc, as its postings are read. */
const IN_TITLE = 1;
/** The title holds an alternative that is not also the next word's, or holds one twice. */
const FREE_NEXT = 2;
/** The title holds two or more of the slot's alternatives. */
const SEVERAL = 4;

/** Query words whose title marks are kept (a bit each); a query has at most RankingConfig.maxWords. */
const TITLE_WORDS = 16;

/**
 * The flags each of a slot's alternatives gives a doc whose title holds it
 * once (twice or more: FREE_NEXT too), by alternative.
 */
export function alternativeFlags(slots: readonly Slot[], position: number): Uint8Array {
  const next = new Set(slots[position + 1]?.alternatives.map(({ term }) => term) ?? []);
  return Uint8Array.from(slots[position]!.alternatives, ({ term }) => IN_TITLE | (next.has(term) ? 0 : FREE_NEXT));
}

/** A posting's flags: none when the title does not hold the term (mark below 2, see termMarks). */
export function postingFlags(alternative: number, mark: number): number {
  const inTitle = mark >>> 1;
  if (inTitle === 0) return 0;
  return inTitle >= 2 ? alternative | FREE_NEXT : alternative;
}

/** Merges a doc's flags for one more of the slot's alternatives into those of the ones read before. */
export function mergedFlags(before: number, posting: number): number {
  return before | posting | ((before & posting & IN_TITLE) !== 0 ? SEVERAL : 0);
}

/**
 * A doc's title bits: a bit per query word (the low 16), whether its title
 * holds the word, and (the high 16) whether a pair of the word and the next
 * one is free of the one-shared-term case (FREE_NEXT of the word, or SEVERAL
 * of the next). A doc starts with none (0); these are its bits once the flags
 * of the word at `position` are recorded.
 */
export function titleBitsWith(bits: number, position: number, flags: number): number {
  if (flags === 0 || position >= TITLE_WORDS) return bits;
  const bit = 1 << position;
  const held = (flags & IN_TITLE) !== 0 ? bit : 0;
  // SEVERAL frees the pair with the word before; the first word has none.
  const free = ((flags & FREE_NEXT) !== 0 ? bit : 0) | ((flags & SEVERAL) !== 0 ? bit >>> 1 : 0);
  return bits | held | (free << 16);
}

/**
 * At most how many pairs of neighbouring query words can stand side by side
 * in the title of a doc with these title bits; with more than TITLE_WORDS
 * words, `fallback`.
 */
export function possiblePairs(bits: number, words: number, fallback: number): number {
  if (words > TITLE_WORDS) return fallback;
  const held = bits & 0xffff;
  // Bit s: words s and s + 1 both held, and not both only through one term they share, once. When
  // every title term of word s is also word s + 1's, once each, word s + 1 holds them all: if it
  // holds only one, it is the one term of both, and no pair is possible.
  return bitCount(held & (held >>> 1) & (bits >>> 16));
}

function bitCount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count++;
  return count;
}
