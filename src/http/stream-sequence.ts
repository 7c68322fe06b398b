// Cluster mode's freshness headers. A write's answer names the stream sequence
// the write was given (X-Aisle-Seq); a read that sends it back
// (X-Aisle-After-Seq) waits a little for this node to have applied it.
import { ApiError } from "../errors.js";
import { WriteNotApplied } from "../ingest/write-not-applied.js";
import type { Reply } from "./respond.js";

export const AFTER_SEQ_HEADER = "x-aisle-after-seq";

/** The answer with the write's stream sequence; unchanged on a single box (no sequence). */
export function withSeq(reply: Reply, seq: number | null | undefined): Reply {
  if (seq === null || seq === undefined) return reply;
  return { ...reply, headers: { ...reply.headers, "X-Aisle-Seq": String(seq) } };
}

/**
 * The sequence of a write that failed only in that this node has not applied
 * it in time: it is stored in the stream and will be, so its 503 names the
 * sequence too, and a read sent with X-Aisle-After-Seq waits up to 100 ms for it.
 */
export function seqOfFailure(error: unknown): number | null {
  return error instanceof WriteNotApplied ? error.seq : null;
}

/** The sequence X-Aisle-After-Seq names; a 400 for anything but a whole number. */
export function parseAfterSeq(raw: string): number {
  const seq = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(seq)) throw new ApiError("invalid_params", `Invalid X-Aisle-After-Seq: "${raw}" is not a stream sequence`);
  return seq;
}
