// Completions of the word being typed: the terms in use that start with it,
// most frequent first, ties alphabetical. For prefixes of up to
// LISTED_PREFIX_LENGTH characters (thousands of terms each in a big shop) the
// index keeps each prefix's top COMPLETION_LIST_LENGTH terms as a list that
// every df change of a term patches; longer prefixes span few terms and are
// read as a range of the term dictionary.

export interface Completion {
  term: string;
  df: number;
}

/** Prefixes this long or shorter have a stored list. */
export const LISTED_PREFIX_LENGTH = 4;

/** The completions a query plan asks for (DEFAULT_RANKING.completions), plus the prefix itself when it is a term. */
export const COMPLETION_LIST_LENGTH = 13;

/** Whether `a` comes before `b`: more frequent, then alphabetically first. */
function comesBefore(a: Completion, b: Completion): boolean {
  return a.df > b.df || (a.df === b.df && a.term < b.term);
}

function inserted(list: readonly Completion[], entry: Completion): Completion[] {
  const at = list.findIndex((other) => comesBefore(entry, other));
  return at === -1 ? [...list, entry] : [...list.slice(0, at), entry, ...list.slice(at)];
}

/**
 * A prefix's list after `term` took document frequency `df` (0: no longer in
 * use). The list must be its prefix's first COMPLETION_LIST_LENGTH terms (all
 * of them when fewer), which the answer is too; null when that takes terms
 * the list does not hold (one of a full list's terms fell to its end or went
 * away): the caller reads the prefix's terms again (topCompletions). Whatever
 * order a batch of changes is applied in, the result is the same list.
 */
export function updatedCompletions(list: readonly Completion[], term: string, df: number): readonly Completion[] | null {
  const full = list.length === COMPLETION_LIST_LENGTH;
  const at = list.findIndex((entry) => entry.term === term);
  if (at === -1) {
    if (df === 0) return list;
    const entry = { term, df };
    if (!full) return inserted(list, entry);
    return comesBefore(entry, list[list.length - 1]!) ? inserted(list, entry).slice(0, COMPLETION_LIST_LENGTH) : list;
  }
  const stored = list[at]!.df;
  if (stored === df) return list;
  const rest = [...list.slice(0, at), ...list.slice(at + 1)];
  if (df === 0) return full ? null : rest;
  const updated = inserted(rest, { term, df });
  // A term that fell to the end may have fallen behind one the list does not hold.
  if (full && df < stored && updated[updated.length - 1]!.term === term) return null;
  return updated;
}

/** The first `max` of these, in completion order. */
export function topCompletions(entries: Iterable<Completion>, max: number): Completion[] {
  const best: Completion[] = [];
  for (const entry of entries) {
    if (best.length === max && !comesBefore(entry, best[max - 1]!)) continue;
    let at = best.length === max ? max - 1 : best.length;
    while (at > 0 && comesBefore(entry, best[at - 1]!)) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = entry;
  }
  return best;
}

/** The prefixes of a term that have lists, each a whole string (never half of a surrogate pair). */
export function listedPrefixes(term: string): string[] {
  const prefixes: string[] = [];
  for (let length = 1; length <= Math.min(LISTED_PREFIX_LENGTH, term.length); length++) {
    const last = term.charCodeAt(length - 1);
    if (last >= 0xd800 && last <= 0xdbff) continue;
    prefixes.push(term.slice(0, length));
  }
  return prefixes;
}
