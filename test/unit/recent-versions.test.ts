// The versions the HTTP thread keys cached answers by: each read from its
// store at most once a millisecond, and afresh after this thread commits.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { describe, expect, it, vi } from "vitest";
import { ingest } from "../../src/ingest/ingest.js";
import { createMerchant } from "../../src/ingest/merchants.js";
import { MAX_AGE_MS, RecentVersions, type VersionSources } from "../../src/stores/recent-versions.js";
import { Store } from "../../src/stores/store.js";
import { basketOrder } from "../helpers/fixtures.js";

/** Sources whose versions the test sets, counting reads, and whose commits the test announces. */
function fakeSources() {
  const versions = new Map<string, number>();
  const listeners: (() => void)[] = [];
  let reads = 0;
  const read = (key: string) => {
    reads++;
    return versions.get(key) ?? 0;
  };
  const sources: VersionSources = {
    version: (merchant, name) => read(`${merchant}/${name}`),
    copurchaseList: (merchant, productId) => read(`${merchant}/list/${productId}`),
    onCommit: (listener) => void listeners.push(listener),
  };
  return {
    sources,
    set: (key: string, version: number) => versions.set(key, version),
    commit: () => listeners.forEach((listener) => listener()),
    reads: () => reads,
  };
}

describe("recent versions", () => {
  it("reads each version once within the age, then every one afresh", () => {
    const fake = fakeSources();
    let now = 1_000;
    const versions = new RecentVersions(fake.sources, () => now);
    fake.set("a/catalogue", 3);
    fake.set("a/fbt_generation", 7);
    fake.set("a/list/5", 2);
    expect(versions.of("a", "catalogue")).toBe(3);
    expect(versions.of("a", "fbt_generation")).toBe(7);
    expect(versions.copurchaseList("a", 5)).toBe(2);
    expect([versions.of("a", "catalogue"), versions.of("a", "fbt_generation"), versions.copurchaseList("a", 5)]).toEqual([3, 7, 2]);
    expect(fake.reads()).toBe(3);
    // Another merchant, domain or product: read apart.
    expect([versions.of("b", "catalogue"), versions.of("a", "rankings"), versions.copurchaseList("a", 6)]).toEqual([0, 0, 0]);
    expect(fake.reads()).toBe(6);

    // Another thread's write is not seen within the age (nor would lmdb-js's snapshot see it before its tick)...
    fake.set("a/catalogue", 4);
    fake.set("a/fbt_generation", 8);
    now += MAX_AGE_MS;
    expect([versions.of("a", "catalogue"), versions.of("a", "fbt_generation")]).toEqual([3, 7]);
    // ...and is past it: every version is read again.
    now += 0.001;
    expect([versions.of("a", "catalogue"), versions.of("a", "fbt_generation"), versions.copurchaseList("a", 5)]).toEqual([4, 8, 2]);
    expect(fake.reads()).toBe(9);
  });

  it("reads afresh after a commit of this thread, and when told to", () => {
    const fake = fakeSources();
    const versions = new RecentVersions(fake.sources, () => 1_000);
    expect(versions.copurchaseList("a", 1)).toBe(0);
    fake.set("a/list/1", 1);
    fake.commit();
    expect(versions.copurchaseList("a", 1)).toBe(1);
    fake.set("a/list/1", 2);
    versions.forget();
    expect(versions.copurchaseList("a", 1)).toBe(2);
    expect(fake.reads()).toBe(3);
  });

  it("sees a write the store commits on this thread as soon as the write resolves (real LMDB)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "aisle-recent-versions-"));
    const store = Store.open(dir);
    // A clock that never moves: only the commit can make the store's versions be read again.
    const clock = vi.spyOn(performance, "now").mockReturnValue(0);
    try {
      const merchant = (await createMerchant(store, { id: "m1", name: "M", domain: "m.example.com" })).id;
      const before = store.recentVersions.of(merchant, "catalogue");
      await ingest(store, merchant, "products", [{ id: 1, title: "One", variants: [{ id: 11, price: "1.00" }] }]);
      const after = store.recentVersions.of(merchant, "catalogue");
      expect(after).toBeGreaterThan(before);
      expect(after).toBe(store.version(merchant, "catalogue"));
      // A merchant's whole records are read from their own tables.
      expect(store.recentVersions.of(merchant, "search_settings")).toBe(0);
      await store.searchSettings.reset(merchant);
      expect(store.recentVersions.of(merchant, "search_settings")).toBe(1);
      expect(store.recentVersions.of(merchant, "custom_sources")).toBe(0);
      await store.customSources.put(merchant, []);
      expect(store.recentVersions.of(merchant, "custom_sources")).toBe(1);
    } finally {
      clock.mockRestore();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps what it read through another thread's writes until Store.refreshSnapshot, for each version it names (real LMDB)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "aisle-recent-versions-"));
    const http = Store.open(dir);
    // Its commits are not this store's: as another thread's, they clear nothing the first remembers.
    const other = Store.open(dir);
    const clock = vi.spyOn(performance, "now").mockReturnValue(0);
    try {
      const merchant = (await createMerchant(other, { id: "m1", name: "M", domain: "m.example.com" })).id;
      // Variant ids as basketOrder names them (product id × 10 + 1).
      const product = { id: 1, title: "One", variants: [{ id: 11, price: "1.00" }] };
      await ingest(other, merchant, "products", [product, { ...product, id: 2, title: "Two", variants: [{ id: 21, price: "1.00" }] }]);
      http.refreshSnapshot();
      const before = [http.recentVersions.of(merchant, "orders"), http.recentVersions.copurchaseList(merchant, 1)];
      await ingest(other, merchant, "orders", [basketOrder(7, [1, 2])]);
      // Remembered: the clock never moves and `http` committed nothing.
      expect([http.recentVersions.of(merchant, "orders"), http.recentVersions.copurchaseList(merchant, 1)]).toEqual(before);
      http.refreshSnapshot();
      expect(http.recentVersions.of(merchant, "orders")).toBe(other.version(merchant, "orders"));
      expect(http.recentVersions.copurchaseList(merchant, 1)).toBeGreaterThan(before[1]!);
      expect(http.recentVersions.copurchaseList(merchant, 1)).toBe(other.orders.copurchaseListVersion(merchant, 1));
    } finally {
      clock.mockRestore();
      await Promise.all([http.close(), other.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
