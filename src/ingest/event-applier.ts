// The event applier (its thread: workers/event-applier-entry.ts) follows the
// event log and applies logged events to histories, add counts and carts, in
// slices that move each merchant's watermark in the same transaction (exactly
// once, also across a crash: at start it applies whatever an earlier run left).
// Larger slices write each session's history once for more of its events and
// touch fewer LMDB pages per event, so a merchant's events wait for a full
// slice, for MAX_WAIT_MS, or for a quiet log, whichever comes first. Then the
// bought-together lists that carts changed (marked stale in LMDB with the
// slice's cart record): a round of refreshes folds the carts into the counts
// and recomputes each list once however many carts touched it (recomputing
// one reads every partner of its product), a round at most every
// REFRESH_EVERY_MS while events keep coming. When nothing else is due, it
// builds derived stores a data dir lacks, and prunes the event log, histories
// and viewed-related's session index to the retention (retention-pass.ts), a
// slice per transaction.
//
// It is also the one writer of the stored shop-wide rankings (trending, top
// sellers; src/stores/ranking-writer.ts): every RANKINGS_LOOK_MS it looks
// whether a merchant's are due — a new day, counts or collections changed
// since a refresh at least the configured interval ago, a window asked for —
// and refreshes them in turns of RANKINGS_SLICE_MS between which events are
// applied. Orders are written on the HTTP thread: the counts' stamps, which
// their transaction moves, are how it learns of them.
import type { MerchantId } from "../core/types.js";
import type { Retention } from "../stores/retention.js";
import { retentionPass } from "./retention-pass.js";
import type { Store } from "../stores/store.js";
import type { EventApplierMessage, EventApplierReply } from "./event-writer.js";

/**
 * Events applied in one transaction: once this many are behind, a merchant's
 * slice is due. Under load slices of 16k cost the applier 7-9 µs an event,
 * against 10.3-10.4 with 4k (the event bench's shape, 20 s runs); a slice
 * fills in about MAX_WAIT_MS at 30k events/s. The price: a slice holds the
 * main environment's write lock for up to about 200 ms, which catalogue,
 * customer and order writes wait behind (reads and event acknowledgements
 * do not).
 */
const APPLY_SLICE = 16_000;
/** A merchant's oldest unapplied event waits at most about this long, however little else it sends. */
const MAX_WAIT_MS = 500;
/** No event logged for this long counts as quiet: whatever is behind is applied. */
const QUIET_AFTER_MS = 50;
/** How often, while something is behind but not due, the applier looks again. */
const POLL_MS = 10;
/** Bought-together lists recomputed per transaction. */
const REFRESH_SLICE = 50;
/** Under load, a round of list refreshes starts at most this often. */
const REFRESH_EVERY_MS = 10_000;
/**
 * Under load, viewed-related's session index follows the log at most this
 * often (at once when the log is quiet): each session's views since the last
 * time are one write of it.
 */
const INDEX_FOLLOW_EVERY_MS = 5_000;
/**
 * Events the session index takes in per transaction. Larger than APPLY_SLICE:
 * a session is rewritten once per transaction it has views in, so a session
 * that views often is rewritten less. A slice takes about 100 ms of this
 * thread, which events and refreshes then wait for.
 */
const FOLLOW_SLICE = 64_000;
/** A derived store's slice that failed is tried again after this long. */
const BUILD_RETRY_MS = 1_000;
/** How often the applier looks whether some merchant's rankings are due (a few reads per merchant); sooner if the refresh interval is shorter. */
const RANKINGS_LOOK_MS = 1_000;
/** A ranking refresh reads and computes in turns of about this long, with events applied between them. */
const RANKINGS_SLICE_MS = 20;
/** How often the applier prunes what is past the retention: it ages also while no event comes. */
const PRUNE_EVERY_MS = 60_000;
/** How often a pruning pass also walks every history and session pair: a second or two of reading at a million sessions. */
const FULL_WALK_EVERY_MS = 3_600_000;

