// The event-applier thread (src/ingest/event-writer.ts): follows the event log
// and applies logged events to histories, add counts and carts, in slices
// that move each merchant's watermark in the same transaction (exactly once,
// also across a crash: at start it applies whatever an earlier run left).
// Larger slices write each session's history once for more of its events
// and touch fewer LMDB pages per event, so it waits for a full slice unless
// the log goes quiet. Then the bought-together lists that carts changed:
// recomputing one reads every partner of its product, so each is recomputed
// once per round however many carts touched it, a round at most every few
// seconds while events keep coming.
import { parentPort, workerData } from "node:worker_threads";
import type { MerchantId } from "../src/core/types.js";
import type { EventApplierMessage, EventApplierReply, EventThreadData } from "../src/ingest/event-writer.js";
import { Store } from "../src/stores/store.js";

/** Events applied in one transaction, and how many must be behind before a slice is applied under load. */
const APPLY_SLICE = 4_000;
/** How often, while something is behind but not due, the applier looks again. */
const POLL_MS = 10;
/** No event logged for this long counts as quiet: whatever is behind is applied. */
const QUIET_AFTER_MS = 50;
/** Bought-together lists recomputed per transaction. */
const REFRESH_SLICE = 50;
/** Under load, a round of list refreshes starts at most this often. */
const REFRESH_EVERY_MS = 10_000;

const { dataDir } = workerData as EventThreadData;
const store = Store.open(dataDir);
const port = parentPort!;
const post = (reply: EventApplierReply) => port.postMessage(reply);

/** Products per merchant whose bought-together lists carts changed since their last refresh. */
const staleLists = new Map<MerchantId, Set<number>>();
let refreshRoundStarted = 0;
let lastRoundEnded = 0;
/** Logged events not yet applied, per merchant, as the HTTP thread reports each log commit. */
const behind = new Map<MerchantId, number>();
let lastLoggedAt = 0;
let pollScheduled = false;
let closing = false;

// Start-up: apply what an earlier run logged but did not get to.
let recovered = 0;
for (const merchant of merchantIds()) {
  for (let applied = applySlice(merchant); applied > 0; applied = applySlice(merchant)) recovered += applied;
}
refreshAll();
post({ type: "ready", recovered, through: watermarks() });

port.on("message", (message: EventApplierMessage) => {
  if (message.type === "logged") {
    for (const [merchant, count] of message.counts) behind.set(merchant, (behind.get(merchant) ?? 0) + count);
    lastLoggedAt = Date.now();
    schedulePoll(POLL_MS);
    return;
  }
  closing = true;
  store.refreshSnapshot();
  for (const merchant of merchantIds()) while (applySlice(merchant) > 0);
  refreshAll();
  post({ type: "applied", through: watermarks() });
  void store.close().then(() => process.exit(0));
});

function schedulePoll(delayMs: number): void {
  if (pollScheduled || closing) return;
  pollScheduled = true;
  setTimeout(poll, delayMs);
}

/** One transaction of work: a slice per merchant far enough behind (or any behind, once quiet), else list refreshes. */
function poll(): void {
  pollScheduled = false;
  if (closing) return;
  const quiet = Date.now() - lastLoggedAt >= QUIET_AFTER_MS;
  const due = [...behind].filter(([, count]) => count >= APPLY_SLICE || quiet);
  if (due.length > 0) {
    // The log commits came from another thread: read from the latest state.
    store.refreshSnapshot();
    const through: [MerchantId, number][] = [];
    for (const [merchant, count] of due) {
      const applied = applySlice(merchant);
      if (applied < APPLY_SLICE || count <= applied) behind.delete(merchant);
      else behind.set(merchant, count - applied);
      through.push([merchant, store.derivedSequence(merchant)]);
    }
    post({ type: "applied", through });
  } else if (staleLists.size > 0 && (refreshRoundStarted !== 0 || quiet || Date.now() - lastRoundEnded >= REFRESH_EVERY_MS)) {
    refreshSlice();
  }
  if (behind.size > 0 || staleLists.size > 0) schedulePoll([...behind.values()].some((count) => count >= APPLY_SLICE) ? 0 : POLL_MS);
}

/** Applies up to APPLY_SLICE of the merchant's logged events; returns how many. */
function applySlice(merchant: MerchantId): number {
  try {
    const { applied, cartProducts } = store.deriveEventsSync(merchant, APPLY_SLICE);
    if (cartProducts.length > 0) {
      const stale = staleLists.get(merchant) ?? new Set<number>();
      for (const id of cartProducts) stale.add(id);
      staleLists.set(merchant, stale);
    }
    return applied;
  } catch (error) {
    // The log keeps the events: the next round (or the next start) tries again.
    console.error(`applying behaviour events of ${merchant} failed: ${String((error as Error)?.stack ?? error)}`);
    return 0;
  }
}

/** Recomputes up to REFRESH_SLICE stale bought-together lists. */
function refreshSlice(): void {
  if (refreshRoundStarted === 0) refreshRoundStarted = Date.now();
  const [merchant, stale] = staleLists.entries().next().value as [MerchantId, Set<number>];
  const ids = [...stale].slice(0, REFRESH_SLICE);
  try {
    store.refreshNeighboursSync(merchant, ids);
  } catch (error) {
    console.error(`refreshing bought-together lists of ${merchant} failed: ${String((error as Error)?.stack ?? error)}`);
  }
  for (const id of ids) stale.delete(id);
  if (stale.size === 0) staleLists.delete(merchant);
  if (staleLists.size === 0) {
    refreshRoundStarted = 0;
    lastRoundEnded = Date.now();
  }
}

function refreshAll(): void {
  for (const [merchant, stale] of staleLists) store.refreshNeighboursSync(merchant, [...stale]);
  staleLists.clear();
}

function merchantIds(): MerchantId[] {
  return store.listMerchants().map((merchant) => merchant.id);
}

function watermarks(): [MerchantId, number][] {
  return merchantIds().map((merchant) => [merchant, store.derivedSequence(merchant)]);
}
