// A node's share in keeping the cluster's snapshots: now and then it looks at
// the bucket and, when a snapshot is due (snapshot-due.ts), copies its data
// dir (`aisle snapshot`'s copy: LMDB's own, which neither the HTTP thread nor
// the applier waits for), uploads the copy a chunk at a time, and deletes all
// but the newest few snapshots.
import { rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import type { Logger } from "../observability/logger.js";
import { writeSnapshot } from "../stores/snapshot.js";
import type { SnapshotBucket } from "./snapshot-bucket.js";
import { LOOK_EVERY_MS, nextLookInMs, snapshotDue, SOON_MS } from "./snapshot-due.js";
import type { SnapshotManifest } from "./snapshot-manifest.js";

/** Snapshots the bucket keeps: the one before the newest still starts a node should the newest turn out unreadable. */
const SNAPSHOTS_KEPT = 2;
/** In the data dir: the copy being uploaded (on the data dir's disk, which has room for a copy of it; a temp dir may be memory). */
const OUTGOING_DIR = "snapshot-outgoing";

export class SnapshotKeeper {
  private timer: NodeJS.Timeout | null = null;
  private looking: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly node = `${hostname()}:${process.pid}`;

  constructor(
    private readonly bucket: SnapshotBucket,
    private readonly dataDir: string,
    /** The write stream's creation time: the snapshots this node writes, counts as due and prunes are of it. */
    private readonly stream: string,
    private readonly periodMs: number,
    /** The last stream sequence this node has applied. */
    private readonly applied: () => number,
    private readonly log: Logger,
  ) {
    // A copy left by a run that stopped while uploading it.
    rmSync(join(dataDir, OUTGOING_DIR), { recursive: true, force: true });
    this.lookIn(nextLookInMs(SOON_MS));
  }

  /** Stops looking; resolves once a look under way has ended (an upload fails at its next chunk, and deletes what it sent). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.looking;
  }

  private lookIn(ms: number): void {
    this.timer = setTimeout(() => {
      this.looking = this.look().then((looked) => {
        if (!this.closed) this.lookIn(nextLookInMs(looked ? LOOK_EVERY_MS : SOON_MS));
      });
    }, ms);
    this.timer.unref();
  }

  /** Writes a snapshot if one is due; false when the look failed. */
  private async look(): Promise<boolean> {
    try {
      const ofThisStream = (await this.bucket.snapshots()).filter((snapshot) => snapshot.stream === this.stream);
      if (!snapshotDue(ofThisStream, this.applied(), Date.now(), this.periodMs)) return true;
      const started = performance.now();
      const manifest = await this.write();
      this.log.info("wrote a snapshot to the cluster's bucket", {
        id: manifest.id,
        seq: manifest.seq,
        bytes: manifest.files.reduce((sum, file) => sum + file.size, 0),
        seconds: Math.round(performance.now() - started) / 1000,
      });
      await this.bucket.prune(SNAPSHOTS_KEPT, this.stream);
      return true;
    } catch (error) {
      if (!this.closed) this.log.warn("writing a snapshot to the cluster's bucket failed; looking again soon", { error: String(error) });
      return false;
    }
  }

  private async write(): Promise<SnapshotManifest> {
    const dir = join(this.dataDir, OUTGOING_DIR);
    const takenAt = Date.now();
    try {
      const place = await writeSnapshot(this.dataDir, dir);
      const seq = Math.min(place.main, place.log);
      return await this.bucket.upload({ dir, seq, stream: this.stream, node: this.node, takenAt }, () => this.closed);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
