// What a route derives from a query string alone (its parameters parsed and
// validated, their canonical form), kept by the query's exact text. A cache hit
// is a query asked again, and deriving it again cost a hit more of the HTTP
// thread than finding its answer did: a static list's parse and canonical key
// were about a third of the hit's JavaScript.

import type { QueryParams } from "../core/params/query.js";

/**
 * What one route's memo may hold, as counted by `weigh` plus ENTRY_OVERHEAD per
 * entry. A bound, not a working set: a busy storefront repeats a few hundred
 * widget queries of a few hundred bytes, and a flood of distinct ones (a junk
 * parameter made random) only recycles the memo.
 */
const MAX_BYTES = 1024 * 1024;

/** A query longer than this is derived afresh every time: a few such queries would fill the memo. */
const MAX_TEXT_LENGTH = 2_048;

/** The Map entry and the derived value's objects, beside what `weigh` counts. */
const ENTRY_OVERHEAD = 300;

export class QueryMemo<T> {
  private readonly byText = new Map<string, { value: T; bytes: number }>();
  private bytes = 0;

  /**
   * `derive` must be a pure function of the query (its text, parsed); what it
   * returns is shared once kept, and frozen then to keep it so. `weigh`: the
   * bytes of a text and its derived value, their strings and arrays
   * (ENTRY_OVERHEAD is added).
   */
  constructor(
    private readonly derive: (query: QueryParams) => T,
    private readonly weigh: (text: string, value: T) => number = (text) => 2 * text.length,
  ) {}

  /**
   * The derived value of the query `text` (`query` parsed), and whether it came from the memo. A query
   * that fails to derive (invalid parameters) throws every time. A derived
   * value is only kept when the caller says so (keep): a query whose answer
   * is not cached gains nothing from it, and a shopper's session or customer
   * id in it is not worth holding.
   */
  get(text: string, query: QueryParams): { value: T; known: boolean } {
    const known = this.byText.get(text);
    if (known !== undefined) return { value: known.value, known: true };
    return { value: this.derive(query), known: false };
  }

  /** Keeps what get() derived for `text`, dropping the oldest entries (as a Map iterates) beyond the bound. */
  keep(text: string, value: T): void {
    if (text.length > MAX_TEXT_LENGTH || this.byText.has(text)) return;
    const bytes = this.weigh(text, value) + ENTRY_OVERHEAD;
    // A hit is not moved: finding one stays a single lookup.
    for (const [oldest, entry] of this.byText) {
      if (this.bytes + bytes <= MAX_BYTES) break;
      this.byText.delete(oldest);
      this.bytes -= entry.bytes;
    }
    // Frozen only once shared: freezing costs each object a change of its hidden class.
    this.byText.set(text, { value: deepFreeze(value), bytes });
    this.bytes += bytes;
  }

  get size(): number {
    return this.byText.size;
  }

  get totalBytes(): number {
    return this.bytes;
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
