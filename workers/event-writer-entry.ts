// The event-writer thread (src/ingest/event-writer.ts). Log batches come
// first: those that arrive while a commit is under way are logged together in
// the next one, and the HTTP thread is told at once so it can acknowledge
// them. Applying logged events to histories, counts and carts comes second,
// in slices between log commits, so an acknowledgement waits for one slice at
// most while the slices keep up with the log. Last come the bought-together
// lists that carts changed: recomputing one reads every partner of its
// product, so each is recomputed once per round however many carts touched
// it, a round at most every few seconds while events keep coming.
import { parentPort, workerData } from "node:worker_threads";
import type { BehaviourEvent, MerchantId } from "../src/core/types.js";
import type { EventBatchMessage, EventWriterData, EventWriterReply } from "../src/ingest/event-writer.js";
import { Store } from "../src/stores/store.js";

/** Most events in one log commit: a burst is split so its first events are answered sooner. */
const MAX_EVENTS_PER_COMMIT = 5_000;
/**
 * Events applied in one transaction, and how far behind the log the writer
 * lets them get before applying while log batches keep coming. Larger slices
 * write each session's history once for more of its events and fewer LMDB
 * pages per event; a log commit can wait behind one slice.
 */
const APPLY_SLICE = 4_000;
/** With no log commit for this long, the writer counts as idle and applies whatever is behind. */
const IDLE_AFTER_MS = 50;
/** Bought-together lists recomputed per transaction. */
const REFRESH_SLICE = 50;
/** Under load, a round of list refreshes starts at most this often. */
const REFRESH_EVERY_MS = 10_000;

const { dataDir } = workerData as EventWriterData;
const store = Store.open(dataDir);
const port = parentPort!;
const post = (reply: EventWriterReply) => port.postMessage(reply);

let queued: EventBatchMessage[] = [];
let drainScheduled = false;
let applyScheduled = false;
/** Merchants with logged events not yet applied, and how many in all. */
const behind = new Set<MerchantId>();
let behindCount = 0;
/** Products per merchant whose bought-together lists carts changed since their last refresh. */
const staleLists = new Map<MerchantId, Set<number>>();
let refreshRoundStarted = 0;
let lastRoundEnded = 0;
let lastLogCommit = 0;

// Start-up: apply what an earlier run logged but did not get to (a crash between the two commits).
let recovered = 0;
for (const merchant of store.listMerchants()) recovered += applyAll(merchant.id);
post({ type: "ready", recovered });

port.on("message", (message: EventBatchMessage | { type: "close" }) => {
  if (message.type === "close") {
    for (const merchant of behind) applyAll(merchant);
    for (const [merchant, ids] of staleLists) store.refreshNeighboursSync(merchant, [...ids]);
    void store.close().then(() => process.exit(0));
    return;
  }
  queued.push(message);
  if (!drainScheduled) {
    drainScheduled = true;
    // After every message already waiting has been received.
    setImmediate(drain);
  }
});

function drain(): void {
  drainScheduled = false;
  const batches = queued;
  queued = [];
  let start = 0;
  while (start < batches.length) {
    let end = start;
    let count = 0;
    while (end < batches.length && (count === 0 || count + batches[end]!.events.length <= MAX_EVENTS_PER_COMMIT)) {
      count += batches[end]!.events.length;
      end++;
    }
    logCommit(batches.slice(start, end));
    start = end;
  }
  scheduleApply();
}

function logCommit(batches: EventBatchMessage[]): void {
  const ids = batches.map((batch) => batch.id);
  try {
    const groups = groupByMerchant(batches);
    const firsts = store.appendEventLogSync(groups);
    for (const [merchant, events] of groups) {
      behind.add(merchant);
      behindCount += events.length;
    }
    lastLogCommit = Date.now();
    post({ type: "committed", ids, firsts: [...firsts] });
  } catch (error) {
    post({ type: "failed", ids, message: String((error as Error)?.message ?? error) });
  }
}

function scheduleApply(): void {
  if (applyScheduled || (behind.size === 0 && staleLists.size === 0)) return;
  applyScheduled = true;
  // While events keep coming, drain() calls again after each log commit; once they stop, this timer finds the writer idle.
  setTimeout(applySlice, behindCount >= APPLY_SLICE || idle() ? 0 : IDLE_AFTER_MS);
}

function idle(): boolean {
  return queued.length === 0 && Date.now() - lastLogCommit >= IDLE_AFTER_MS;
}

/**
 * The writer's background work, one transaction per call, log batches always
 * first: a slice of logged events per merchant that is behind, once a full
 * slice is behind or the writer is idle; else a slice of stale
 * bought-together lists, once a round is due.
 */
function applySlice(): void {
  applyScheduled = false;
  if (queued.length > 0) return; // drain() comes first, and calls again
  if (behind.size > 0 && (behindCount >= APPLY_SLICE || idle())) applyEvents();
  else if (staleLists.size > 0 && refreshDue()) refreshLists();
  scheduleApply();
}

function applyEvents(): void {
  const through: [MerchantId, number][] = [];
  for (const merchant of [...behind]) {
    try {
      const { applied, cartProducts } = store.deriveEventsSync(merchant, APPLY_SLICE);
      behindCount = Math.max(0, behindCount - applied);
      if (applied < APPLY_SLICE) behind.delete(merchant);
      if (cartProducts.length > 0) {
        const stale = staleLists.get(merchant) ?? new Set<number>();
        for (const id of cartProducts) stale.add(id);
        staleLists.set(merchant, stale);
      }
      through.push([merchant, store.derivedSequence(merchant)]);
    } catch (error) {
      // The log holds the events: the merchant's next log commit (or the next start) tries again.
      behind.delete(merchant);
      console.error(`applying behaviour events of ${merchant} failed: ${String((error as Error)?.stack ?? error)}`);
    }
  }
  if (through.length > 0) post({ type: "applied", through });
  if (behind.size === 0) behindCount = 0;
}

/**
 * A round of list refreshes starts when the writer is idle, or under load once
 * REFRESH_EVERY_MS has passed since the last round ended; a started round goes
 * on until no list is stale.
 */
function refreshDue(): boolean {
  return refreshRoundStarted !== 0 || idle() || Date.now() - lastRoundEnded >= REFRESH_EVERY_MS;
}

/** Recomputes up to REFRESH_SLICE stale bought-together lists. */
function refreshLists(): void {
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

/** Applies every logged event of the merchant not yet applied, lists included; returns how many. */
function applyAll(merchant: MerchantId): number {
  let total = 0;
  let applied: number;
  const lists = new Set<number>();
  do {
    const slice = store.deriveEventsSync(merchant, APPLY_SLICE);
    applied = slice.applied;
    total += applied;
    for (const id of slice.cartProducts) lists.add(id);
  } while (applied === APPLY_SLICE);
  if (lists.size > 0) store.refreshNeighboursSync(merchant, [...lists]);
  behind.delete(merchant);
  return total;
}

/** Events per merchant, in arrival order. */
function groupByMerchant(batches: readonly EventBatchMessage[]): Map<MerchantId, BehaviourEvent[]> {
  const groups = new Map<MerchantId, BehaviourEvent[]>();
  for (const { merchants, events } of batches) {
    events.forEach((event, i) => {
      const merchant = merchants[i]!;
      const list = groups.get(merchant);
      if (list) list.push(event);
      else groups.set(merchant, [event]);
    });
  }
  return groups;
}
