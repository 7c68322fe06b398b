import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkFile, FileDigest, MANIFEST_FORMAT, parseManifest, SnapshotCorrupt } from "../../src/cluster/snapshot-manifest.js";

const bytes = new TextEncoder().encode("the main environment's pages");
const entry = { path: "aisle.lmdb", size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };

function digestOf(...chunks: Uint8Array[]): FileDigest {
  const digest = new FileDigest();
  chunks.forEach((chunk) => digest.update(chunk));
  return digest;
}

const manifest = {
  format: MANIFEST_FORMAT,
  id: "s1",
  seq: 42,
  stream: "2026-11-26T10:00:00Z",
  takenAt: 1_700_000_000_000,
  node: "host:1",
  files: [entry],
};
const encoded = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("a snapshot file checked against its manifest", () => {
  it("passes when its bytes are the ones the manifest names, however they were cut into chunks", () => {
    expect(() => checkFile(entry, digestOf(bytes))).not.toThrow();
    expect(() => checkFile(entry, digestOf(bytes.subarray(0, 5), bytes.subarray(5)))).not.toThrow();
    expect(digestOf(bytes).entry("aisle.lmdb")).toEqual(entry);
  });

  it("is refused when one byte differs, or when it is cut short", () => {
    const corrupted = Uint8Array.from(bytes);
    corrupted[7]! ^= 1;
    expect(() => checkFile(entry, digestOf(corrupted))).toThrow(SnapshotCorrupt);
    expect(() => checkFile(entry, digestOf(corrupted))).toThrow(/aisle\.lmdb does not match its manifest/);
    expect(() => checkFile(entry, digestOf(bytes.subarray(1)))).toThrow(SnapshotCorrupt);
  });
});

describe("parseManifest", () => {
  it("reads back what a node wrote", () => {
    expect(parseManifest(encoded(manifest))).toEqual(manifest);
  });

  it("refuses a manifest of another format, a broken one, and one naming a file outside the data dir", () => {
    expect(() => parseManifest(encoded({ ...manifest, format: MANIFEST_FORMAT + 1 }))).toThrow(SnapshotCorrupt);
    expect(() => parseManifest(new TextEncoder().encode("{"))).toThrow(SnapshotCorrupt);
    expect(() => parseManifest(encoded(null))).toThrow(SnapshotCorrupt);
    expect(() => parseManifest(encoded({ ...manifest, seq: -1 }))).toThrow(SnapshotCorrupt);
    expect(() => parseManifest(encoded({ ...manifest, stream: undefined }))).toThrow(SnapshotCorrupt);
    expect(() => parseManifest(encoded({ ...manifest, files: [{ ...entry, sha256: "x" }] }))).toThrow(SnapshotCorrupt);
    for (const path of ["../aisle.lmdb", "models/../../x", "/etc/passwd", ""]) {
      expect(() => parseManifest(encoded({ ...manifest, files: [{ ...entry, path }] }))).toThrow(SnapshotCorrupt);
    }
  });
});
