// Query strings, read on every request. Most are plain `name=value&…` pairs
// with nothing escaped; those are split directly, which costs a fraction of
// URLSearchParams. Anything with an escape ('%' or '+') or a leading '?' goes to
// URLSearchParams itself, so decoding rules (lenient percent-decoding, '+' as
// a space) are the standard's in every case.

/** What handlers read from a query string: the first value of a name, or null. URLSearchParams is one. */
export interface QueryParams {
  get(name: string): string | null;
}

class PlainQuery implements QueryParams {
  constructor(private readonly values: ReadonlyMap<string, string>) {}

  get(name: string): string | null {
    return this.values.get(name) ?? null;
  }
}

const EMPTY_QUERY: QueryParams = new PlainQuery(new Map());

/** Parses a query string (without the leading '?') as URLSearchParams would. */
export function parseQuery(raw: string): QueryParams {
  if (raw === "") return EMPTY_QUERY;
  // URLSearchParams also drops one leading '?' (a URL like `/path??a`).
  if (raw.includes("%") || raw.includes("+") || raw.startsWith("?")) return new URLSearchParams(raw);
  const values = new Map<string, string>();
  let start = 0;
  while (start <= raw.length) {
    let end = raw.indexOf("&", start);
    if (end === -1) end = raw.length;
    if (end > start) {
      const equals = raw.indexOf("=", start);
      const hasValue = equals !== -1 && equals < end;
      const name = raw.slice(start, hasValue ? equals : end);
      // The first value wins, as URLSearchParams.get returns it.
      if (!values.has(name)) values.set(name, hasValue ? raw.slice(equals + 1, end) : "");
    }
    start = end + 1;
  }
  return new PlainQuery(values);
}
