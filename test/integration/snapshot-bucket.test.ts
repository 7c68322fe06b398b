// The cluster's snapshot bucket on a real nats-server (one, 2.9): a data dir's
// files go up as one object with a manifest written after it, come back down
// byte for byte, and are refused when the object is not the one its manifest
// describes; pruning keeps the newest; a restore takes only a store that
// holds the sequence its manifest names.
import { jetstreamManager } from "@nats-io/jetstream";
import { Objm } from "@nats-io/obj";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SNAPSHOT_BUCKET, SnapshotBucket } from "../../src/cluster/snapshot-bucket.js";
import { SnapshotCorrupt } from "../../src/cluster/snapshot-manifest.js";
import { restoreIfBehind } from "../../src/cluster/snapshot-restore.js";
import { jsonLogger } from "../../src/observability/logger.js";
import { placeHeldBy } from "../../src/stores/snapshot.js";
import { Store } from "../../src/stores/store.js";
import { startNatsCluster, type NatsCluster } from "../helpers/nats-cluster.js";
import { eventually } from "../helpers/service.js";

let nats: NatsCluster;
let connection: NatsConnection;
let bucket: SnapshotBucket;
let dirs: string;

beforeAll(async () => {
  nats = await startNatsCluster(1);
  connection = await connect({ servers: nats.urls });
  bucket = await SnapshotBucket.open(connection, 1);
  dirs = mkdtempSync(join(tmpdir(), "aisle-snapshot-bucket-"));
}, 60_000);

afterAll(async () => {
  await connection?.close();
  await nats?.stop();
  if (dirs) rmSync(dirs, { recursive: true, force: true });
});

/** A data dir's kind of files: environments larger than one chunk of the bucket (128 KB), a model in a folder, a lock file. */
const FILES: Record<string, Buffer> = {
  "aisle.lmdb": randomBytes(300_000),
  "events.lmdb": randomBytes(140_000),
  "models/north/encoder.onnx": randomBytes(5_000),
  "admin-token": Buffer.from("adm_token\n"),
};

