// The cluster's snapshots, kept in JetStream itself (an Object Store bucket,
// replicated as the write stream is), so that the catalogue outlives the
// stream's retention without an operator copying a data dir: a node whose
// place is older than the stream's first message starts from one.
//
// A snapshot is two objects: "<id>.data", the data dir's files one after
// another, and "<id>.manifest" (snapshot-manifest.ts), written once the data
// is complete. One object for the files, not one each, keeps a snapshot's
// objects (and the markers a deleted object leaves) at two however many
// model files a data dir holds.
//
// On nats-server 2.9 the bucket has neither compression nor bucket metadata
// (both 2.10) nor batched publishes (the client sends chunks one publish at a
// time, each acknowledged): none of them is used.
import { jetstream } from "@nats-io/jetstream";
import { Objm, setSha256Backend, StorageType, type ObjectStore } from "@nats-io/obj";
import type { NatsConnection } from "@nats-io/transport-node";
import { randomBytes } from "node:crypto";
import { createReadStream, readdirSync } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import { dirname, join } from "node:path";
import { API_TIMEOUT_MS } from "./servers.js";
import {
  checkFile,
  FileDigest,
  MANIFEST_FORMAT,
  parseManifest,
  SnapshotCorrupt,
  type SnapshotFile,
  type SnapshotManifest,
} from "./snapshot-manifest.js";

export const SNAPSHOT_BUCKET = "AISLE_SNAPSHOTS";

// The client hashes every chunk it sends and receives: in pure JS by default,
// which on the HTTP thread costs several times what Node's own sha256 does.
setSha256Backend("native");

/** What a snapshot is taken of: where its files are, and what the manifest says of it. */
export interface SnapshotSource {
  dir: string;
  seq: number;
  /** The write stream's creation time (SnapshotManifest.stream). */
  stream: string;
  node: string;
  takenAt: number;
}

const dataObject = (id: string) => `${id}.data`;
const manifestObject = (id: string) => `${id}.manifest`;
const MANIFEST_SUFFIX = ".manifest";

export class SnapshotBucket {
  private constructor(private readonly objects: ObjectStore) {}

  /** Opens the bucket, creating it with `replicas` replicas on file storage when the cluster has none yet. */
  static async open(connection: NatsConnection, replicas: number): Promise<SnapshotBucket> {
    const objects = await new Objm(jetstream(connection, { timeout: API_TIMEOUT_MS })).create(SNAPSHOT_BUCKET, {
      description: "aisle data dir snapshots: a node whose place the write stream no longer holds starts from one",
      storage: StorageType.File,
      replicas,
    });
    return new SnapshotBucket(objects);
  }

  /**
   * The complete snapshots this build can restore, the one with the highest
   * sequence first (of two at one sequence, the later taken). A manifest this
   * build cannot read is left out (and left in the bucket: a newer build may).
   */
  async snapshots(): Promise<SnapshotManifest[]> {
    const manifests: SnapshotManifest[] = [];
    for (const info of await this.objects.list()) {
      if (!info.name.endsWith(MANIFEST_SUFFIX)) continue;
      const bytes = await this.objects.getBlob(info.name);
      if (bytes === null) continue;
      try {
        manifests.push(parseManifest(bytes));
      } catch (error) {
        if (!(error instanceof SnapshotCorrupt)) throw error;
      }
    }
    return manifests.sort((a, b) => b.seq - a.seq || b.takenAt - a.takenAt);
  }