export class EventApplier {
  /** Logged events not yet applied, per merchant, as the HTTP thread reports each log commit, and since when. */
  private readonly behind = new Map<MerchantId, { count: number; since: number }>();
  private lastLoggedAt = 0;
  private refreshRoundStarted = 0;
  private lastRoundEnded = 0;
  /** The next poll, if one is scheduled, and when it is due. */
  private nextPoll: { timer: NodeJS.Timeout; at: number } | null = null;
  private rankingsTurn: NodeJS.Timeout | null = null;
  /**
   * Merchants that had sales or adds at start and no rankings computed from
   * them yet (a demo just seeded, a first import): the service is not ready
   * until their first lists are stored. One created later does not count.
   */
  private readonly firstRankingsAwaited = new Set<MerchantId>();
  /**
   * A round of the session index's follow under way: each merchant still
   * behind, with the applied sequence the round takes its index up to (fixed
   * when the round starts, so that under a saturating load a round ends
   * instead of following every slice the derive applies meanwhile).
   */
  private indexRound: Map<MerchantId, number> | null = null;
  /** When the last round ended (0: none yet). */
  private indexFollowedAt = 0;
  /** Merchants whose follow failed: when each is tried again (the others go on meanwhile). */
  private readonly indexRetryAt = new Map<MerchantId, number>();
  /** When to prune what is past the retention next (0: at the first poll). */
  private nextPruneAt = 0;
  /** When a pass is next to walk every history and session pair (null: not read from the store yet). */
  private nextFullWalkAt: number | null = null;
  /** Whether the pass under way walks everything: its end schedules the next walk. */
  private walking = false;
  /** The pruning pass under way, a transaction a step. */
  private pruning: Generator<void, void, void> | null = null;
  private closing = false;
  /** Builds whose last slice failed, by build and merchant: when each may be tried again. */
  private readonly buildRetryAt = new Map<string, number>();

  /**
   * `rankingRefreshMs`: while counts keep changing, a merchant's rankings are
   * refreshed at most this often. `retention`: what pruning keeps of the
   * event log, histories and sessions. `post` answers the HTTP thread; `exit` ends
   * the thread once the store is closed.
   */
  constructor(
    private readonly store: Store,
    private readonly rankingRefreshMs: number,
    private readonly retention: Retention,
    private readonly post: (reply: EventApplierReply) => void,
    private readonly exit: () => void,
  ) {}

  /** Start-up: applies what an earlier run logged but did not get to, refreshes the lists it left stale, then says it is ready. */
  start(): void {
    let recovered = 0;
    for (const merchant of this.merchantIds()) {
      for (let applied = this.applySlice(merchant); applied > 0; applied = this.applySlice(merchant)) recovered += applied;
      this.refreshAll(merchant);
      // After the recovered events: their adds count too.
      if (this.store.rankingWriter.awaitingFirst(merchant)) this.firstRankingsAwaited.add(merchant);
    }
    this.post({ type: "ready", recovered, through: this.watermarks(), buildsPending: this.buildsPending() });
    // Builds and pruning, if any is due.
    this.schedulePoll(0);
    this.scheduleRankings(0);
  }

  handle(message: EventApplierMessage): void {
    if (message.type === "logged") {
      const now = Date.now();
      for (const [merchant, count] of message.counts) {
        const entry = this.behind.get(merchant);
        if (entry) entry.count += count;
        else this.behind.set(merchant, { count, since: now });
      }
      this.lastLoggedAt = now;
      this.schedulePoll(POLL_MS);
      return;
    }
    this.closing = true;
    if (this.rankingsTurn !== null) clearTimeout(this.rankingsTurn);
    this.store.refreshSnapshot();
    for (const merchant of this.merchantIds()) {
      while (this.applySlice(merchant) > 0);
      this.refreshAll(merchant);
    }
    this.post({ type: "applied", through: this.watermarks(), buildsPending: this.buildsPending() });
    void this.store.close().then(this.exit);
  }

  /**
   * Polls after `delayMs`, or sooner if a poll is already due sooner. A later
   * poll is brought forward: when the log was quiet and only stale lists waited
   * (REFRESH_EVERY_MS away), new events must not wait that long.
   */
  private schedulePoll(delayMs: number): void {
    if (this.closing) return;
    const at = Date.now() + delayMs;
    if (this.nextPoll !== null) {
      if (this.nextPoll.at <= at) return;
      clearTimeout(this.nextPoll.timer);
    }
    this.nextPoll = { timer: setTimeout(() => this.poll(), delayMs), at };
  }

