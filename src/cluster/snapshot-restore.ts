// A node's start from the cluster's bucket, before its store opens: a node
// whose place is older than the write stream's first message (the messages
// after it aged out) cannot catch up from the stream, so its data dir gets
// the newest snapshot that reaches the stream, and the node consumes on from
// the place that snapshot holds.
//
// A node on an empty data dir is restored from the newest snapshot too, even
// while the stream still holds every message: a copy of a data dir, checked
// file by file, is written in the time it takes to download, where replaying
// the stream applies every write and event ever made again. It replays only
// when the bucket has no snapshot (a new cluster).
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../observability/logger.js";
import { installSnapshot, placeHeldBy } from "../stores/snapshot.js";
import { untilAnswered } from "./servers.js";
import type { SnapshotBucket } from "./snapshot-bucket.js";
import { SnapshotCorrupt, type SnapshotManifest } from "./snapshot-manifest.js";
import { otherStream, type StreamPlace } from "./stream.js";

/**
 * The downloaded files are a store that has applied the stream through the
 * manifest's sequence (the lower of its two environments' places, as the
 * snapshot was taken): the sha256s only show that
 * they are the bytes the manifest lists, and the store they replace is
 * removed for good.
 */
async function checkHoldsItsPlace(incoming: string, { seq, stream }: SnapshotManifest): Promise<void> {
  const held = await placeHeldBy(incoming);
  if (held?.stream !== undefined && held.stream !== stream) throw new SnapshotCorrupt(otherStream(held.stream, stream));
  const holds = held === null ? null : Math.min(held.main, held.log);
  if (holds !== seq) {
    throw new SnapshotCorrupt(
      `the snapshot's store holds the stream through ${holds ?? "nothing (it holds no store)"}, not ${seq} as its manifest says`,
    );
  }
}

/** In the data dir: a snapshot being downloaded, checked before it takes the store's place. */
const INCOMING_DIR = "snapshot-incoming";

/**
 * Restores the newest usable snapshot into `dataDir` when the node needs one,
 * given the first and last sequence the stream holds; throws when it needs
 * one and none can be restored.
 */
export async function restoreIfBehind(
  bucket: SnapshotBucket,
  { firstSeq, lastSeq, created }: StreamPlace,
  dataDir: string,
  log: Logger,
): Promise<void> {
  const held = await placeHeldBy(dataDir);
  // Another cluster's data dir (a wrong AISLE_NATS_URL), or the stream deleted and made anew: a snapshot must not replace it.
  if (held?.stream !== undefined && held.stream !== created) throw new Error(otherStream(held.stream, created));
  const place = held === null ? null : Math.min(held.main, held.log);
  const streamHoldsTheRest = firstSeq <= (place ?? 0) + 1;
  if (place !== null && streamHoldsTheRest) return;
  // A single box's store (it applied nothing of the stream): a snapshot in its place would lose it.
  if (place === 0) {
    throw new Error(
      `the write stream holds messages from ${firstSeq} on, and this data dir holds a store that has applied none of the stream: ` +
        "start the node on an empty data dir, which takes the newest snapshot in the cluster's bucket",
    );
  }
  // A snapshot of another stream (this one was deleted and made anew) holds a place that means nothing here.
  const usable = (await untilAnswered(() => bucket.snapshots(), log)).filter(
    ({ seq, stream }) => stream === created && seq >= firstSeq - 1 && seq > (place ?? 0) && seq <= lastSeq,
  );
  let failure: unknown = null;
  for (const snapshot of usable) {
    const incoming = join(dataDir, INCOMING_DIR);
    const started = performance.now();
    try {
      // A download an earlier start left behind.
      await rm(incoming, { recursive: true, force: true });
      await untilAnswered(() => bucket.download(snapshot, incoming), log);
      await checkHoldsItsPlace(incoming, snapshot);
      installSnapshot(incoming, dataDir);
      log.info("restored a snapshot from the cluster's bucket", {
        id: snapshot.id,
        seq: snapshot.seq,
        node: snapshot.node,
        takenAt: new Date(snapshot.takenAt).toISOString(),
        bytes: snapshot.files.reduce((sum, file) => sum + file.size, 0),
        seconds: Math.round(performance.now() - started) / 1000,
      });
      return;
    } catch (error) {
      failure = error;
      log.warn("a snapshot from the cluster's bucket could not be restored; trying the one before", {
        id: snapshot.id,
        error: String(error),
      });
    } finally {
      await rm(incoming, { recursive: true, force: true });
    }
  }
  if (place === null && streamHoldsTheRest) return;
  throw new Error(
    `the write stream holds messages from ${firstSeq} on, this node has applied ${place === null ? "nothing" : `only through ${place}`}, ` +
      (failure === null
        ? `and the cluster's bucket holds no snapshot from ${firstSeq - 1} on`
        : `and no snapshot in the cluster's bucket from ${firstSeq - 1} on could be restored (${String(failure)})`) +
      ": start the node from a copy of another node's data dir (aisle snapshot)",
  );
}
