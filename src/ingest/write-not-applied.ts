/**
 * A cluster write the stream acknowledged that this node has not applied in
 * time (its delivery is slow: a stream server lost, a new leader being
 * elected). It is stored and will be applied. Most routes answer it as a
 * moment of overload, to retry shortly: a retried upsert changes nothing, but
 * a retried creation is refused as a conflict and a retried delete answers
 * 404 once the first copy is applied. A merchant's creation answers its keys
 * instead, which a retry could never give again.
 */
export class WriteNotApplied extends Error {
  constructor(
    readonly seq: number,
    waitedMs: number,
  ) {
    super(`The write is in the stream (sequence ${seq}) but this node has not applied it within ${waitedMs} ms; it will be: retry shortly`);
  }
}
