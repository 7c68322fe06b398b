/**
 * A write the stream acknowledged that this node has not applied in time (its
 * delivery is slow: a stream server lost, a new leader being elected). It is
 * stored and will be applied; the client is answered as for any moment of
 * overload, to retry shortly. A retry publishes it again: writes are upserts
 * or creations, so a second copy changes nothing or is refused as a conflict.
 */
export class WriteNotApplied extends Error {
  constructor(
    readonly seq: number,
    waitedMs: number,
  ) {
    super(`The write is in the stream (sequence ${seq}) but this node has not applied it within ${waitedMs} ms; it will be: retry shortly`);
  }
}
