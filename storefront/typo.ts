// Typo tolerance, made visible: when aisle found products for a misspelt word,
// the box says what it searched for ("Showing results for lantern").

/** Words as aisle compares them: lower case, without accents, letters and digits. */
function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/** The edits aisle forgives in a word of this length: none below 4 letters, one from 4, two from 8. */
function editBudget(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/** Edits (insert, delete, substitute, swap two neighbours) from a to b. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The query as the found products spell it: each word no title holds (as a
 * word, or a word's beginning for the word being typed) replaced by the
 * closest title word within aisle's budget. null when no word needed that.
 */
export function correctedQuery(query: string, titles: readonly string[]): string | null {
  const typed = words(query);
  const vocabulary = [...new Set(titles.flatMap(words))];
  let corrected = false;
  const result = typed.map((word, i) => {
    const typing = i === typed.length - 1 && !/\s$/.test(query);
    if (vocabulary.some((known) => known === word || (typing && known.startsWith(word)))) return word;
    const budget = editBudget(word.length);
    let closest: { word: string; edits: number } | null = null;
    for (const known of vocabulary) {
      if (Math.abs(known.length - word.length) > budget) continue;
      const edits = editDistance(word, known);
      if (edits <= budget && (closest === null || edits < closest.edits)) closest = { word: known, edits };
    }
    if (closest === null) return word;
    corrected = true;
    return closest.word;
  });
  return corrected ? result.join(" ") : null;
}
