import { describe, expect, it } from "vitest";
import { BodySlabs, SLAB_OVERHEAD_BYTES } from "../../src/cache/body-slabs.js";
import { ResponseCache } from "../../src/cache/response-cache.js";

const filled = (length: number, byte: number) => new Uint8Array(length).fill(byte);

describe("BodySlabs", () => {
  // A budget of 64 KB: slabs of 1 KB.
  const budget = 64 * 1024;
  const slabCost = 1024 + SLAB_OVERHEAD_BYTES;

  it("keeps a copy of each body, side by side in one slab until it is full", () => {
    const slabs = new BodySlabs(budget);
    const source = filled(300, 1);
    const first = slabs.store(source);
    source.fill(9);
    const second = slabs.store(filled(300, 2));
    expect([...new Set(first.bytes)]).toEqual([1]);
    expect([...new Set(second.bytes)]).toEqual([2]);
    expect(second.slab).toBe(first.slab);
    expect(slabs.heldBytes).toBe(slabCost);
    const third = slabs.store(filled(300, 3));
    const fourth = slabs.store(filled(300, 4));
    expect(third.slab).toBe(first.slab);
    expect(fourth.slab).not.toBe(first.slab);
    expect(slabs.heldBytes).toBe(2 * slabCost);
  });

  it("lets a slab go once its last body is released, never while it is being written", () => {
    const slabs = new BodySlabs(budget);
    const bodies = [1, 2, 3, 4].map((byte) => slabs.store(filled(300, byte)));
    for (const body of bodies.slice(0, 3)) slabs.release(body.slab);
    expect(slabs.heldBytes).toBe(slabCost);
    slabs.release(bodies[3]!.slab);
    // The slab being written is kept, empty, until a body no longer fits in it.
    expect(slabs.heldBytes).toBe(slabCost);
    slabs.store(filled(500, 5));
    const next = [6, 7].map((byte) => slabs.store(filled(500, byte)));
    expect(slabs.heldBytes).toBe(2 * slabCost);
    for (const body of next) slabs.release(body.slab);
    expect(slabs.heldBytes).toBe(2 * slabCost);
    // No room left in the slab being written, which is empty: it is let go of for a new one.
    slabs.store(filled(500, 8));
    expect(slabs.heldBytes).toBe(2 * slabCost);
  });

  it("gives a body over half a slab a slab of its own, let go of with it", () => {
    const slabs = new BodySlabs(budget);
    const big = slabs.store(filled(600, 7));
    expect(big.slab.bytes.length).toBe(600);
    expect(slabs.heldBytes).toBe(600 + SLAB_OVERHEAD_BYTES);
    slabs.release(big.slab);
    expect(slabs.heldBytes).toBe(0);
  });

  it("writes an emptied slab again only from the event loop's next turn on", async () => {
    const slabs = new BodySlabs(budget);
    // Three bodies fill the first slab; the fourth starts the second.
    const first = [1, 2, 3].map((byte) => slabs.store(filled(300, byte)));
    slabs.store(filled(300, 4));
    for (const body of first) slabs.release(body.slab);
    const slabOf = (body: { bytes: Uint8Array }) => body.bytes.buffer;
    // Within this turn, a new slab rather than the emptied one.
    slabs.store(filled(500, 5));
    const third = slabs.store(filled(500, 6));
    expect(slabOf(third)).not.toBe(slabOf(first[0]!));
    await new Promise((resolve) => setImmediate(resolve));
    slabs.store(filled(500, 7));
    const fourth = slabs.store(filled(500, 8));
    expect(slabOf(fourth)).toBe(slabOf(first[0]!));
    expect([...new Set(fourth.bytes)]).toEqual([8]);
    expect(slabs.heldBytes).toBe(3 * slabCost);
  });

  it("keeps a released body as it is across microtasks, until the next turn", async () => {
    const slabs = new BodySlabs(budget);
    // Three bodies fill a slab, a fourth starts the next; the first slab is emptied.
    const held = [1, 2, 3].map((byte) => slabs.store(filled(300, byte)));
    slabs.store(filled(300, 4));
    for (const body of held) slabs.release(body.slab);
    await Promise.resolve();
    await Promise.resolve();
    for (let i = 0; i < 10; i++) slabs.store(filled(300, 9));
    expect(held.map((body) => [...new Set(body.bytes)])).toEqual([[1], [2], [3]]);
  });

  it("keeps two emptied slabs spare at most", async () => {
    const slabs = new BodySlabs(budget);
    // Four slabs of their own (bodies of a whole slab), emptied in one turn.
    const emptied = [1, 2, 3, 4].map((byte) => slabs.store(filled(1024, byte)));
    for (const body of emptied) slabs.release(body.slab);
    expect(slabs.heldBytes).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    const buffers = new Set(emptied.map((body) => body.bytes.buffer));
    const next = [5, 6, 7].map((byte) => slabs.store(filled(1024, byte)));
    expect(next.map((body) => buffers.has(body.bytes.buffer))).toEqual([true, true, false]);
  });

  it("never overwrites a body handed out within the turn it was released in", () => {
    const slabs = new BodySlabs(budget);
    const kept = slabs.store(filled(200, 42));
    slabs.release(kept.slab);
    for (let i = 0; i < 1_000; i++) slabs.release(slabs.store(filled(150, i % 256)).slab);
    expect([...new Set(kept.bytes)]).toEqual([42]);
  });
});

describe("ResponseCache with bodies in slabs", () => {
  it("stays within its budget under churn, keeps each entry's bytes, and lets go of emptied slabs", () => {
    const budget = 256 * 1024;
    const cache = new ResponseCache(budget);
    const oneSlab = budget / 64 + SLAB_OVERHEAD_BYTES;
    const bodyOf = (key: number) => filled(200 + (key % 7) * 100, key % 256);
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 20_000; i++) {
      const key = Math.floor(random() * 2_000);
      if (random() < 0.5 && cache.get(`k${key}`, 0)) continue;
      cache.set(`k${key}`, bodyOf(key), 0);
      expect(cache.totalBytes).toBeLessThanOrEqual(budget + oneSlab);
    }
    for (let key = 0; key < 2_000; key++) {
      const hit = cache.get(`k${key}`, 0);
      if (hit) expect(hit.body).toEqual(bodyOf(key));
    }
    // Were emptied slabs kept, the cache would have to drop nearly everything to stay within budget.
    const entryAtMost = 800 + 2 * 5 + 400;
    expect(cache.size).toBeGreaterThan((0.5 * budget) / entryAtMost);
  });

  it("moves a body read since eviction last passed it out of its slab, so a few read bodies do not hold many slabs", () => {
    // Slabs of 1 KB, four bodies each; one body in four is read again and again.
    const budget = 64 * 1024;
    const cache = new ResponseCache(budget);
    const hot = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const key = `k${i}`;
      cache.set(key, filled(250, i % 256), 0);
      if (i % 4 === 0) hot.add(key);
      for (const read of hot) if (!cache.get(read, 0)) hot.delete(read);
    }
    // Left in their slabs, the read bodies would hold a slab each (1.3 KB for 250 bytes), and the cache would keep about 40 entries.
    expect(cache.size).toBeGreaterThan(60);
  });
});
