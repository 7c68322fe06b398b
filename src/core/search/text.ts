// How product text and search queries become index terms. Titles and queries go
// through the same steps, so "18in." in a title and "18 inch" in a query meet at
// the terms "18" and "in".

/** Spellings of units that shoppers and titles use interchangeably, by canonical form. */
const UNIT_SPELLINGS: Record<string, readonly string[]> = {
  in: ["inch", "inches", "inchs"],
  ft: ["feet", "foot", "fts"],
  lb: ["lbs", "pound", "pounds"],
  oz: ["ounce", "ounces"],
  gal: ["gallon", "gallons", "gals"],
  qt: ["quart", "quarts"],
  sq: ["square"],
  cu: ["cubic"],
  yd: ["yard", "yards", "yds"],
  mm: ["millimeter", "millimeters"],
  cm: ["centimeter", "centimeters"],
  volt: ["v", "volts"],
  watt: ["w", "watts"],
  amp: ["amps", "ampere", "amperes"],
  btu: ["btus"],
};

const UNITS = new Map<string, string>();
for (const [canonical, spellings] of Object.entries(UNIT_SPELLINGS)) {
  for (const spelling of spellings) UNITS.set(spelling, canonical);
}

/**
 * Runs of letters, or numbers with their decimal point or fraction bar ("1/2",
 * "2.5"). Letters and digits never share a token, so "18in" is "18 in".
 */
const TOKEN = /\p{L}+|\d+(?:[./]\d+)*/gu;

/** Lower-cased words of a text, units spelled one way, accents dropped; not stemmed. */
export function words(text: string): string[] {
  const plain = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    // A quote after a number is a unit: 3/4" is 3/4 in, 6' is 6 ft.
    .replace(/(\d)\s*(?:"|''|”|″)/g, "$1 in ")
    .replace(/(\d)\s*(?:'|’|′)/g, "$1 ft ")
    // Possessives and contractions are one word: "men's" → "mens".
    .replace(/(\p{L})['’](\p{L})/gu, "$1$2");
  const found = plain.match(TOKEN) ?? [];
  return found.map((word) => UNITS.get(word) ?? word);
}

/**
 * A light plural stemmer: "batteries" → "battery", "benches" → "bench",
 * "lights" → "light", while "glass", "cactus" and "axis" keep their s.
 * Plurals are most of the difference between how titles and queries name a
 * thing; heavier stemming merges words shoppers keep apart ("lighting", "light").
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|xes|zes|sses)$/.test(word)) return word.slice(0, -2);
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

/** Index terms of a text, in order. */
export function terms(text: string): string[] {
  return words(text).map(stem);
}

/**
 * A coarser, Porter-like family of a term ("lighting", "lighted", "light" →
 * "light"): completions of a typed prefix are weighed by family, so one word's
 * many forms do not crowd out the other words the prefix could become.
 */
export function family(term: string): string {
  let root = term;
  if (root.length > 5 && root.endsWith("ing")) root = root.slice(0, -3);
  else if (root.length > 4 && root.endsWith("ed")) root = root.slice(0, -2);
  else if (root.length > 4 && root.endsWith("er")) root = root.slice(0, -2);
  if (root.length > 3 && root.endsWith("e")) root = root.slice(0, -1);
  return root;
}

export function hasDigit(word: string): boolean {
  return /\d/.test(word);
}

/** Words that join a title's head noun to its details ("Faucet in Chrome", "Saw with Blade"). */
const HEAD_BREAKS = new Set(["in", "with", "for", "and", "by", "of", "on", "to", "w", "includes", "including"]);

/**
 * The head of a product title: its last word of letters before the first
 * break ("…Shower Faucet Trim Kit in Chrome" → "kit"). Shoppers name the kind of
 * product, and the head says which kind a title is, unlike its modifiers.
 */
export function headTerm(title: string): string | null {
  const cut = title.split(/[(,;|]|\s[-–]\s/)[0] ?? title;
  let head: string | null = null;
  let previous = "";
  for (const word of words(cut)) {
    const afterNumber = hasDigit(previous);
    previous = word;
    // "in" after a number is a unit ("18 in. Bit"), not the break of "Faucet in Chrome".
    if (HEAD_BREAKS.has(word) && !(afterNumber && UNIT_CANONICALS.has(word))) {
      if (head !== null) break;
      continue;
    }
    if (!hasDigit(word) && word.length >= 3 && !UNIT_CANONICALS.has(word)) head = stem(word);
  }
  return head;
}

const UNIT_CANONICALS = new Set(Object.keys(UNIT_SPELLINGS));
