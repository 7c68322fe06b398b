// Typo candidates by deletion neighbourhood: a term is filed under its first
// letter followed by each string its remaining letters leave after deleting up
// to two of them; a word looks up the same keys of its own. Two strings that
// share their first letter and are within d edits (insertions, deletions,
// substitutions, swaps of neighbours) of each other share a key with at most d
// deletions on each side, so a lookup finds every candidate, and the edit
// distance decides among them. Only terms sharing the word's first letter are
// candidates (first letters are rarely mistyped), which also keeps the keys
// per term down.
/** Terms and words longer than this are never typo candidates: boundedEditDistance matches them only exactly. */
const MAX_TYPO_LENGTH = 62;

/**
 * Deletions a term is filed under. A word forgiven two edits is the stem of
 * one of 8 letters or more, so at least 6 long; a term needs two deletions of
 * its own only when both edits change or add its letters, so it is at least
 * that long too. One deletion is enough for shorter terms.
 */
function termDeletions(term: string): number {
  return term.length >= 6 ? 2 : 1;
}

/** The keys a term is filed under (none when too long to match). */
export function termTypoKeys(term: string): string[] {
  if (term.length === 0 || term.length > MAX_TYPO_LENGTH) return [];
  return deletionKeys(term, termDeletions(term));
}

/** The keys a word within `maxEdits` of some terms shares with them (none when too long to match). */
export function wordTypoKeys(word: string, maxEdits: number): string[] {
  if (word.length === 0 || word.length > MAX_TYPO_LENGTH) return [];
  return deletionKeys(word, maxEdits);
}

function deletionKeys(text: string, deletions: number): string[] {
  const first = text[0]!;
  const found = new Set<string>([text.slice(1)]);
  let frontier = [text.slice(1)];
  for (let round = 0; round < deletions; round++) {
    const next: string[] = [];
    for (const rest of frontier) {
      for (let i = 0; i < rest.length; i++) {
        const shorter = rest.slice(0, i) + rest.slice(i + 1);
        if (found.has(shorter)) continue;
        found.add(shorter);
        next.push(shorter);
      }
    }
    frontier = next;
  }
  return [...found].map((rest) => first + rest);
}
