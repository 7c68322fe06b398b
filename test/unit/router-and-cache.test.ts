import { describe, expect, it, vi } from "vitest";
import { entryBytes, ResponseCache } from "../../src/cache/response-cache.js";
import { Router, type Route } from "../../src/http/router.js";

const route = (method: Route["method"], pattern: string): Route => ({
  method,
  pattern,
  cors: false,
  readsBody: false,
  errorStyle: "message",
  handle: () => ({ status: 200, body: pattern }),
});

describe("Router", () => {
  const router = new Router([route("GET", "/a"), route("POST", "/m/:merchant/:kind"), route("DELETE", "/m/:merchant/products/:id")]);

  it("matches exact paths, trailing slashes and :params", () => {
    expect(router.match("GET", "/a/")).toMatchObject({ route: { pattern: "/a" }, params: {} });
    expect(router.match("POST", "/m/shop%20x/orders")).toMatchObject({ params: { merchant: "shop x", kind: "orders" } });
    expect(router.match("DELETE", "/m/s/products/9")).toMatchObject({ params: { merchant: "s", id: "9" } });
  });

  it("tells a wrong method from an unknown path", () => {
    expect(router.match("POST", "/a")).toEqual({ allowed: ["GET"] });
    expect(router.match("GET", "/m/s/products")).toEqual({ allowed: ["POST"] });
    expect(router.match("GET", "/nothing")).toBeNull();
    expect(router.match("POST", "/m/%E0%A4%A/x")).toBeNull();
  });
});

