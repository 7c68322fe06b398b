// What a route derives from a query string alone (its parameters parsed and
// validated, their canonical form), kept by the query's exact text. A cache hit
// is a query asked again, and deriving it again cost a hit more of the HTTP
// thread than finding its answer did: a static list's parse and canonical key
// were about a third of the hit's JavaScript.

/**
 * Entries per route. A bound, not a working set: a busy storefront repeats a few
 * hundred widget queries, and a flood of distinct ones only recycles the memo.
 * An entry is a few hundred bytes (its query text, parameters, canonical key).
 */
const MAX_ENTRIES = 2_048;

export class QueryMemo<T> {
  private readonly byText = new Map<string, T>();

  /** `derive` must be a pure function of the query text; what it returns is shared, and frozen to keep it so. */
  constructor(private readonly derive: (text: string) => T) {}

  /** A query that fails to derive (invalid parameters) throws every time and is not kept. */
  get(text: string): T {
    const known = this.byText.get(text);
    if (known !== undefined) return known;
    const derived = deepFreeze(this.derive(text));
    // Oldest first, as a Map iterates: a hit is not moved, so finding one stays a single lookup.
    if (this.byText.size >= MAX_ENTRIES) this.byText.delete(this.byText.keys().next().value!);
    this.byText.set(text, derived);
    return derived;
  }

  get size(): number {
    return this.byText.size;
  }
}

/** Frozen all the way down: a handler that changed a shared parameter (sorted a list in place) would change it for every later request. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
