// A pass of pruning to the retention (src/stores/retention.ts), as the event
// applier runs it in the background: a generator that does one transaction
// per step, so the applier applies events between any two.
//
// The session index and the event log are pruned from their oldest end, a
// look that costs a read or two when nothing is due, so every pass does it.
// Histories and the session → merchant pairs are keyed by session, not age:
// pruning them walks every entry, which only some passes do (`fullWalk`).
import type { MerchantId } from "../core/types.js";
import { retentionCutoff, type Retention } from "../stores/retention.js";
import type { Store } from "../stores/store.js";

/** Sessions pruned per transaction (a few ms). */
export const SESSION_PRUNE_SLICE = 500;
/** Log records pruned per transaction: a record holds one commit's events of a merchant, up to a thousand in a bulk load. */
const LOG_PRUNE_SLICE = 100;
/** Histories or pairs looked at per transaction. */
const WALK_SLICE = 2_000;

export type PruningStore = Pick<Store, "applied" | "events">;

/** Prunes what is past `retention` at `now` for these merchants, a transaction per step. */
export function* retentionPass(
  store: PruningStore,
  merchants: readonly MerchantId[],
  retention: Retention,
  now: number,
  fullWalk: boolean,
): Generator<void, void, void> {
  const before = retentionCutoff(retention.days, now);
  for (const merchant of merchants) {
    yield* slices(() => store.applied.pruneSessionsSync(merchant, retention, now, SESSION_PRUNE_SLICE) === SESSION_PRUNE_SLICE);
    yield* slices(() => store.events.pruneEventLogSync(merchant, before, LOG_PRUNE_SLICE) === LOG_PRUNE_SLICE);
    if (!fullWalk) continue;
    let walk = store.applied.pruneHistoriesSync(merchant, before, null, WALK_SLICE);
    for (yield; walk !== null; yield) walk = store.applied.pruneHistoriesSync(merchant, before, walk, WALK_SLICE);
  }
  if (!fullWalk) return;
  let pair = store.events.pruneSessionPairsSync(before, now, null, WALK_SLICE);
  for (yield; pair !== null; yield) pair = store.events.pruneSessionPairsSync(before, now, pair, WALK_SLICE);
}

/** Runs `slice` a step at a time while it says more is due. */
function* slices(slice: () => boolean): Generator<void, void, void> {
  for (let more = slice(); ; more = slice()) {
    yield;
    if (!more) return;
  }
}
