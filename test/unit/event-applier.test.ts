// The applier's scheduling of derived-store builds, on a fake store and fake
// timers: builds run when nothing else is due, finish however events come, and
// a failing one waits before it is tried again without holding up the others.
import { afterEach, describe, expect, it, vi } from "vitest";
import { EventApplier } from "../../src/ingest/event-applier.js";
import type { EventApplierMessage, EventApplierReply } from "../../src/ingest/event-writer.js";
import type { DerivedBuild } from "../../src/stores/derived-builds.js";
import type { Retention } from "../../src/stores/retention.js";
import type { Store } from "../../src/stores/store.js";

/** A store with builds of given slice counts (a negative count: every slice fails) and an event log of `behind` events. */
function fakeStore(slices: Record<string, number>) {
  const left = new Map(Object.entries(slices));
  const attempts = new Map<string, number>();
  const build = (name: string): DerivedBuild => ({ name, layout: 1, clear() {}, buildSlice: () => null });
  const builds = new Map([...left.keys()].map((name) => [name, build(name)]));
  let behind = 0;
  let expired = 0;
  /** Events applied to the histories and not yet to the session index, and when the index followed. */
  let indexLag = 0;
  const follows: number[] = [];
  const pruneCalls: string[] = [];
  /** When each full walk of the histories began, and the next one's schedule as the store keeps it. */
  const walks: number[] = [];
  let walkDue: number | undefined;
  /** How many walks to come fail. */
  let walkFailures = 0;
  const store = {
    catalogue: { listMerchants: () => [{ id: "shop" }] },
    refreshSnapshot() {},
    pendingBuilds: () => [...left].filter(([, n]) => n !== 0).map(([name]) => ({ build: builds.get(name)!, merchant: "shop" })),
    buildStepSync(build: DerivedBuild) {
      attempts.set(build.name, (attempts.get(build.name) ?? 0) + 1);
      const n = left.get(build.name)!;
      if (n < 0) throw new Error("disk full");
      left.set(build.name, n - 1);
      return n - 1 === 0;
    },
    applied: {
      deriveEventsSync(_merchant: string, max: number) {
        const applied = Math.min(behind, max);
        behind -= applied;
        indexLag += applied;
        return { applied, cartProducts: [] };
      },
      derivedSequence: () => 0,
      pruneSessionsSync(_merchant: string, _retention: Retention, _now: number, max: number) {
        const pruned = Math.min(expired, max);
        expired -= pruned;
        pruneCalls.push(left.size === 0 || [...left.values()].every((n) => n === 0) ? "after builds" : "during builds");
        return pruned;
      },
      sessionIndexBehind: () => indexLag > 0,
      followSessionIndexSync(_merchant: string, max: number) {
        indexLag -= Math.min(indexLag, max);
        follows.push(Date.now());
        return indexLag === 0;
      },
      pruneHistoriesSync: () => {
        walks.push(Date.now());
        if (walkFailures > 0) {
          walkFailures--;
          throw new Error("disk full");
        }
        return null;
      },
      fullWalkDueAt: () => walkDue,
      scheduleFullWalkSync: (at: number) => (walkDue = at),
    },
    orders: { staleListProducts: () => [], refreshNeighboursSync() {} },
    // The ranking job finds nothing due in these tests, nor search leader lists to build or prune.
    rankingWriter: { due: () => false, awaitingFirst: () => false },
    searchIndex: { leaders: { due: () => false, prunable: () => false } },
    events: { pruneEventLogSync: () => 0, pruneSessionPairsSync: () => null },
    close: async () => {},
  };
  return {
    store: store as unknown as Store,
    log: (n: number) => (behind += n),
    left: (name: string) => left.get(name),
    attempts: (name: string) => attempts.get(name) ?? 0,
    expire: (n: number) => (expired += n),
    expired: () => expired,
    pruneCalls,
    walks,
    walkDue: () => walkDue,
    scheduleWalk: (at: number) => (walkDue = at),
    failWalks: (count: number) => (walkFailures = count),
    indexLag: () => indexLag,
    follows,
  };
}

const RETENTION: Retention = { days: 90, sessionDays: 90, maxSessions: 1_000_000 };
const logged = (count: number): EventApplierMessage => ({ type: "logged", counts: [["shop", count]] });

