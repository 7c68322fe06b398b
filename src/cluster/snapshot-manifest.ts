// What a snapshot in the bucket holds, written after its data so that a
// snapshot without one is not complete: the stream sequence it was taken at,
// when and by which node, and each file of the data dir with its size and
// sha256. A node restoring it checks every file against it, so an object
// that is not the one the manifest was written for (replaced, cut short,
// damaged on its way to disk) is refused before anything is opened.
import { createHash, type Hash } from "node:crypto";

export interface SnapshotFile {
  /** Relative to the data dir, with "/" between its parts. */
  path: string;
  size: number;
  /** Hex. */
  sha256: string;
}

export interface SnapshotManifest {
  format: typeof MANIFEST_FORMAT;
  /** Names the snapshot's objects in the bucket. */
  id: string;
  /** The stream sequence the copy has applied in both its environments: a node restored from it consumes from the next one. */
  seq: number;
  /**
   * When the write stream it was taken of was created: a sequence means
   * something only in that stream, and a stream deleted and made anew starts
   * its sequences again while the bucket outlives it.
   */
  stream: string;
  /** When the copy was taken (ms since the epoch). */
  takenAt: number;
  /** The node that took it (host and process). */
  node: string;
  /** In the order they follow one another in the snapshot's data object. */
  files: SnapshotFile[];
}

/** Changes when the manifest or the data object's layout does: a node refuses a manifest of another format. */
export const MANIFEST_FORMAT = 1;

/** A snapshot's bytes are not those its manifest describes, or the manifest cannot be read. */
export class SnapshotCorrupt extends Error {}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The manifest in `bytes`; throws SnapshotCorrupt when they are not one this build can restore. */
export function parseManifest(bytes: Uint8Array): SnapshotManifest {
  let manifest: Partial<SnapshotManifest>;
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes)) as Partial<SnapshotManifest>;
  } catch (error) {
    throw new SnapshotCorrupt(`a snapshot manifest is not JSON (${String(error)})`);
  }
  // JSON that is not an object (null, a number) is no manifest either.
  if (typeof manifest !== "object" || manifest === null) throw new SnapshotCorrupt("a snapshot manifest is not a JSON object");
  const files = manifest.files;
  const valid =
    manifest.format === MANIFEST_FORMAT &&
    typeof manifest.id === "string" &&
    isCount(manifest.seq) &&
    typeof manifest.stream === "string" &&
    isCount(manifest.takenAt) &&
    typeof manifest.node === "string" &&
    Array.isArray(files) &&
    files.every(
      (file: Partial<SnapshotFile>) =>
        typeof file?.path === "string" &&
        isSafePath(file.path) &&
        isCount(file.size) &&
        typeof file.sha256 === "string" &&
        /^[0-9a-f]{64}$/.test(file.sha256),
    );
  if (!valid) throw new SnapshotCorrupt(`snapshot manifest ${String(manifest.id)} is not one this build can restore`);
  return manifest as SnapshotManifest;
}

/** A relative path that stays inside the dir it is joined to: a manifest names where files go, and must not name anywhere else. */
function isSafePath(path: string): boolean {
  return path !== "" && path.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/** Size and sha256 of bytes as they go by, for a file written to or read from a snapshot. */
export class FileDigest {
  private readonly hash: Hash = createHash("sha256");
  size = 0;

  update(bytes: Uint8Array): void {
    this.hash.update(bytes);
    this.size += bytes.length;
  }

  /** The file's entry in a manifest; call once, after its last bytes. */
  entry(path: string): SnapshotFile {
    return { path, size: this.size, sha256: this.hash.digest("hex") };
  }
}

/** Throws SnapshotCorrupt unless the bytes read for `expected` (digested by `digest`) are the ones the manifest names. */
export function checkFile(expected: SnapshotFile, digest: FileDigest): void {
  const actual = digest.entry(expected.path);
  if (actual.size !== expected.size || actual.sha256 !== expected.sha256) {
    throw new SnapshotCorrupt(
      `snapshot file ${expected.path} does not match its manifest: ${actual.size} bytes with sha256 ${actual.sha256}, ` +
        `where the manifest has ${expected.size} bytes with sha256 ${expected.sha256}`,
    );
  }
}
