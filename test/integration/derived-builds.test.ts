// A derived store missing from a data dir is rebuilt a slice per transaction,
// resumes after a restart where it stopped, and is rebuilt again when its layout changes.
import { open, type Database, type RootDatabase } from "lmdb";
import { describe, expect, it } from "vitest";
import { DerivedBuilds, type DerivedBuild } from "../../src/stores/derived-builds.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-derived-");

/** A derived store that doubles each source value, three keys per slice; it counts its clears. */
class Doubled implements DerivedBuild {
  readonly name = "doubled";
  clears = 0;
  constructor(
    private readonly source: Database<number, [string, number]>,
    readonly target: Database<number, [string, number]>,
    readonly layout = 1,
  ) {}

  clear(merchant: string): void {
    this.clears++;
    for (const key of this.target.getKeys({ start: [merchant], end: [merchant, "\uffff"] })) this.target.remove(key);
  }

  buildSlice(merchant: string, cursor: number | null): number | null {
    let last: number | null = null;
    for (const { key, value } of this.source.getRange({
      start: [merchant, cursor === null ? 0 : cursor + 1],
      end: [merchant, "\uffff"],
      limit: 3,
    })) {
      this.target.put(key, value * 2);
      last = key[1];
    }
    return last;
  }
}

function environment(dir: string) {
  const root: RootDatabase = open({ path: dir, maxDbs: 8 });
  const db = <V>(name: string) => root.openDB<V, never>({ name }) as unknown as Database<V, [string, number]>;
  return { root, meta: root.openDB<unknown, string>({ name: "meta" }), source: db<number>("source"), target: db<number>("target") };
}

describe("derived builds (real LMDB)", () => {
  it("builds a store a merchant lacks a slice at a time, then marks it built", async () => {
    const env = environment(tempDir());
    env.root.transactionSync(() => {
      for (let id = 1; id <= 7; id++) env.source.put(["shop", id], id);
      env.target.put(["shop", 99], 0); // left by an earlier layout: the rebuild clears it
    });
    const build = new Doubled(env.source, env.target);
    const builds = new DerivedBuilds(env.meta, [build]);
    expect(builds.pending(["shop"])).toEqual([{ build, merchant: "shop" }]);
    const steps: boolean[] = [];
    while (!builds.isBuilt(build, "shop")) steps.push(env.root.transactionSync(() => builds.step(build, "shop")));
    expect(steps).toEqual([false, false, false, true]);
    expect([...env.target.getRange({ start: ["shop"], end: ["shop", "\uffff"] })].map(({ key, value }) => [key[1], value])).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((id) => [id, id * 2]),
    );
    expect(build.clears).toBe(1);
    expect(builds.pending(["shop"])).toEqual([]);
    await env.root.close();
  });

  it("goes on after a restart from the slice it reached, without starting over", async () => {
    const dir = tempDir();
    let env = environment(dir);
    env.root.transactionSync(() => {
      for (let id = 1; id <= 7; id++) env.source.put(["shop", id], id);
    });
    let build = new Doubled(env.source, env.target);
    env.root.transactionSync(() => new DerivedBuilds(env.meta, [build]).step(build, "shop"));
    await env.root.close();

    env = environment(dir);
    build = new Doubled(env.source, env.target);
    const builds = new DerivedBuilds(env.meta, [build]);
    while (!env.root.transactionSync(() => builds.step(build, "shop")));
    expect(build.clears).toBe(0);
    expect(env.target.getKeysCount({ start: ["shop"], end: ["shop", "\uffff"] })).toBe(7);
    await env.root.close();
  });

  it("counts a new merchant built, and rebuilds every merchant when the layout changes", async () => {
    const env = environment(tempDir());
    const first = new Doubled(env.source, env.target, 1);
    env.root.transactionSync(() => new DerivedBuilds(env.meta, [first]).markAllBuilt("new-shop"));
    expect(new DerivedBuilds(env.meta, [first]).pending(["new-shop"])).toEqual([]);
    const second = new Doubled(env.source, env.target, 2);
    expect(new DerivedBuilds(env.meta, [second]).pending(["new-shop"])).toEqual([{ build: second, merchant: "new-shop" }]);
    await env.root.close();
  });
});

describe("a rebuild left by a build of another layout", () => {
  it("starts over instead of going on from its cursor", async () => {
    const dir = tempDir();
    let env = environment(dir);
    env.root.transactionSync(() => {
      for (let id = 1; id <= 7; id++) env.source.put(["shop", id], id);
    });
    const old = new Doubled(env.source, env.target, 1);
    env.root.transactionSync(() => new DerivedBuilds(env.meta, [old]).step(old, "shop"));
    await env.root.close();

    env = environment(dir);
    const next = new Doubled(env.source, env.target, 2);
    const builds = new DerivedBuilds(env.meta, [next]);
    while (!env.root.transactionSync(() => builds.step(next, "shop")));
    expect(next.clears).toBe(1);
    expect(builds.isBuilt(next, "shop")).toBe(true);
    await env.root.close();
  });

  it("reads a store's marker until it finds the store built, and not after", async () => {
    const env = environment(tempDir());
    const build = new Doubled(env.source, env.target);
    let markerReads = 0;
    const meta = new Proxy(env.meta, {
      get: (target, property, receiver) =>
        property === "get"
          ? (key: string) => {
              markerReads++;
              return target.get(key);
            }
          : Reflect.get(target, property, receiver),
    });
    const builds = new DerivedBuilds(meta, [build]);
    expect(builds.isBuilt(build, "shop")).toBe(false);
    expect(builds.isBuilt(build, "shop")).toBe(false);
    expect(markerReads).toBe(2);
    env.root.transactionSync(() => builds.markAllBuilt("shop"));
    expect(builds.isBuilt(build, "shop")).toBe(true);
    const afterFound = markerReads;
    for (let i = 0; i < 5; i++) expect(builds.isBuilt(build, "shop")).toBe(true);
    expect(markerReads).toBe(afterFound);
    // Another merchant's store is its own: still read until built.
    expect(builds.isBuilt(build, "other")).toBe(false);
    expect(markerReads).toBe(afterFound + 1);
    // So is another build's store of the same merchant.
    const other = Object.assign(new Doubled(env.source, env.target), { name: "tripled" });
    const both = new DerivedBuilds(meta, [build, other]);
    env.root.transactionSync(() => {
      while (!both.step(build, "late"));
    });
    expect(both.isBuilt(build, "late")).toBe(true);
    expect(both.isBuilt(other, "late")).toBe(false);
    await env.root.close();
  });
});
