// What the applier derives from the event log, behind it: each session's and
// customer's history, the add-to-cart day counts and the carts the
// bought-together model folds in, up to a derived watermark per merchant; and
// viewed-related's session index, which follows the applied events on a
// watermark of its own.
import { CopurchaseDelta } from "../core/recs/copurchase.js";
import { dayNumber } from "../core/recs/days.js";
import { appendToHistory, emptyHistory, productsWithVerb, type History } from "../core/recs/history.js";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import { DailyCounts, type CountChange } from "./daily-counts.js";
import type { Environment } from "./environment.js";
import { EventHistories, type HistoryWalk } from "./event-histories.js";
import type { EventLog } from "./event-log.js";
import type { Key } from "./merchant-keys.js";
import type { OrderStore } from "./order-store.js";
import type { Retention } from "./retention.js";
import type { AppliedEventLog, SessionIndex } from "./session-index.js";

/** The meta key of a merchant's derived watermark (see deriveEventsSync). */
export function derivedKey(merchant: MerchantId): string {
  return `event_derived:${merchant}`;
}

/** The meta key of when a pruning pass is next due to walk every history and session pair (see EventApplier). */
const FULL_WALK_DUE_KEY = "retention_full_walk_due";

/** The parts the applied events read and feed. */
export interface AppliedEventsParts {
  log: EventLog;
  /** The bought-together model, which the applied carts change. */
  orders: OrderStore;
  sessionIndex: SessionIndex;
  /** The log as far as it is applied: what the session index follows. */
  appliedLog: AppliedEventLog;
  /** Whether the merchant's session index is built (until then its build takes the events in). */
  sessionIndexBuilt(merchant: MerchantId): boolean;
}

export class AppliedEvents {
  /** Recent events per [merchant, "session" | "customer", id]. */
  readonly histories: EventHistories;
  /** Add-to-cart events per day and product: a demand signal beside sales. */
  readonly dailyAdds: DailyCounts;

  constructor(
    private readonly env: Environment,
    private readonly parts: AppliedEventsParts,
  ) {
    this.histories = new EventHistories(env.root);
    this.dailyAdds = new DailyCounts(env.root, "adds_by_day_product", "adds_day_stamps");
  }

  /**
   * Applies the oldest logged events not yet applied — at most `maxEvents` —
   * to each session's and customer's history and the add-to-cart day counts
   * (the session index follows on its own: followSessionIndexSync), logs their carts for the bought-together model,
   * marks the lists those carts change as stale and moves the merchant's
   * derived watermark past them, in one transaction: each event is applied
   * exactly once, also after a crash between the two commits. Returns how
   * many events it applied (0: nothing was behind) and the products whose
   * bought-together lists the carts change: the caller refreshes those
   * (refreshNeighboursSync, which folds the carts into the counts first), at
   * its own pace, since recomputing a list reads every partner of the product.
   */
  deriveEventsSync(merchant: MerchantId, maxEvents: number): { applied: number; cartProducts: number[] } {
    return this.env.root.transactionSync(() => this.deriveInTransaction(merchant, maxEvents));
  }

  /**
   * Appends behaviour events and applies them at once: for bulk loaders
   * (demo seed, evaluations, imports), which want everything in place when
   * this resolves, and run while no service writes to the log. The service
   * acknowledges after the log alone (logEvents) and derives behind it
   * (deriveEventsSync).
   */
  async appendEvents(merchant: MerchantId, events: BehaviourEvent[]): Promise<void> {
    const { log, orders, sessionIndex, appliedLog } = this.parts;
    await log.append(merchant, events);
    await this.env.root.transaction(() => {
      // Everything behind the watermark, so events the service logged and has not applied yet keep their order.
      this.deriveInTransaction(merchant, Number.POSITIVE_INFINITY);
      if (this.parts.sessionIndexBuilt(merchant)) sessionIndex.follow(merchant, appliedLog, Number.POSITIVE_INFINITY);
      orders.refreshStaleLists(merchant);
    });
  }

  private deriveInTransaction(merchant: MerchantId, maxEvents: number): { applied: number; cartProducts: number[] } {
    const after = this.derivedSequence(merchant);
    const events: BehaviourEvent[] = [];
    let through = after;
    for (const { sequence, event } of this.parts.log.eventsSince(merchant, after)) {
      if (events.length >= maxEvents) break;
      events.push(event);
      through = sequence;
    }
    if (events.length === 0) return { applied: 0, cartProducts: [] };
    const cartProducts = this.writeDerived(merchant, events, through);
    // Marked in the same transaction as the counts they follow: a crash before the refresh leaves the marks.
    this.parts.orders.markListsStale(merchant, cartProducts);
    this.env.meta.put(derivedKey(merchant), through);
    return { applied: events.length, cartProducts };
  }

