// Events that are logged, hence acknowledged, but not yet applied to the
// stored histories: the applier thread applies them in batches, within about
// half a second under load (deriveEventsSync). Until then a viewed or viewed-related task carries the
// subject's pending events, so the newest view shows right after its
// acknowledgement. Kept on the HTTP thread, which sees every event go in and
// is told when each merchant's watermark moves.
import type { HistorySubject, PendingHistory, PendingView } from "../core/products/query.js";
import { HISTORY_LIMIT } from "../core/recs/history.js";
import type { BehaviourEvent, MerchantId } from "../core/types.js";

export const NO_PENDING: PendingHistory = { session: [], customer: [] };

/** Whoever can say which acknowledged events a subject's stored histories lack. */
export interface PendingSource {
  pendingFor(merchant: MerchantId, subject: HistorySubject): PendingHistory;
}

interface Logged {
  sequence: number;
  event: BehaviourEvent;
}

/** One merchant's pending events. Subjects are keyed by the event's own uuid string and customer id, so no key is built per event. */
interface MerchantPending {
  /** In log order: what a watermark move drops from the front. */
  logged: Logged[];
  /** Per session and per customer, oldest first. */
  sessions: Map<string, PendingView[]>;
  customers: Map<number, PendingView[]>;
  /** The applied watermark as last reported: events at or below it are not pending. */
  applied: number;
}

export class PendingEvents implements PendingSource {
  private readonly merchants = new Map<MerchantId, MerchantPending>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** A logged event, after every earlier one of its merchant. */
  add(merchant: MerchantId, sequence: number, event: BehaviourEvent): void {
    const pending = this.of(merchant);
    // The applier reads the log itself once a batch is committed, so its report can overtake the batch's flush.
    if (sequence <= pending.applied) return;
    pending.logged.push({ sequence, event });
    const view: PendingView = { sequence, product_id: event.product_id, verb: event.verb, at: event.at };
    if (event.uuid !== null) listIn(pending.sessions, event.uuid).push(view);
    if (event.customer_id !== null) listIn(pending.customers, event.customer_id).push(view);
    this.count++;
  }

  /** The merchant's events up to `sequence` are applied: forget them. */
  appliedThrough(merchant: MerchantId, sequence: number): void {
    const pending = this.of(merchant);
    if (sequence > pending.applied) pending.applied = sequence;
    const { logged } = pending;
    let applied = 0;
    while (applied < logged.length && logged[applied]!.sequence <= sequence) {
      const { event } = logged[applied]!;
      // Events are applied in log order, so each subject's oldest pending event is the one leaving.
      if (event.uuid !== null) dropOldest(pending.sessions, event.uuid);
      if (event.customer_id !== null) dropOldest(pending.customers, event.customer_id);
      applied++;
    }
    this.count -= applied;
    if (applied === logged.length) logged.length = 0;
    else logged.splice(0, applied);
  }

  pendingFor(merchant: MerchantId, subject: HistorySubject): PendingHistory {
    const pending = this.merchants.get(merchant);
    if (this.count === 0 || pending === undefined || pending.logged.length === 0) return NO_PENDING;
    return {
      session: subject.uuid === null ? [] : recent(pending.sessions.get(subject.uuid)),
      customer: subject.customerId === null ? [] : recent(pending.customers.get(subject.customerId)),
    };
  }

  private of(merchant: MerchantId): MerchantPending {
    let pending = this.merchants.get(merchant);
    if (!pending) this.merchants.set(merchant, (pending = { logged: [], sessions: new Map(), customers: new Map(), applied: 0 }));
    return pending;
  }
}

function recent(list: PendingView[] | undefined): PendingView[] {
  return list === undefined ? [] : list.slice(-HISTORY_LIMIT);
}

function listIn<K>(lists: Map<K, PendingView[]>, key: K): PendingView[] {
  let list = lists.get(key);
  if (!list) lists.set(key, (list = []));
  return list;
}

function dropOldest<K>(lists: Map<K, PendingView[]>, key: K): void {
  const list = lists.get(key);
  if (!list) return;
  if (list.length <= 1) lists.delete(key);
  else list.shift();
}
