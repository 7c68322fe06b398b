// A product as the search index holds it: its terms by field, the head noun
// that weighs more, its codes and its length, from which every posting of the
// product and its share of the index's statistics follow.
import { normaliseCode, type IndexedProduct } from "./indexed-product.js";
import { headTerm, terms } from "./text.js";

/** Added to the frequency of the title's head noun (see headTerm). */
export const HEAD_BONUS = 0.5;

export interface SearchDocument {
  productId: number;
  /** The title's terms in order, repeats kept: phrases and the prior read them. */
  titleTerms: string[];
  /** The extras' terms that are not in the title, each once, in order of appearance. */
  extraTerms: string[];
  /** The title's head noun when it is one of the terms above (it earns HEAD_BONUS), else null. */
  head: string | null;
  /** Its codes, normalised, each once. */
  codes: string[];
  available: boolean;
}

export function searchDocument(product: IndexedProduct): SearchDocument {
  const titleTerms = terms(product.title);
  const inTitle = new Set(titleTerms);
  const extraTerms = [...new Set(product.extras.flatMap((text) => terms(text)))].filter((term) => !inTitle.has(term));
  const head = headTerm(product.title);
  return {
    productId: product.id,
    titleTerms,
    extraTerms,
    head: head !== null && (inTitle.has(head) || extraTerms.includes(head)) ? head : null,
    codes: [...new Set(product.codes.map(normaliseCode).filter((code) => code !== ""))],
    available: product.available,
  };
}

/** Terms counted by BM25's length normalisation. */
export function documentLength(document: Pick<SearchDocument, "titleTerms" | "extraTerms">): number {
  return document.titleTerms.length + document.extraTerms.length;
}

/**
 * Each distinct term of the document and its mark: how often the title holds
 * it, shifted left by one, with the low bit set for the head noun. A term only
 * in the extras has mark 0 (or 1 as the head).
 */
export function termMarks(document: Pick<SearchDocument, "titleTerms" | "extraTerms" | "head">): Map<string, number> {
  const marks = new Map<string, number>();
  for (const term of document.titleTerms) marks.set(term, (marks.get(term) ?? 0) + 2);
  for (const term of document.extraTerms) marks.set(term, 0);
  if (document.head !== null) marks.set(document.head, marks.get(document.head)! | 1);
  return marks;
}

/** How often the title holds the term (0: only in the extras). */
export function titleCount(mark: number): number {
  return mark >>> 1;
}

/** BM25's term frequency from a mark: title occurrences (or the one in the extras), plus the head bonus. */
export function termFrequency(mark: number): number {
  const inTitle = mark >>> 1;
  return (inTitle === 0 ? 1 : inTitle) + (mark & 1) * HEAD_BONUS;
}