function dataDir(name: string): string {
  const dir = join(dirs, name);
  for (const [path, bytes] of Object.entries(FILES)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  writeFileSync(join(dir, "aisle.lmdb-lock"), "readers");
  return dir;
}

/** The write stream the snapshots are of (its creation time), and one deleted and made anew since. */
const STREAM = "2026-11-26T10:00:00.000000000Z";
const REMADE_STREAM = "2026-11-26T11:00:00.000000000Z";

const upload = (name: string, seq: number, takenAt = Date.now()) =>
  bucket.upload({ dir: dataDir(name), seq, stream: STREAM, node: "test", takenAt });

describe("the snapshot bucket", () => {
  it("uploads a data dir's files with their manifest, and downloads them byte for byte", async () => {
    const manifest = await upload("up", 41);
    expect(manifest.seq).toBe(41);
    // LMDB's lock file stays behind.
    expect(manifest.files.map((file) => file.path)).toEqual(["admin-token", "aisle.lmdb", "events.lmdb", "models/north/encoder.onnx"]);
    expect(manifest.files.find((file) => file.path === "aisle.lmdb")!.size).toBe(300_000);
    expect((await bucket.snapshots()).map((snapshot) => snapshot.id)).toContain(manifest.id);

    const into = join(dirs, "down");
    await bucket.download(manifest, into);
    for (const [path, bytes] of Object.entries(FILES)) expect(readFileSync(join(into, path)).equals(bytes)).toBe(true);
  });

  it("refuses a data object that is not the one its manifest describes, or that is cut short", async () => {
    const manifest = await upload("corrupt", 42);
    const objects = await new Objm(connection).open(SNAPSHOT_BUCKET);
    // One byte of the main environment flipped: the object's own digest is right (it was put whole), the manifest's is not.
    const flipped = Buffer.concat(manifest.files.map((file) => FILES[file.path]!));
    flipped[FILES["admin-token"]!.length + 1_000]! ^= 1;
    await objects.putBlob({ name: `${manifest.id}.data` }, flipped);
    await expect(bucket.download(manifest, join(dirs, "corrupt-down"))).rejects.toThrow(/aisle\.lmdb does not match its manifest/);

    await objects.putBlob({ name: `${manifest.id}.data` }, flipped.subarray(0, 200_000));
    const short: unknown = await bucket.download(manifest, join(dirs, "short-down")).catch((error: unknown) => error);
    expect(short).toBeInstanceOf(SnapshotCorrupt);
    expect(String(short)).toMatch(/ends inside aisle\.lmdb/);
  });

  it("lists the highest sequence first and prunes all but the newest", async () => {
    const now = Date.now();
    const older = await upload("older", 50, now - 1_000);
    const newer = await upload("newer", 60, now);
    const behind = await upload("behind", 55, now + 1_000);
    const listed = (await bucket.snapshots()).map((snapshot) => snapshot.id);
    expect(listed.slice(0, 3)).toEqual([newer.id, behind.id, older.id]);

    await bucket.prune(2, STREAM);
    expect((await bucket.snapshots()).map((snapshot) => snapshot.id)).toEqual([newer.id, behind.id]);
    // A pruned snapshot's data is gone with it.
    const objects = await new Objm(connection).open(SNAPSHOT_BUCKET);
    expect(await objects.info(`${older.id}.data`)).toMatchObject({ deleted: true });
  });

  it("restores only a snapshot whose store holds the sequence its manifest names", async () => {
    // The random bytes above are no store: LMDB cannot open them, so the bucket starts empty here.
    await bucket.prune(0, STREAM);
    const source = join(dirs, "real-store");
    const store = Store.open(source);
    store.streamWatermarks.noteMain(30);
    await store.streamWatermarks.noteLog(30);
    await store.close();
    const log = jsonLogger("silent");
    const target = join(dirs, "restore-target");
    mkdirSync(target);

    // The files are the ones the manifest lists (their sha256s match), but not at the sequence it names.
    await bucket.upload({ dir: source, seq: 41, stream: STREAM, node: "test", takenAt: Date.now() });
    await expect(restoreIfBehind(bucket, { firstSeq: 10, lastSeq: 100, created: STREAM }, target, log)).rejects.toThrow(
      /holds the stream through 30, not 41/,
    );
    expect(readdirSync(target)).toEqual([]);

    // A snapshot of the stream as it was before it was made anew: its place means nothing in the new one.
    await bucket.prune(0, STREAM);
    await bucket.upload({ dir: source, seq: 30, stream: STREAM, node: "test", takenAt: Date.now() });
    await expect(restoreIfBehind(bucket, { firstSeq: 10, lastSeq: 100, created: REMADE_STREAM }, target, log)).rejects.toThrow(
      /holds no snapshot/,
    );
    expect(readdirSync(target)).toEqual([]);
    // And the new stream's pruning deletes it.
    await bucket.prune(2, REMADE_STREAM);
    expect(await bucket.snapshots()).toEqual([]);

    await bucket.prune(0, STREAM);
    await bucket.upload({ dir: source, seq: 30, stream: STREAM, node: "test", takenAt: Date.now() });
    await restoreIfBehind(bucket, { firstSeq: 10, lastSeq: 100, created: STREAM }, target, log);
    expect(await placeHeldBy(target)).toEqual({ main: 30, log: 30, stream: undefined });
  });

  it("replaces no data dir whose store holds its place in another write stream", async () => {
    const dir = join(dirs, "other-cluster");
    const store = Store.open(dir);
    await store.streamWatermarks.joinStream(REMADE_STREAM);
    store.streamWatermarks.noteMain(5);
    await store.streamWatermarks.noteLog(5);
    await store.close();
    await bucket.upload({ dir: join(dirs, "real-store"), seq: 30, stream: STREAM, node: "test", takenAt: Date.now() });

    const log = jsonLogger("silent");
    await expect(restoreIfBehind(bucket, { firstSeq: 10, lastSeq: 100, created: STREAM }, dir, log)).rejects.toThrow(/another cluster/);
    expect(await placeHeldBy(dir)).toEqual({ main: 5, log: 5, stream: REMADE_STREAM });
  });

  it("deletes what a stopped upload had sent, so no chunk is left that no object owns", async () => {
    const manager = await jetstreamManager(connection);
    const held = async () => (await manager.streams.info(`OBJ_${SNAPSHOT_BUCKET}`)).state.messages;
    const before = await held();
    let chunks = 0;
    // Stopped after a few chunks of the 300 KB environment (the bucket's chunks are 128 KB).
    const stopped = await bucket
      .upload({ dir: dataDir("stopped"), seq: 70, stream: STREAM, node: "test", takenAt: Date.now() }, () => ++chunks > 3)
      .catch((error: unknown) => error);
    expect(String(stopped)).toMatch(/stopped/);
    await eventually(async () => expect(await held()).toBe(before));
    expect((await bucket.snapshots()).map((snapshot) => snapshot.seq)).not.toContain(70);
  });
});
