import { describe, expect, it } from "vitest";
import { SessionViewsCache } from "../../src/core/recs/session-views-cache.js";

/** Keeps `views` for `session` the way the session index reader does: room first, then written. */
function keep(cache: SessionViewsCache, session: number, views: number[]): Float64Array {
  const room = cache.keep(session, views.length);
  room.set(views);
  return room;
}

const viewsOf = (session: number) => [session * 10 + 1, session * 10 + 2, session * 10 + 3];
const read = (cache: SessionViewsCache, session: number) => {
  const found = cache.get(session);
  return found === undefined ? undefined : [...found];
};

describe("SessionViewsCache", () => {
  it("answers each kept session's own views, and nothing for a session never kept", () => {
    const cache = new SessionViewsCache(100, 1_000);
    for (let session = 0; session < 50; session++) keep(cache, session, viewsOf(session));
    for (let session = 0; session < 50; session++) expect(read(cache, session)).toEqual(viewsOf(session));
    expect(cache.get(50)).toBeUndefined();
    expect(cache.size).toBe(50);
  });

  it("holds two generations of at most the given sessions, dropping those not used since the older began", () => {
    const cache = new SessionViewsCache(3, 1_000);
    for (let session = 1; session <= 8; session++) keep(cache, session, viewsOf(session));
    // 1-3 filled a generation and became the old one, 4-6 the next (1-3 dropped); 7 and 8 are young.
    expect(cache.size).toBe(5);
    expect([1, 2, 3].map((session) => cache.get(session))).toEqual([undefined, undefined, undefined]);
    expect([4, 7, 8].map((session) => read(cache, session))).toEqual([viewsOf(4), viewsOf(7), viewsOf(8)]);
  });

  it("bounds a generation by views as well as by sessions", () => {
    const cache = new SessionViewsCache(1_000, 64);
    // Three views each: 21 sessions fill a generation of 64 views; the 22nd starts the next.
    for (let session = 1; session <= 22; session++) keep(cache, session, viewsOf(session));
    expect(cache.size).toBe(22);
    for (let session = 23; session <= 43; session++) keep(cache, session, viewsOf(session));
    // 1-21 are gone, 22-42 are the old generation, 43 is young.
    expect(cache.size).toBe(22);
    expect(cache.get(21)).toBeUndefined();
    expect(read(cache, 22)).toEqual(viewsOf(22));
  });

  it("keeps a session used again: a hit in the old generation moves it, views intact, to the young one", () => {
    const cache = new SessionViewsCache(3, 1_000);
    for (let session = 1; session <= 4; session++) keep(cache, session, viewsOf(session));
    // 1-3 are old; reading 2 makes it young again, so it outlives the next retirement.
    expect(read(cache, 2)).toEqual(viewsOf(2));
    keep(cache, 5, viewsOf(5));
    // The young generation (4, 2, 5) is full: 6 retires it, and the generation holding 1 and 3 is written again.
    keep(cache, 6, viewsOf(6));
    expect(read(cache, 2)).toEqual(viewsOf(2));
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(3)).toBeUndefined();
  });

  it("moves an old session into the very arrays a retirement hands back, without mixing its views up", () => {
    // Sessions of differing lengths: a moved session's views are read from the array the retirement just
    // emptied, at another offset than they are written to, and the sessions kept after it stay whole.
    const cache = new SessionViewsCache(2, 1_000);
    keep(cache, 1, [11]);
    keep(cache, 2, [21, 22, 23, 24]);
    keep(cache, 3, [31]);
    keep(cache, 4, [41, 42]);
    // 3 and 4 are young and full, 1 and 2 old: reading 2 retires 3 and 4, and copies 2's views to the start of the array they were in.
    expect(read(cache, 2)).toEqual([21, 22, 23, 24]);
    expect(read(cache, 3)).toEqual([31]);
    expect(read(cache, 4)).toEqual([41, 42]);
    expect(read(cache, 2)).toEqual([21, 22, 23, 24]);
  });

  it("does not keep a session too long for its share of a generation, and still hands it room to be read into", () => {
    const cache = new SessionViewsCache(100, 160);
    keep(cache, 1, viewsOf(1));
    const long = Array.from({ length: 11 }, (_, i) => 100 + i);
    expect([...keep(cache, 2, long)]).toEqual(long);
    expect(cache.get(2)).toBeUndefined();
    expect(read(cache, 1)).toEqual(viewsOf(1));
    // A sixteenth of 160 views is 10: a session of exactly that is kept.
    const atShare = long.slice(0, 10);
    keep(cache, 3, atShare);
    expect(read(cache, 3)).toEqual(atShare);
  });

  it("keeps a session of no views as one, between sessions that have some", () => {
    const cache = new SessionViewsCache(100, 1_000);
    keep(cache, 1, viewsOf(1));
    keep(cache, 2, []);
    keep(cache, 3, viewsOf(3));
    expect([1, 2, 3].map((session) => read(cache, session))).toEqual([viewsOf(1), [], viewsOf(3)]);
  });

  it("refuses to keep a session it holds already, which would give it the views kept after it", () => {
    const cache = new SessionViewsCache(100, 1_000);
    keep(cache, 1, viewsOf(1));
    keep(cache, 2, viewsOf(2));
    expect(() => cache.keep(1, 1)).toThrow(RangeError);
    // The one kept last too, whose views would run on into the new ones.
    expect(() => cache.keep(2, 1)).toThrow(RangeError);
    expect([1, 2].map((session) => read(cache, session))).toEqual([viewsOf(1), viewsOf(2)]);
  });

  it("grows its arrays past their first size, and every session kept reads back whole", () => {
    const cache = new SessionViewsCache(50_000, 1_000_000);
    const lengthOf = (session: number) => 1 + (session % 7);
    const views = (session: number) => Array.from({ length: lengthOf(session) }, (_, i) => session * 8 + i);
    // Keys past 2³¹ hash as well as small ones (KeySlots takes any integer below 2⁵³).
    const first = 2 ** 31 + 5;
    for (let session = first; session < first + 20_000; session++) keep(cache, session, views(session));
    for (let session = first; session < first + 20_000; session += 97) expect(read(cache, session)).toEqual(views(session));
  });

  it("holds nothing once cleared, and keeps again after", () => {
    const cache = new SessionViewsCache(3, 1_000);
    for (let session = 1; session <= 5; session++) keep(cache, session, viewsOf(session));
    cache.clear();
    expect(cache.size).toBe(0);
    expect([1, 4, 5].map((session) => cache.get(session))).toEqual([undefined, undefined, undefined]);
    keep(cache, 9, viewsOf(9));
    expect(read(cache, 9)).toEqual(viewsOf(9));
  });
});