  /**
   * Uploads the files of `source.dir` (streamed, each hashed on the way),
   * then their manifest; resolves with it. Once `stopping()` is true the
   * upload fails at its next chunk, and the chunks sent so far are deleted
   * (the connection must stay open until it has failed: a chunk left behind
   * belongs to no object, and no pruning finds it).
   */
  async upload(source: SnapshotSource, stopping: () => boolean = () => false): Promise<SnapshotManifest> {
    const id = `${new Date(source.takenAt).toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}`;
    const files: SnapshotFile[] = [];
    async function* contents(): AsyncGenerator<Uint8Array> {
      for (const path of filesUnder(source.dir)) {
        const digest = new FileDigest();
        for await (const chunk of createReadStream(join(source.dir, path))) {
          if (stopping()) throw new Error("the snapshot's upload was stopped: the node is shutting down");
          digest.update(chunk as Buffer);
          yield chunk as Buffer;
        }
        files.push(digest.entry(path));
      }
    }
    await this.objects.put({ name: dataObject(id) }, readableOf(contents()), { timeout: API_TIMEOUT_MS });
    const manifest: SnapshotManifest = {
      format: MANIFEST_FORMAT,
      id,
      seq: source.seq,
      stream: source.stream,
      takenAt: source.takenAt,
      node: source.node,
      files,
    };
    await this.objects.putBlob({ name: manifestObject(id) }, new TextEncoder().encode(JSON.stringify(manifest)), {
      timeout: API_TIMEOUT_MS,
    });
    return manifest;
  }

  /**
   * Writes the snapshot's files into `dir` (each synced to disk), checking
   * each against the manifest as it is written: throws SnapshotCorrupt at the
   * first that differs, or when the data is longer or shorter than the
   * manifest says.
   */
  async download(manifest: SnapshotManifest, dir: string): Promise<void> {
    const result = await this.objects.get(dataObject(manifest.id));
    if (result === null) throw new SnapshotCorrupt(`snapshot ${manifest.id} has a manifest but no data in the bucket`);
    // Observed from the start: should the read fail first, a rejection left unobserved would end the process, not this try.
    const ended = result.error.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    const reader = result.data.getReader();
    try {
      let pending: Uint8Array = new Uint8Array(0);
      for (const file of manifest.files) {
        await mkdir(dirname(join(dir, file.path)), { recursive: true });
        // Owner only: among the files is the admin token, and the data dir holds every merchant's keys.
        const handle = await open(join(dir, file.path), "w", 0o600);
        try {
          const digest = new FileDigest();
          for (let left = file.size; left > 0;) {
            if (pending.length === 0) {
              const next = await reader.read();
              if (next.done) throw new SnapshotCorrupt(`snapshot ${manifest.id}'s data ends inside ${file.path}`);
              pending = next.value;
            }
            const part = pending.subarray(0, left);
            pending = pending.subarray(part.length);
            digest.update(part);
            await handle.write(part);
            left -= part.length;
          }
          checkFile(file, digest);
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
      if (pending.length > 0 || !(await reader.read()).done) {
        throw new SnapshotCorrupt(`snapshot ${manifest.id}'s data is longer than its manifest says`);
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
    const failed = await ended;
    if (failed) throw failed;
  }

  /**
   * Deletes all but the first `kept` snapshots of `stream` (as snapshots()
   * orders them), and every snapshot of another stream (one deleted and made
   * anew: its sequences mean nothing now); each manifest first, so that no
   * node starts restoring what is being deleted.
   */
  async prune(kept: number, stream: string): Promise<void> {
    const all = await this.snapshots();
    const stale = [
      ...all.filter((snapshot) => snapshot.stream === stream).slice(kept),
      ...all.filter((snapshot) => snapshot.stream !== stream),
    ];
    for (const old of stale) {
      await this.objects.delete(manifestObject(old.id));
      await this.objects.delete(dataObject(old.id));
    }
  }
}

/**
 * The files under `dir`, relative to it with "/" between parts, in a stable
 * order. LMDB's lock files are left out: they hold the readers of a running
 * process, and each start makes its own.
 */
function filesUnder(dir: string): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(join(dir, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return entry.isFile() && !entry.name.endsWith("-lock") ? [path] : [];
    });
  return walk("").sort();
}

/** A web stream of what `chunks` yields, read as the client asks for more. */
function readableOf(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
