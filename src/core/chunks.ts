/** Consecutive runs of `size` items (the last may be shorter), read from `items` only as each run is asked for. */
export function* chunksOf<T>(items: Iterable<T>, size: number): Generator<T[], void, undefined> {
  let chunk: T[] = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