describe("ResponseCache", () => {
  const bytes = (n: number) => new Uint8Array(n);

  it("evicts least recently used entries beyond its byte budget", () => {
    // Room for two entries, not three.
    const budget = 2 * entryBytes("a", bytes(100)) + 100;
    const cache = new ResponseCache(budget);
    cache.set("a", bytes(100), 0);
    cache.set("b", bytes(100), 0);
    cache.get("a", 0);
    cache.set("c", bytes(100), 0);
    expect(cache.get("b", 0)).toBeUndefined();
    expect(cache.get("a", 0)).toBeDefined();
    expect(cache.get("c", 0)).toBeDefined();
    expect(cache.totalBytes).toBe(2 * entryBytes("a", bytes(100)));
  });

  it("drops an entry never read before older ones that were, and keeps the entry just stored", () => {
    const budget = 3 * entryBytes("a", bytes(100)) + 100;
    const cache = new ResponseCache(budget);
    for (const key of ["a", "b", "c"]) cache.set(key, bytes(100), 0);
    cache.get("a", 0);
    cache.get("b", 0);
    cache.set("d", bytes(100), 0);
    expect(cache.get("c", 0)).toBeUndefined();
    // Every older entry read: each is passed over once, then the oldest of them goes, never the new one.
    for (const key of ["a", "b", "d"]) expect(cache.get(key, 0)).toBeDefined();
    cache.set("e", bytes(100), 0);
    expect(cache.get("e", 0)).toBeDefined();
    expect(cache.size).toBe(3);
    expect(cache.totalBytes).toBe(3 * entryBytes("a", bytes(100)));
  });

  /** A cache full with 100 entries k00…k99, stored in that order and each read since. */
  const fullOfReadEntries = () => {
    // Bodies this large for a cache of 100 each get a slab of their own, so the cost of each entry is exact.
    const body = bytes(4_000);
    const cache = new ResponseCache(100 * entryBytes("k00", body) + 100);
    const keys = Array.from({ length: 100 }, (_, i) => `k${String(i).padStart(2, "0")}`);
    for (const key of keys) cache.set(key, body, 0);
    for (const key of keys) cache.get(key, 0);
    return { cache, keys, body };
  };

  it("passes over a bounded number of read entries in one store, then drops the oldest even if it was read", () => {
    const { cache, keys, body } = fullOfReadEntries();
    cache.set("new", body, 0);
    // 64 were passed over (moved to the back, unmarked), and the 65th oldest went, read or not.
    expect(cache.get("k64", 0)).toBeUndefined();
    expect(keys.filter((key) => cache.get(key, 0) === undefined)).toEqual(["k64"]);
    expect(cache.size).toBe(100);
  });

  it("replaces a key stored again where it stands: its new bytes, the same cost, no Map entry deleted", () => {
    const budget = 3 * entryBytes("a", bytes(100)) + 100;
    const cache = new ResponseCache(budget);
    for (const key of ["a", "b", "c"]) cache.set(key, new Uint8Array(100).fill(1), 0);
    // A deleted Map entry stays in its key's hash chain until V8 rebuilds the table, and adding the key walks that
    // chain: one URL stored again and again made every store cost about as much as the cache has entries.
    const deletes = vi.spyOn(Map.prototype, "delete");
    try {
      cache.set("a", new Uint8Array(100).fill(2), 5, 1_000);
      expect(deletes).not.toHaveBeenCalled();
    } finally {
      deletes.mockRestore();
    }
    expect(cache.size).toBe(3);
    expect(cache.totalBytes).toBe(3 * entryBytes("a", bytes(100)));
    // Kept as if just stored: a store beyond the budget moves it to the back and drops b, the oldest after it.
    cache.set("d", bytes(100), 6);
    expect(cache.get("b", 6)).toBeUndefined();
    for (const key of ["c", "d"]) expect(cache.get(key, 6)).toBeDefined();
    expect(cache.get("a", 6)).toMatchObject({ storedAt: 5, expiresAt: 1_005, body: new Uint8Array(100).fill(2) });
  });

  it("moves an entry stored again to the back whatever the walk has passed over, as a new entry would stand", () => {
    const { cache, keys, body } = fullOfReadEntries();
    // Stored again among the 64 read entries a store may pass over, and just past them: neither is dropped nor
    // counted, so the walk moves both, passes over the 64 read entries of k00–k65, and drops k66.
    cache.set("k10", body, 1);
    cache.set("k64", body, 1);
    cache.set("new", body, 1);
    expect(keys.filter((key) => cache.get(key, 1) === undefined)).toEqual(["k66"]);
    expect(cache.size).toBe(100);
  });

  it("counts what an entry really costs, not only its bytes, so the budget is what the cache takes", () => {
    // The body and key are 12 bytes; the entry's objects and allocation are hundreds more.
    expect(entryBytes("a", bytes(10))).toBeGreaterThan(500);
  });

  it("expires entries by age and refuses ones larger than the budget", () => {
    const cache = new ResponseCache(1_000);
    expect(entryBytes("a", bytes(10))).toBeLessThanOrEqual(1_000);
    cache.set("a", bytes(10), 1_000, 500);
    expect(cache.get("a", 1_400)?.storedAt).toBe(1_000);
    expect(cache.get("a", 1_500)).toBeUndefined();
    cache.set("huge", bytes(1_000), 0);
    // The expired entry is kept for its next answer to replace; the refused one left nothing.
    expect(cache.size).toBe(1);
    expect(cache.totalBytes).toBe(entryBytes("a", bytes(10)));
  });

  it("replaces an expired entry in place, and keeps nothing that would expire at once", () => {
    const cache = new ResponseCache(10_000);
    cache.set("a", new Uint8Array(10).fill(1), 1_000, 500);
    expect(cache.get("a", 1_500)).toBeUndefined();
    const deletes = vi.spyOn(Map.prototype, "delete");
    try {
      cache.set("a", new Uint8Array(10).fill(2), 1_500, 500);
      cache.set("b", bytes(10), 1_500, 0);
      expect(deletes).not.toHaveBeenCalled();
    } finally {
      deletes.mockRestore();
    }
    expect(cache.get("a", 1_600)).toMatchObject({ storedAt: 1_500, body: new Uint8Array(10).fill(2) });
    expect(cache.get("b", 1_500)).toBeUndefined();
    expect(cache.size).toBe(1);
  });
});