  /** A slice for each merchant that is due, then (when a round is due) a slice of stale lists. */
  private poll(): void {
    this.nextPoll = null;
    if (this.closing) return;
    const now = Date.now();
    const quiet = now - this.lastLoggedAt >= QUIET_AFTER_MS;
    const due = [...this.behind].filter(([, { count, since }]) => count >= APPLY_SLICE || quiet || now - since >= MAX_WAIT_MS);
    if (due.length > 0) {
      // The log commits came from another thread: read from the latest state.
      this.store.refreshSnapshot();
      const through: [MerchantId, number][] = [];
      for (const [merchant, entry] of due) {
        const applied = this.applySlice(merchant);
        if (applied < APPLY_SLICE || entry.count <= applied) this.behind.delete(merchant);
        else this.behind.set(merchant, { count: entry.count - applied, since: Date.now() });
        through.push([merchant, this.store.applied.derivedSequence(merchant)]);
      }
      this.post({ type: "applied", through, buildsPending: this.buildsPending() });
    }
    this.refreshIfDue(quiet);
    const following = this.followIndexIfDue(quiet);
    // Derived stores a merchant lacks are built when nothing else is due: events first; then pruning.
    const idle = due.length === 0 && this.refreshRoundStarted === 0;
    if (idle) this.buildSlice();
    const building = this.nextBuildAt();
    const pruning = idle && building !== 0 && this.pruneStep();
    const more =
      [...this.behind.values()].some(({ count }) => count >= APPLY_SLICE) ||
      this.refreshRoundStarted !== 0 ||
      following ||
      building === 0 ||
      pruning;
    if (this.behind.size > 0 || more) this.schedulePoll(more ? 0 : POLL_MS);
    else if (this.hasStaleLists()) this.schedulePoll(REFRESH_EVERY_MS);
    // A build that waits out a failure still needs its turn, whatever else is quiet; sessions age also while no event comes.
    if (building !== null && building > 0) this.schedulePoll(building);
    this.schedulePoll(Math.max(0, this.nextPruneAt - Date.now()));
    // Events logged since the session index last followed: it follows once the log is quiet (just past, as a timer may fire early).
    if (this.indexRound === null && this.lastLoggedAt >= this.indexFollowedAt)
      this.schedulePoll(Math.max(0, this.lastLoggedAt + QUIET_AFTER_MS - Date.now()) + 1);
  }

  private scheduleRankings(delayMs: number): void {
    if (!this.closing) this.rankingsTurn = setTimeout(() => this.refreshRankings(), delayMs);
  }

  /**
   * A turn of the ranking job: each merchant whose rankings are due reads
   * counts until the turn's deadline; one whose reading is done computes its
   * lists and writes them (in their own short transaction). A refresh left
   * unfinished goes on in the next turn, at once.
   */
  private refreshRankings(): void {
    this.rankingsTurn = null;
    const now = Date.now();
    const deadline = performance.now() + RANKINGS_SLICE_MS;
    // Orders come from the HTTP thread: read from the latest state.
    this.store.refreshSnapshot();
    let unfinished = false;
    for (const merchant of this.merchantIds()) {
      try {
        if (!this.store.rankingWriter.due(merchant, now, this.rankingRefreshMs)) continue;
        if (performance.now() >= deadline || !this.store.rankingWriter.refreshStep(merchant, now, deadline)) unfinished = true;
      } catch (error) {
        // The next look tries this merchant again.
        console.error(`refreshing the rankings of ${merchant} failed: ${String((error as Error)?.stack ?? error)}`);
      }
    }
    this.settleFirstRankings();
    if (!this.refreshLeaders(now, deadline)) unfinished = true;
    this.scheduleRankings(unfinished ? 0 : Math.min(RANKINGS_LOOK_MS, this.rankingRefreshMs));
  }

  /**
   * Quick-view's leader lists of each merchant whose are due, built until
   * `deadline`, and the changed-doc entries no reader needs any more, pruned;
   * false when some of either is left.
   */
  private refreshLeaders(now: number, deadline: number): boolean {
    const { leaders } = this.store.searchIndex;
    let finished = true;
    for (const merchant of this.merchantIds()) {
      try {
        if (leaders.due(merchant, now)) {
          if (performance.now() >= deadline || !leaders.buildStep(merchant, now, deadline)) finished = false;
        } else if (leaders.prunable(merchant) && (performance.now() >= deadline || leaders.prune(merchant))) {
          finished = false;
        }
      } catch (error) {
        // The next look tries this merchant again.
        console.error(`building the search leader lists of ${merchant} failed: ${String((error as Error)?.stack ?? error)}`);
      }
    }
    return finished;
  }

