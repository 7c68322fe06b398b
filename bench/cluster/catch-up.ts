// How fast a node catches up with the write stream: a node killed (-9) while
// the others take writes, then started again over its data dir, and a fresh
// node started on an empty dir (it replays the whole stream). Each is timed
// from its spawn to the moment it has applied the stream's end, and beside
// it the same node's start when it has nothing to catch up: the catch-up rate
// is the messages it applied over the difference.
import { performance } from "node:perf_hooks";
import type { AisleNode } from "../shared/aisle-process.js";
import type { CatchUp } from "../shared/results.js";
import { appliedSequence, type ClusterNodes } from "./cluster-nodes.js";

/** A node that has not caught up in this long is reported as such. */
const CATCH_UP_LIMIT_MS = 300_000;

/** Resolves once `origin` has applied `seq`: /healthz with X-Aisle-After-Seq is answered the moment it has (or after 100 ms). */
async function untilApplied(origin: string, seq: number, deadline: number): Promise<void> {
  for (;;) {
    const response = await fetch(`${origin}/healthz`, { headers: { "X-Aisle-After-Seq": String(seq) } });
    const text = await response.text();
    if (response.status !== 200)
      throw new Error(`${origin}/healthz with X-Aisle-After-Seq answered ${response.status}: ${text.slice(0, 200)}`);
    if ((await appliedSequence(origin)) >= seq) return;
    if (performance.now() > deadline) throw new Error(`${origin} did not apply the stream through ${seq} within ${CATCH_UP_LIMIT_MS} ms`);
  }
}

/** Waits until every running node in `origins` has applied `seq`. */
export async function untilAllApplied(origins: readonly string[], seq: number): Promise<void> {
  const deadline = performance.now() + CATCH_UP_LIMIT_MS;
  await Promise.all(origins.map((origin) => untilApplied(origin, seq, deadline)));
}

/**
 * Starts node `index` (over its data dir, or a new empty one) and times it from
 * spawn until it has applied the stream through `streamEnd`; then restarts it,
 * level now, for the start alone.
 */
export async function timeCatchUp(
  nodes: ClusterNodes,
  index: number,
  from: { appliedBefore: number; streamEnd: number; what: CatchUp["what"] },
): Promise<CatchUp> {
  const node: AisleNode = await nodes.start(index);
  // Already level when it first answers: it caught up before listening, and the time is an upper bound.
  const levelAtListen = (await appliedSequence(node.origin)) >= from.streamEnd;
  await untilApplied(node.origin, from.streamEnd, performance.now() + CATCH_UP_LIMIT_MS);
  const caughtUpMs = performance.now() - node.spawnedAt;
  await nodes.kill(index);
  const level = await nodes.start(index);
  const messages = from.streamEnd - from.appliedBefore;
  const applyMs = caughtUpMs - level.coldStartMs;
  return {
    what: from.what,
    messages,
    caughtUpMs,
    levelStartMs: level.coldStartMs,
    messagesPerSec: applyMs > 0 ? messages / (applyMs / 1000) : Number.NaN,
    grossMessagesPerSec: messages / (caughtUpMs / 1000),
    levelAtListen,
  };
}