/** An applier over the fake store, started; its replies go to `replies`. */
function startedApplier(fake: ReturnType<typeof fakeStore>, replies: EventApplierReply[] = []): EventApplier {
  const applier = new EventApplier(
    fake.store,
    30_000,
    RETENTION,
    (reply) => replies.push(reply),
    () => {},
  );
  applier.start();
  return applier;
}

/** An event logged every 20 ms for `durationMs`: never a quiet log. */
function eventEvery20Ms(fake: ReturnType<typeof fakeStore>, applier: EventApplier, durationMs: number): void {
  for (let elapsed = 0; elapsed < durationMs; elapsed += 20) {
    fake.log(1);
    applier.handle(logged(1));
    vi.advanceTimersByTime(20);
  }
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("derived-store builds in the applier", () => {
  it("go on to the end after a poll that applied events and left nothing behind", () => {
    vi.useFakeTimers();
    const fake = fakeStore({ search: 1_000 });
    const replies: EventApplierReply[] = [];
    const applier = startedApplier(fake, replies);
    vi.advanceTimersByTime(5);
    expect(fake.left("search")).toBeLessThan(1_000);
    fake.log(3);
    applier.handle(logged(3));
    vi.advanceTimersByTime(60_000);
    expect(fake.left("search")).toBe(0);
    expect(replies.at(-1)).toMatchObject({ buildsPending: 0 });
  });

  it("try a failing build again only after a pause, and build the others meanwhile", () => {
    vi.useFakeTimers();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const fake = fakeStore({ broken: -1, sessions: 20 });
    const applier = startedApplier(fake);
    // An event every 20 ms for a second: never a quiet log.
    eventEvery20Ms(fake, applier, 1_000);
    expect(fake.attempts("broken")).toBeLessThanOrEqual(2);
    expect(fake.left("sessions")).toBe(0);
  });
});

describe("session pruning in the applier", () => {
  it("waits for the builds, prunes slice after slice while a slice is full, then looks again a minute later", () => {
    vi.useFakeTimers();
    const fake = fakeStore({ sessions: 5 });
    fake.expire(1_200);
    startedApplier(fake);
    vi.advanceTimersByTime(100);
    expect(fake.left("sessions")).toBe(0);
    expect(fake.expired()).toBe(0);
    expect(fake.pruneCalls.every((when) => when === "after builds")).toBe(true);
    // 500 a slice: three slices empty it, the third short, which ends the look.
    expect(fake.pruneCalls).toHaveLength(3);
    fake.expire(10);
    vi.advanceTimersByTime(30_000);
    expect(fake.expired()).toBe(10);
    vi.advanceTimersByTime(31_000);
    expect(fake.expired()).toBe(0);
    expect(fake.pruneCalls).toHaveLength(4);
  });
});

describe("the retention's full walk in the applier", () => {
  const HOUR_MS = 3_600_000;

  it("walks at the first pass of a data dir that never walked, and keeps the next walk an hour later in the store", () => {
    vi.useFakeTimers();
    const fake = fakeStore({});
    startedApplier(fake);
    vi.advanceTimersByTime(100);
    expect(fake.walks).toHaveLength(1);
    expect(fake.walkDue()).toBeGreaterThanOrEqual(fake.walks[0]! + HOUR_MS);
    // Passes every minute until then prune from the oldest end only.
    vi.advanceTimersByTime(HOUR_MS - 60_000);
    expect(fake.walks).toHaveLength(1);
    vi.advanceTimersByTime(120_000);
    expect(fake.walks).toHaveLength(2);
  });

  it("does not walk again after a restart within the hour: a new run reads the schedule the last one stored", () => {
    vi.useFakeTimers();
    const fake = fakeStore({});
    const first = startedApplier(fake);
    vi.advanceTimersByTime(100);
    first.handle({ type: "close" });
    vi.advanceTimersByTime(10 * 60_000);
    const due = fake.walkDue()!;
    startedApplier(fake);
    vi.advanceTimersByTime(100);
    expect(fake.walks).toHaveLength(1);
    vi.advanceTimersByTime(due - Date.now() + 60_000);
    expect(fake.walks).toHaveLength(2);
  });

  it("tries a walk that failed again at the next start, not at every pass", () => {
    vi.useFakeTimers();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const fake = fakeStore({});
    fake.failWalks(1);
    const first = startedApplier(fake);
    vi.advanceTimersByTime(10 * 60_000);
    expect(fake.walks).toHaveLength(1);
    // Still due as the store keeps it: the next run walks at once.
    expect(fake.walkDue()).toBeUndefined();
    first.handle({ type: "close" });
    startedApplier(fake);
    vi.advanceTimersByTime(100);
    expect(fake.walks).toHaveLength(2);
    expect(fake.walkDue()).toBeGreaterThan(Date.now());
  });

  it("walks within the hour when the stored schedule is further ahead (a clock that was ahead)", () => {
    vi.useFakeTimers();
    const fake = fakeStore({});
    fake.scheduleWalk(Date.now() + 24 * HOUR_MS);
    startedApplier(fake);
    vi.advanceTimersByTime(HOUR_MS + 120_000);
    expect(fake.walks).toHaveLength(1);
  });
});

describe("the session index's follow in the applier", () => {
  it("follows at most every few seconds under load, and catches up once the log is quiet", () => {
    vi.useFakeTimers();
    const fake = fakeStore({});
    const applier = startedApplier(fake);
    // An event every 20 ms for 12 s: never a quiet log.
    eventEvery20Ms(fake, applier, 12_000);
    // A round a few seconds apart takes in what came since (one slice each here), not a follow per event.
    const rounds = new Set(fake.follows.map((at) => Math.floor(at / 1_000)));
    expect(fake.follows.length).toBeGreaterThanOrEqual(2);
    expect(fake.follows.length).toBeLessThanOrEqual(4);
    expect(rounds.size).toBe(fake.follows.length);
    expect(fake.indexLag()).toBeGreaterThan(0);
    vi.advanceTimersByTime(1_000);
    expect(fake.indexLag()).toBe(0);
  });
});

describe("readiness and a shop's first rankings", () => {
  it("counts a shop that had sales at start and no rankings from them until its first lists are stored", () => {
    vi.useFakeTimers();
    const fake = fakeStore({});
    let stored = false;
    Object.assign(fake.store, {
      rankingWriter: {
        awaitingFirst: () => !stored,
        due: () => !stored,
        // Two turns of reading, then the lists are written.
        refreshStep: (() => {
          let steps = 0;
          return () => (stored = ++steps === 2);
        })(),
      },
    });
    const replies: EventApplierReply[] = [];
    startedApplier(fake, replies);
    expect(replies[0]).toMatchObject({ type: "ready", buildsPending: 1 });
    vi.advanceTimersByTime(100);
    expect(stored).toBe(true);
    expect(replies.at(-1)).toMatchObject({ type: "applied", buildsPending: 0 });
  });
});

describe("readiness when the rankings' build stores a shop's first lists", () => {
  it("stops waiting once the stored state has them, whoever wrote them", () => {
    vi.useFakeTimers();
    const fake = fakeStore({});
    let stored = false;
    Object.assign(fake.store, { rankingWriter: { awaitingFirst: () => !stored, due: () => false } });
    const replies: EventApplierReply[] = [];
    startedApplier(fake, replies);
    expect(replies[0]).toMatchObject({ type: "ready", buildsPending: 1 });
    stored = true;
    vi.advanceTimersByTime(1_100);
    expect(replies.at(-1)).toMatchObject({ type: "applied", buildsPending: 0 });
  });
});

describe("the session index's follow when one merchant's fails", () => {
  it("goes on following the other merchants, and tries the failing one again after a pause", () => {
    vi.useFakeTimers();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const fake = fakeStore({});
    const lag = new Map([
      ["broken", 100],
      ["shop", 100],
    ]);
    const attempts = new Map<string, number>();
    Object.assign(fake.store.catalogue, { listMerchants: () => [...lag.keys()].map((id) => ({ id })) });
    Object.assign(fake.store.applied, {
      sessionIndexBehind: (merchant: string) => lag.get(merchant)! > 0,
      followSessionIndexSync(merchant: string, max: number) {
        attempts.set(merchant, (attempts.get(merchant) ?? 0) + 1);
        if (merchant === "broken") throw new Error("map full");
        lag.set(merchant, Math.max(0, lag.get(merchant)! - max));
        return lag.get(merchant) === 0;
      },
    });
    const applier = startedApplier(fake);
    vi.advanceTimersByTime(1_000);
    expect(lag.get("shop")).toBe(0);
    expect(attempts.get("broken")).toBe(1);
    // Events keep coming: the failing merchant is tried again a round later, not at every poll.
    eventEvery20Ms(fake, applier, 6_000);
    expect(attempts.get("broken")).toBeGreaterThanOrEqual(2);
    expect(attempts.get("broken")).toBeLessThanOrEqual(3);
  });
});
