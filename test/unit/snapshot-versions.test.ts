// The versions the HTTP thread keys cached answers by: read from the
// environment at most once a millisecond, and afresh after this thread commits.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Environment, type DataDomain } from "../../src/stores/environment.js";
import { MAX_AGE_MS, SnapshotVersions, type VersionedEnvironment } from "../../src/stores/snapshot-versions.js";

/** An environment whose versions the test sets, counting reads, and whose commits the test announces. */
function fakeEnvironment() {
  const versions = new Map<string, number>();
  const listeners: (() => void)[] = [];
  let reads = 0;
  const env: VersionedEnvironment = {
    version: (merchant: string, domain: DataDomain) => {
      reads++;
      return versions.get(`${merchant}/${domain}`) ?? 0;
    },
    root: { on: (_event, listener) => void listeners.push(listener) },
  };
  return {
    env,
    set: (merchant: string, domain: DataDomain, version: number) => versions.set(`${merchant}/${domain}`, version),
    commit: () => listeners.forEach((listener) => listener()),
    reads: () => reads,
  };
}

describe("recent data versions", () => {
  it("reads each merchant's domain once within the age, then afresh", () => {
    const fake = fakeEnvironment();
    let now = 1_000;
    const versions = new SnapshotVersions(fake.env, () => now);
    fake.set("a", "catalogue", 3);
    expect(versions.of("a", "catalogue")).toBe(3);
    expect(versions.of("a", "catalogue")).toBe(3);
    expect(fake.reads()).toBe(1);
    // Another merchant, another domain: read apart.
    expect(versions.of("b", "catalogue")).toBe(0);
    expect(versions.of("a", "rankings")).toBe(0);
    expect(fake.reads()).toBe(3);

    // Another thread's write is not seen within the age (nor would lmdb-js's snapshot see it before its tick)...
    fake.set("a", "catalogue", 4);
    now += MAX_AGE_MS;
    expect(versions.of("a", "catalogue")).toBe(3);
    // ...and is past it: every version is read again.
    now += 0.001;
    expect(versions.of("a", "catalogue")).toBe(4);
    expect(versions.of("b", "catalogue")).toBe(0);
    expect(fake.reads()).toBe(5);
  });

  it("reads afresh after a commit of this thread, and when told to", () => {
    const fake = fakeEnvironment();
    const versions = new SnapshotVersions(fake.env, () => 1_000);
    expect(versions.of("a", "catalogue")).toBe(0);
    fake.set("a", "catalogue", 1);
    fake.commit();
    expect(versions.of("a", "catalogue")).toBe(1);
    fake.set("a", "catalogue", 2);
    versions.forget();
    expect(versions.of("a", "catalogue")).toBe(2);
    expect(fake.reads()).toBe(3);
  });

  it("sees a write this thread has committed as soon as the write resolves (real LMDB)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "aisle-snapshot-versions-"));
    const env = Environment.open(dir);
    try {
      // A clock that never moves: only the commit can make it read again.
      const versions = new SnapshotVersions(env, () => 0);
      expect(versions.of("m1", "catalogue")).toBe(0);
      await env.root.transaction(() => env.bump("m1", "catalogue"));
      expect(versions.of("m1", "catalogue")).toBe(1);
      // A commit in the other environment (the event log's) leaves the versions where they are.
      await env.logRoot.transaction(() => env.logMeta.put("unrelated", 1));
      expect(versions.of("m1", "catalogue")).toBe(1);
    } finally {
      await Promise.all([env.root.close(), env.logRoot.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
