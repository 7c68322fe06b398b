// Browsing sessions: the behaviour event stream, generated a day at a time and
// yielded in time order.

import type { Rng } from "../core/random.js";
import type { BehaviourEvent } from "../core/types.js";
import { DAY_MS, DAY_S, type Config } from "./options.js";
import { at, stream } from "./random.js";
import { pickComplement, pickForCustomer, pickPopular, pickRisingProduct, pickSimilar, timesByDay, type Shopper } from "./shopper.js";

/** Views per session: MIN_VIEWS to MAX_VIEWS, skewed towards few. */
const MIN_VIEWS = 2;
const MAX_VIEWS = 12;
/** Pauses within a session in ms: from a view to adding to the cart, from adding to removing, and on to the next view. */
const ADD_AFTER_MS = { min: 2_000, max: 20_000 } as const;
const REMOVE_AFTER_MS = { min: 5_000, max: 60_000 } as const;
const NEXT_VIEW_AFTER_MS = { min: 5_000, max: 180_000 } as const;
/**
 * A bound on a session's length, first event to last: as if every view were
 * followed by an add, a remove and the longest pause (the last view's pause is
 * not even part of the session).
 */
const MAX_SESSION_MS = MAX_VIEWS * (ADD_AFTER_MS.max + REMOVE_AFTER_MS.max + NEXT_VIEW_AFTER_MS.max);

const byTime = (a: BehaviourEvent, b: BehaviourEvent): number => a.at - b.at;

/**
 * Sessions of 2–12 views in time order that wander along the same structure as
 * baskets (complements, alternatives of the same type, popular items), with the
 * odd add/remove. Yielded sorted by time, as a live stream would arrive: the
 * order of one stable sort of every event by `at`, holding about a day of events
 * at a time rather than all of them.
 *
 * After each day, the events below that day's floor (see laterEventsFloor) are
 * final: no event generated later can sort before them. The rest wait, sorted,
 * and the next day's events are appended behind them before sorting again.
 * That reproduces the one big sort (Array.prototype.sort is stable): an event
 * waiting from earlier days was also generated earlier, so among equal times it
 * stays in front, exactly where the big sort keeps it.
 */
export function* generateEvents(cfg: Config, s: Shopper): Generator<BehaviourEvent, void, undefined> {
  let waiting: BehaviourEvent[] = [];
  let day = 0;
  for (const dayEvents of eventsByDay(cfg, s)) {
    waiting = waiting.concat(dayEvents).sort(byTime);
    const final = countEarlier(waiting, laterEventsFloor(cfg, day++));
    yield* waiting.slice(0, final);
    waiting = waiting.slice(final);
  }
  yield* waiting;
}

/**
 * The earliest time an event generated for a day after `day` can have.
 *  - A later day's session starts no earlier than that day's first second
 *    (timesByDay), and browse only moves forward from the start.
 *  - A session that would end after now is shifted back to end at now, which
 *    puts its first event at now minus its length, after now - MAX_SESSION_MS.
 *    (Only the last day's sessions can reach now, and after the last day
 *    everything is yielded anyway; the bound just does not depend on that.)
 *  - Clamping to the window start only moves events later.
 * Events equal to the floor could be final too; strictly below is simply safe.
 */
function laterEventsFloor(cfg: Config, day: number): number {
  const nextDayStartMs = (cfg.windowStartS + (day + 1) * DAY_S) * 1000;
  return Math.min(nextDayStartMs, cfg.nowMs - MAX_SESSION_MS);
}

/** How many of these events, sorted by time, are earlier than `time` (binary search). */
function countEarlier(sorted: readonly BehaviourEvent[], time: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(sorted, mid).at < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Each day's events in generation order: its sessions by start time, each session's events kept inside [now - days, now]. */
function* eventsByDay(cfg: Config, s: Shopper): Generator<BehaviourEvent[], void, undefined> {
  const rng = stream(cfg.seed, "sessions");
  const windowStartMs = cfg.nowMs - cfg.days * DAY_MS;
  // Starting sessions in time order leaves the sort only short overlaps to fix.
  for (const starts of timesByDay(cfg, s, rng, cfg.sessions)) {
    const events: BehaviourEvent[] = [];
    for (const startS of starts) {
      const session = browse(s, rng, startS, startS * 1000 + rng.int(0, 999));
      // Keep the whole session inside [now - days, now].
      const last = session[session.length - 1]?.at ?? 0;
      const shift = Math.max(0, last - cfg.nowMs);
      for (const e of session) {
        e.at = Math.max(windowStartMs, e.at - shift);
        events.push(e);
      }
    }
    yield events;
  }
}

function browse(s: Shopper, rng: Rng, startS: number, startMs: number): BehaviourEvent[] {
  const uuid = rng.uuid();
  const customer = rng.chance(0.1) ? s.customers.activity.sample(rng) : -1;
  const customerId = customer < 0 ? null : s.customers.ids[customer]!;
  const views = MIN_VIEWS + Math.floor(Math.pow(rng.next(), 1.8) * (MAX_VIEWS - MIN_VIEWS + 1));
  const events: BehaviourEvent[] = [];
  const emit = (verb: BehaviourEvent["verb"], p: number, atMs: number): void => {
    events.push({ at: atMs, uuid, customer_id: customerId, verb, product_id: s.catalogue.ids[p]!, theme_id: null });
  };

  let t = startMs;
  let current = pickRisingProduct(s, rng, startS);
  if (current < 0) current = pickForCustomer(s, rng, startS, customer);
  if (current < 0) return events;
  for (let v = 0; v < views; v++) {
    emit("viewed", current, t);
    if (rng.chance(0.1)) {
      t += rng.int(ADD_AFTER_MS.min, ADD_AFTER_MS.max);
      emit("added", current, t);
      if (rng.chance(0.15)) {
        t += rng.int(REMOVE_AFTER_MS.min, REMOVE_AFTER_MS.max);
        emit("removed", current, t);
      }
    }
    t += rng.int(NEXT_VIEW_AFTER_MS.min, NEXT_VIEW_AFTER_MS.max);
    const r = rng.next();
    const tS = Math.floor(t / 1000);
    let next = r < 0.4 ? pickComplement(s, rng, current, tS) : r < 0.75 ? pickSimilar(s, rng, current, tS) : -1;
    if (next < 0) next = pickPopular(s, rng, tS);
    // Nothing found (tiny catalogue): the shopper looks at the same product again.
    if (next >= 0) current = next;
  }
  return events;
}
