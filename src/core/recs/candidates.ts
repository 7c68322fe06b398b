/**
 * Candidate lists in priority order, each computed only when the lists before
 * it ran out of eligible products: fallbacks cost nothing when they are not needed.
 */
export function* chainCandidates(...lists: (() => Iterable<number>)[]): Generator<number> {
  for (const list of lists) yield* list();
}