  /** Forgets the awaited merchants whose first lists are stored, whoever stored them (this job, or the rankings' build). */
  private settleFirstRankings(): void {
    let settled = false;
    for (const merchant of this.firstRankingsAwaited) {
      if (this.store.rankingWriter.awaitingFirst(merchant)) continue;
      this.firstRankingsAwaited.delete(merchant);
      settled = true;
    }
    if (settled) this.post({ type: "applied", through: [], buildsPending: this.buildsPending() });
  }

  /** How many derived stores some merchant lacks, first rankings awaited included. */
  private buildsPending(): number {
    return this.store.pendingBuilds().length + this.firstRankingsAwaited.size;
  }

  /** The builds some merchant lacks that may run now (not waiting out a failure), oldest registered first. */
  private runnableBuilds(now: number) {
    return this.store
      .pendingBuilds()
      .filter(({ build, merchant }) => (this.buildRetryAt.get(`${build.name}\u0000${merchant}`) ?? 0) <= now);
  }

  /** In how many ms a build may run: 0 now, more while every one waits out a failure, null when none is left. */
  private nextBuildAt(): number | null {
    const pending = this.store.pendingBuilds();
    if (pending.length === 0) return null;
    const now = Date.now();
    const waits = pending.map(({ build, merchant }) => Math.max(0, (this.buildRetryAt.get(`${build.name}\u0000${merchant}`) ?? 0) - now));
    return Math.min(...waits);
  }

  /**
   * One slice of the first derived store a merchant lacks. One that fails
   * waits BUILD_RETRY_MS before it is tried again, while the others go on.
   * The HTTP thread hears whenever one is complete.
   */
  private buildSlice(): void {
    const [next] = this.runnableBuilds(Date.now());
    if (next === undefined) return;
    const key = `${next.build.name}\u0000${next.merchant}`;
    try {
      this.store.refreshSnapshot();
      if (!this.store.buildStepSync(next.build, next.merchant)) return;
    } catch (error) {
      // Until built, the service is not ready.
      console.error(`building ${next.build.name} of ${next.merchant} failed: ${String((error as Error)?.stack ?? error)}`);
      this.buildRetryAt.set(key, Date.now() + BUILD_RETRY_MS);
      return;
    }
    this.buildRetryAt.delete(key);
    this.post({ type: "applied", through: [], buildsPending: this.buildsPending() });
  }

  /**
   * When due, one step (a transaction) of a pruning pass; true while the pass
   * goes on. Once it is over, the next one starts PRUNE_EVERY_MS later.
   */
  private pruneStep(): boolean {
    const now = Date.now();
    try {
      if (this.pruning === null) {
        if (now < this.nextPruneAt) return false;
        this.walking = now >= this.fullWalkDueAt(now);
        this.pruning = retentionPass(this.store, this.merchantIds(), this.retention, now, this.walking);
      }
      if (!this.pruning.next().done) return true;
      if (this.walking) this.scheduleFullWalk(Date.now() + FULL_WALK_EVERY_MS);
    } catch (error) {
      console.error(`pruning to the retention failed: ${String((error as Error)?.stack ?? error)}`);
      // The next pass tries again; a full walk that failed, at the next start or an interval on, not at every pass.
      if (this.walking) this.nextFullWalkAt = Date.now() + FULL_WALK_EVERY_MS;
    }
    this.pruning = null;
    this.walking = false;
    this.nextPruneAt = Date.now() + PRUNE_EVERY_MS;
    return false;
  }

  /**
   * When the next full walk is due: as the store keeps it, so that a restart
   * does not walk again what the last run walked within the interval (at a
   * million sessions, seconds of a core while the new run's caches are
   * cold). A data dir that never walked is due at once; one scheduled further
   * ahead than an interval (by a clock that was ahead) is due an interval on.
   */
  private fullWalkDueAt(now: number): number {
    if (this.nextFullWalkAt === null) {
      const stored = this.store.applied.fullWalkDueAt();
      this.nextFullWalkAt = typeof stored === "number" ? Math.min(stored, now + FULL_WALK_EVERY_MS) : 0;
    }
    return this.nextFullWalkAt;
  }

