// Typo tolerance: how many edits a word may carry, and a bounded edit distance.

/** Edits forgiven in a word of this length: none below 4 characters, one from 4, two from 8. */
export function editBudget(length: number): number {
  if (length >= 8) return 2;
  if (length >= 4) return 1;
  return 0;
}

const rowA = new Int32Array(64);
const rowB = new Int32Array(64);
const rowC = new Int32Array(64);

/**
 * Optimal-string-alignment distance (insert, delete, substitute, swap two
 * neighbours) between a and b, or max + 1 as soon as it must exceed max. The
 * early exit keeps a scan over thousands of vocabulary terms in microseconds.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (n >= 63 || m >= 63) return a === b ? 0 : max + 1;
  // Three rows: two back for transpositions, one back, and the current.
  let before = rowA;
  let previous = rowB;
  let current = rowC;
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    const spare = before;
    before = previous;
    previous = current;
    current = spare;
  }
  return Math.min(previous[m]!, max + 1);
}
