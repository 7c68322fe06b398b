// Growing typed arrays: the typed-array builders (list pools, behaviour groups)
// double their capacity by copying into a new array of the same kind.

type Growable = Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer> | Uint8Array<ArrayBuffer>;

/** A copy of `values` with room for `capacity` elements (the rest zero). */
export function grownTo<T extends Growable>(values: T, capacity: number): T {
  const copy = new (values.constructor as new (length: number) => T)(capacity);
  copy.set(values);
  return copy;
}
