/**
 * Candidate lists in priority order, consumed lazily: a fallback list is only
 * walked when the lists before it ran out of eligible products.
 */
export function* chainCandidates(...lists: Iterable<number>[]): Generator<number> {
  for (const list of lists) yield* list;
}
