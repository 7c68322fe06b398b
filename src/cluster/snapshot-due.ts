// When a node writes a snapshot to the cluster's bucket. One node's snapshot
// serves every node, so each node looks at the bucket now and then, at random
// moments, and writes only when the newest snapshot there is a period old:
// the first node to look after that writes it, and the others find it there.
// Two that look while one is uploading both write, which costs a duplicate
// the next pruning removes.
import type { SnapshotManifest } from "./snapshot-manifest.js";

/** A node looks at the bucket on average this often (each look at a random moment from half of it to one and a half). */
export const LOOK_EVERY_MS = 600_000;
/**
 * The first look after a start, and the next after a look that failed (e.g.
 * JetStream unavailable for a while): soon, so that a cluster whose bucket is
 * empty (or new) gets a snapshot without waiting a period.
 */
export const SOON_MS = 15_000;

/**
 * Whether a node that has applied the stream through `applied` should write
 * a snapshot now: when the bucket has none younger than `periodMs`, and the
 * node holds something the newest one does not (otherwise it would write the
 * same state again, or an older one).
 */
export function snapshotDue(
  snapshots: readonly Pick<SnapshotManifest, "seq" | "takenAt">[],
  applied: number,
  now: number,
  periodMs: number,
): boolean {
  const highestSeq = Math.max(0, ...snapshots.map(({ seq }) => seq));
  if (applied <= highestSeq) return false;
  const newestAt = Math.max(Number.NEGATIVE_INFINITY, ...snapshots.map(({ takenAt }) => takenAt));
  return now - newestAt >= periodMs;
}

/** How long until the next look: `averageMs` spread at random from half of it to one and a half, so that nodes look apart. */
export function nextLookInMs(averageMs: number, random: () => number = Math.random): number {
  return Math.round(averageMs * (0.5 + random()));
}
