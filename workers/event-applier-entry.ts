// The event-applier thread (src/ingest/event-writer.ts): follows the event log
// and applies logged events to histories, add counts and carts, in slices
// that move each merchant's watermark in the same transaction (exactly once,
// also across a crash: at start it applies whatever an earlier run left).
// Larger slices write each session's history once for more of its events and
// touch fewer LMDB pages per event, so a merchant's events wait for a full
// slice, for MAX_WAIT_MS, or for a quiet log, whichever comes first. Then the
// bought-together lists that carts changed (marked stale in LMDB with the
// slice's cart record): a round of refreshes folds the carts into the counts
// and recomputes each list once however many carts touched it (recomputing
// one reads every partner of its product), a round at most every
// REFRESH_EVERY_MS while events keep coming.
import { parentPort, workerData } from "node:worker_threads";
import type { MerchantId } from "../src/core/types.js";
import type { EventApplierMessage, EventApplierReply, EventThreadData } from "../src/ingest/event-writer.js";
import { Store } from "../src/stores/store.js";

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

const { dataDir } = workerData as EventThreadData;
const store = Store.open(dataDir);
const port = parentPort!;
const post = (reply: EventApplierReply) => port.postMessage(reply);

/** Logged events not yet applied, per merchant, as the HTTP thread reports each log commit, and since when. */
const behind = new Map<MerchantId, { count: number; since: number }>();
let lastLoggedAt = 0;
let refreshRoundStarted = 0;
let lastRoundEnded = 0;
/** The next poll, if one is scheduled, and when it is due. */
let nextPoll: { timer: NodeJS.Timeout; at: number } | null = null;
let closing = false;

// Start-up: apply what an earlier run logged but did not get to, and refresh the lists it left stale.
let recovered = 0;
for (const merchant of merchantIds()) {
  for (let applied = applySlice(merchant); applied > 0; applied = applySlice(merchant)) recovered += applied;
  refreshAll(merchant);
}
post({ type: "ready", recovered, through: watermarks() });

port.on("message", (message: EventApplierMessage) => {
  if (message.type === "logged") {
    const now = Date.now();
    for (const [merchant, count] of message.counts) {
      const entry = behind.get(merchant);
      if (entry) entry.count += count;
      else behind.set(merchant, { count, since: now });
    }
    lastLoggedAt = now;
    schedulePoll(POLL_MS);
    return;
  }
  closing = true;
  store.refreshSnapshot();
  for (const merchant of merchantIds()) {
    while (applySlice(merchant) > 0);
    refreshAll(merchant);
  }
  post({ type: "applied", through: watermarks() });
  void store.close().then(() => process.exit(0));
});

/**
 * Polls after `delayMs`, or sooner if a poll is already due sooner. A later
 * poll is brought forward: when the log was quiet and only stale lists waited
 * (REFRESH_EVERY_MS away), new events must not wait that long.
 */
function schedulePoll(delayMs: number): void {
  if (closing) return;
  const at = Date.now() + delayMs;
  if (nextPoll !== null) {
    if (nextPoll.at <= at) return;
    clearTimeout(nextPoll.timer);
  }
  nextPoll = { timer: setTimeout(poll, delayMs), at };
}

/** A slice for each merchant that is due, then (when a round is due) a slice of stale lists. */
function poll(): void {
  nextPoll = null;
  if (closing) return;
  const now = Date.now();
  const quiet = now - lastLoggedAt >= QUIET_AFTER_MS;
  const due = [...behind].filter(([, { count, since }]) => count >= APPLY_SLICE || quiet || now - since >= MAX_WAIT_MS);
  if (due.length > 0) {
    // The log commits came from another thread: read from the latest state.
    store.refreshSnapshot();
    const through: [MerchantId, number][] = [];
    for (const [merchant, entry] of due) {
      const applied = applySlice(merchant);
      if (applied < APPLY_SLICE || entry.count <= applied) behind.delete(merchant);
      else behind.set(merchant, { count: entry.count - applied, since: Date.now() });
      through.push([merchant, store.derivedSequence(merchant)]);
    }
    post({ type: "applied", through });
  }
  refreshIfDue(quiet);
  const more = [...behind.values()].some(({ count }) => count >= APPLY_SLICE) || refreshRoundStarted !== 0;
  if (behind.size > 0 || more) schedulePoll(more ? 0 : POLL_MS);
  else if (hasStaleLists()) schedulePoll(REFRESH_EVERY_MS);
}

/** Applies up to APPLY_SLICE of the merchant's logged events; returns how many. */
function applySlice(merchant: MerchantId): number {
  try {
    return store.deriveEventsSync(merchant, APPLY_SLICE).applied;
  } catch (error) {
    // The log keeps the events: the next round (or the next start) tries again.
    console.error(`applying behaviour events of ${merchant} failed: ${String((error as Error)?.stack ?? error)}`);
    return 0;
  }
}

/**
 * A round of list refreshes starts when the log is quiet, or under load once
 * REFRESH_EVERY_MS has passed since the last round ended; a started round
 * recomputes REFRESH_SLICE lists per poll until none is stale.
 */
function refreshIfDue(quiet: boolean): void {
  if (refreshRoundStarted === 0 && !quiet && Date.now() - lastRoundEnded < REFRESH_EVERY_MS) return;
  for (const merchant of merchantIds()) {
    const ids = store.staleListProducts(merchant, REFRESH_SLICE);
    if (ids.length === 0) continue;
    if (refreshRoundStarted === 0) refreshRoundStarted = Date.now();
    if (refresh(merchant, ids)) return;
    break; // failed: the round ends here, and the next one tries again
  }
  if (refreshRoundStarted !== 0) lastRoundEnded = Date.now();
  refreshRoundStarted = 0;
}

/** Recomputes the lists; false if that failed (they stay marked, for a later round). */
function refresh(merchant: MerchantId, ids: number[]): boolean {
  try {
    store.refreshNeighboursSync(merchant, ids);
    return true;
  } catch (error) {
    console.error(`refreshing bought-together lists of ${merchant} failed: ${String((error as Error)?.stack ?? error)}`);
    return false;
  }
}

function refreshAll(merchant: MerchantId): void {
  for (let ids = store.staleListProducts(merchant, 1_000); ids.length > 0; ids = store.staleListProducts(merchant, 1_000)) {
    if (!refresh(merchant, ids)) return;
  }
}

function hasStaleLists(): boolean {
  return merchantIds().some((merchant) => store.staleListProducts(merchant, 1).length > 0);
}

function merchantIds(): MerchantId[] {
  return store.listMerchants().map((merchant) => merchant.id);
}

function watermarks(): [MerchantId, number][] {
  return merchantIds().map((merchant) => [merchant, store.derivedSequence(merchant)]);
}
