// A cluster node's snapshots in the cluster's bucket, on a connection of their
// own: before the node's store opens, the restore of one when the stream no
// longer holds what the node needs (snapshot-restore.ts); once the node
// applies the stream, its share in writing them (snapshot-keeper.ts).
import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "../observability/logger.js";
import { SnapshotBucket } from "./snapshot-bucket.js";
import { SnapshotKeeper } from "./snapshot-keeper.js";
import { restoreIfBehind } from "./snapshot-restore.js";
import { API_TIMEOUT_MS, connectToServers, untilAnswered } from "./servers.js";
import { ensureStream } from "./stream.js";

export interface SnapshotSettings {
  /** nats:// URLs of the servers, comma-separated. */
  urls: string;
  /** The bucket's replicas, as the write stream's. */
  replicas: number;
  /** The write stream's retention, for its settings should this node be the one to create it. */
  retentionDays: number;
  /** A snapshot is written when the newest in the bucket is this old. */
  everyMs: number;
}

export class ClusterSnapshots {
  private keeper: SnapshotKeeper | null = null;
  /** The write stream's creation time, as restoreIfBehind found it. */
  private stream: string | null = null;

  private constructor(
    private readonly connection: NatsConnection,
    private readonly bucket: SnapshotBucket,
    private readonly settings: SnapshotSettings,
    private readonly log: Logger,
  ) {}

  /** Connects and opens the bucket (creating it on a new cluster), asking again while JetStream does not answer yet. */
  static async open(settings: SnapshotSettings, log: Logger): Promise<ClusterSnapshots> {
    const connection = await connectToServers(settings.urls);
    try {
      const bucket = await untilAnswered(() => SnapshotBucket.open(connection, settings.replicas), log);
      return new ClusterSnapshots(connection, bucket, settings, log);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  /** Before the node's store opens: restores a snapshot into `dataDir` when the node needs one to catch up (snapshot-restore.ts). */
  async restoreIfBehind(dataDir: string): Promise<void> {
    const manager = await jetstreamManager(this.connection, { timeout: API_TIMEOUT_MS, checkAPI: false });
    const stream = await untilAnswered(() => ensureStream(manager, this.settings.replicas, this.settings.retentionDays), this.log);
    this.stream = stream.created;
    await restoreIfBehind(this.bucket, stream, dataDir, this.log);
  }

  /** Starts this node's share in writing snapshots of `dataDir`; `applied` is the node's place in the stream. */
  keep(dataDir: string, applied: () => number): void {
    if (this.stream === null) throw new Error("ClusterSnapshots.keep before restoreIfBehind: the write stream is not known yet");
    this.keeper = new SnapshotKeeper(this.bucket, dataDir, this.stream, this.settings.everyMs, applied, this.log);
  }

  /** Stops writing snapshots, then closes the connection: an upload under way deletes what it sent while it still can. */
  async close(): Promise<void> {
    await this.keeper?.close();
    await this.connection.close();
  }
}