  private scheduleFullWalk(at: number): void {
    this.nextFullWalkAt = at;
    try {
      this.store.applied.scheduleFullWalkSync(at);
    } catch (error) {
      // This run keeps to it; the next start walks at its own schedule.
      console.error(`the next retention walk could not be stored: ${String((error as Error)?.stack ?? error)}`);
    }
  }

  /** Applies up to APPLY_SLICE of the merchant's logged events; returns how many. */
  private applySlice(merchant: MerchantId): number {
    try {
      return this.store.applied.deriveEventsSync(merchant, APPLY_SLICE).applied;
    } catch (error) {
      // The log keeps the events: the next round (or the next start) tries again.
      console.error(`applying behaviour events of ${merchant} failed: ${String((error as Error)?.stack ?? error)}`);
      return 0;
    }
  }

  /**
   * When due, one slice of the session index's follow of the log, for the
   * first merchant whose index is behind; true while a round goes on. Events
   * and list refreshes are applied between slices.
   */
  private followIndexIfDue(quiet: boolean): boolean {
    const now = Date.now();
    if (this.indexRound === null) {
      const loggedSince = this.lastLoggedAt >= this.indexFollowedAt;
      if (!(quiet && loggedSince) && now - this.indexFollowedAt < INDEX_FOLLOW_EVERY_MS) return false;
      const merchants = this.merchantIds().filter((merchant) => (this.indexRetryAt.get(merchant) ?? 0) <= now);
      this.indexRound = new Map(merchants.map((merchant) => [merchant, this.store.applied.derivedSequence(merchant)]));
    }
    for (const [merchant, upTo] of this.indexRound) {
      try {
        if (
          this.store.applied.sessionIndexBehind(merchant, upTo) &&
          !this.store.applied.followSessionIndexSync(merchant, FOLLOW_SLICE, upTo)
        )
          return true;
        this.indexRetryAt.delete(merchant);
      } catch (error) {
        // Tried again after a pause; the other merchants' indexes go on following.
        console.error(`the session index of ${merchant} failed to follow the log: ${String((error as Error)?.stack ?? error)}`);
        this.indexRetryAt.set(merchant, now + INDEX_FOLLOW_EVERY_MS);
      }
      this.indexRound.delete(merchant);
    }
    this.indexRound = null;
    this.indexFollowedAt = now;
    return false;
  }

  /**
   * A round of list refreshes starts when the log is quiet, or under load once
   * REFRESH_EVERY_MS has passed since the last round ended; a started round
   * recomputes REFRESH_SLICE lists per poll until none is stale.
   */
  private refreshIfDue(quiet: boolean): void {
    if (this.refreshRoundStarted === 0 && !quiet && Date.now() - this.lastRoundEnded < REFRESH_EVERY_MS) return;
    for (const merchant of this.merchantIds()) {
      const ids = this.store.orders.staleListProducts(merchant, REFRESH_SLICE);
      if (ids.length === 0) continue;
      if (this.refreshRoundStarted === 0) this.refreshRoundStarted = Date.now();
      if (this.refresh(merchant, ids)) return;
      break; // failed: the round ends here, and the next one tries again
    }
    if (this.refreshRoundStarted !== 0) this.lastRoundEnded = Date.now();
    this.refreshRoundStarted = 0;
  }

  /** Recomputes the lists; false if that failed (they stay marked, for a later round). */
  private refresh(merchant: MerchantId, ids: number[]): boolean {
    try {
      this.store.orders.refreshNeighboursSync(merchant, ids);
      return true;
    } catch (error) {
      console.error(`refreshing bought-together lists of ${merchant} failed: ${String((error as Error)?.stack ?? error)}`);
      return false;
    }
  }

  private refreshAll(merchant: MerchantId): void {
    for (
      let ids = this.store.orders.staleListProducts(merchant, 1_000);
      ids.length > 0;
      ids = this.store.orders.staleListProducts(merchant, 1_000)
    ) {
      if (!this.refresh(merchant, ids)) return;
    }
  }

  private hasStaleLists(): boolean {
    return this.merchantIds().some((merchant) => this.store.orders.staleListProducts(merchant, 1).length > 0);
  }

  private merchantIds(): MerchantId[] {
    return this.store.catalogue.listMerchants().map((merchant) => merchant.id);
  }

  private watermarks(): [MerchantId, number][] {
    return this.merchantIds().map((merchant) => [merchant, this.store.applied.derivedSequence(merchant)]);
  }
}