  /**
   * Whether viewed-related's session index has applied events of the log to
   * take in, up to `upTo` (a data dir building it: no, the build takes them).
   */
  sessionIndexBehind(merchant: MerchantId, upTo = Number.POSITIVE_INFINITY): boolean {
    const applied = Math.min(this.derivedSequence(merchant), upTo);
    return this.parts.sessionIndexBuilt(merchant) && this.parts.sessionIndex.through(merchant) < applied;
  }

  /** Takes up to `maxEvents` applied events (up to `upTo`) into the session index in one transaction; true once it has reached them. */
  followSessionIndexSync(merchant: MerchantId, maxEvents: number, upTo = Number.POSITIVE_INFINITY): boolean {
    return this.env.root.transactionSync(() => this.parts.sessionIndex.follow(merchant, this.parts.appliedLog, maxEvents, upTo));
  }

  /** Prunes up to `limit` of the merchant's sessions past `retention` at `now` in one transaction; returns how many (below `limit`: done). */
  pruneSessionsSync(merchant: MerchantId, retention: Retention, now: number, limit: number): number {
    return this.env.root.transactionSync(() => this.parts.sessionIndex.prune(merchant, retention, now, limit));
  }

  /**
   * When a pruning pass is next due to walk every history and session pair
   * (epoch ms); undefined until one is scheduled. Kept in the data dir, so
   * that a restart does not walk again what a run walked minutes before.
   */
  fullWalkDueAt(): number | undefined {
    return this.env.meta.get(FULL_WALK_DUE_KEY) as number | undefined;
  }

  /** Schedules the next full walk at `at` (epoch ms), in a transaction of its own. */
  scheduleFullWalkSync(at: number): void {
    this.env.root.transactionSync(() => {
      this.env.meta.put(FULL_WALK_DUE_KEY, at);
    });
  }

  /** A slice of a walk over the merchant's histories, removing those whose latest event is before `before` (EventHistories.prune). */
  pruneHistoriesSync(merchant: MerchantId, before: number, walk: HistoryWalk | null, limit: number): HistoryWalk | null {
    return this.env.root.transactionSync(() => this.histories.prune(merchant, before, walk, limit));
  }

  /** The last event sequence whose histories, add counts and carts are stored (0: none yet). */
  derivedSequence(merchant: MerchantId): number {
    return (this.env.meta.get(derivedKey(merchant)) as number | undefined) ?? 0;
  }

  /**
   * Applies logged events, in log order, to everything derived from them (in
   * the caller's transaction) but the bought-together model, whose carts are
   * logged for the next list refresh to fold in: returns the products whose
   * lists the carts change.
   */
  private writeDerived(merchant: MerchantId, events: readonly BehaviourEvent[], through: number): number[] {
    // Each history touched by this batch, and the events the batch adds to it: keyed by the event's own
    // uuid string and customer id, so that no key is built per event (a 16k slice looks one up per event).
    const sessions = new Map<string, Appended>();
    const customers = new Map<number, Appended>();
    const adds: CountChange[] = [];
    const carts = new CopurchaseDelta();
    for (const event of events) {
      if (event.verb === "added") {
        adds.push([dayNumber(event.at), event.product_id, 1]);
        if (event.uuid !== null) {
          // Only an add-to-cart needs the session's history: its earlier adds are the cart.
          const entry = appendedTo(sessions, merchant, "session", event.uuid);
          const history = this.histories.read(entry.key) ?? emptyHistory();
          for (const earlier of entry.events) appendToHistory(history, earlier);
          carts.addCartItem(productsWithVerb(history, "added"), event.product_id, event.at, this.parts.orders.copurchase);
        }
      }
      if (event.uuid !== null) appendedTo(sessions, merchant, "session", event.uuid).events.push(event);
      if (event.customer_id !== null) {
        appendedTo(customers, merchant, "customer", event.customer_id).events.push(event);
      }
    }
    for (const { key, events: appended } of sessions.values()) this.histories.append(key, appended);
    for (const { key, events: appended } of customers.values()) this.histories.append(key, appended);
    this.dailyAdds.add(merchant, adds);
    if (carts.items.size === 0) return [];
    this.parts.orders.addCarts(merchant, through, carts);
    return [...carts.touched];
  }

  /** The stored history: events after derivedSequence are not in it yet. */
  sessionHistory(merchant: MerchantId, uuid: string): History | undefined {
    return this.histories.read([merchant, "session", uuid]);
  }

  customerHistory(merchant: MerchantId, customerId: number): History | undefined {
    return this.histories.read([merchant, "customer", customerId]);
  }
}

/** A history a batch of events touches, and the events the batch adds to it. */
interface Appended {
  key: Key;
  events: BehaviourEvent[];
}

/** The entry of the `kind` history `id` in `entries`, added if it is not there yet. */
function appendedTo<Id extends string | number>(
  entries: Map<Id, Appended>,
  merchant: MerchantId,
  kind: "session" | "customer",
  id: Id,
): Appended {
  let entry = entries.get(id);
  if (entry === undefined) entries.set(id, (entry = { key: [merchant, kind, id], events: [] }));
  return entry;
}
