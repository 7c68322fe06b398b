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

export class PendingEvents implements PendingSource {
  /** Per merchant, in log order: what a watermark move drops from the front. */
  private readonly byMerchant = new Map<MerchantId, Logged[]>();
  /** Per session and per customer, oldest first. */
  private readonly bySubject = new Map<string, PendingView[]>();
  /** Each merchant's applied watermark as last reported: events at or below it are not pending. */
  private readonly applied = new Map<MerchantId, number>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** A logged event, after every earlier one of its merchant. */
  add(merchant: MerchantId, sequence: number, event: BehaviourEvent): void {
    // The applier reads the log itself, so its report can overtake the log thread's.
    if (sequence <= (this.applied.get(merchant) ?? 0)) return;
    let logged = this.byMerchant.get(merchant);
    if (!logged) this.byMerchant.set(merchant, (logged = []));
    logged.push({ sequence, event });
    const view: PendingView = { sequence, product_id: event.product_id, verb: event.verb, at: event.at };
    if (event.uuid !== null) this.listOf(sessionKey(merchant, event.uuid)).push(view);
    if (event.customer_id !== null) this.listOf(customerKey(merchant, event.customer_id)).push(view);
    this.count++;
  }

  /** The merchant's events up to `sequence` are applied: forget them. */
  appliedThrough(merchant: MerchantId, sequence: number): void {
    if (sequence > (this.applied.get(merchant) ?? 0)) this.applied.set(merchant, sequence);
    const logged = this.byMerchant.get(merchant);
    if (!logged) return;
    let applied = 0;
    while (applied < logged.length && logged[applied]!.sequence <= sequence) {
      const { event } = logged[applied]!;
      // Events are applied in log order, so each subject's oldest pending event is the one leaving.
      if (event.uuid !== null) this.dropOldest(sessionKey(merchant, event.uuid));
      if (event.customer_id !== null) this.dropOldest(customerKey(merchant, event.customer_id));
      applied++;
    }
    this.count -= applied;
    if (applied === logged.length) this.byMerchant.delete(merchant);
    else logged.splice(0, applied);
  }

  pendingFor(merchant: MerchantId, subject: HistorySubject): PendingHistory {
    if (this.count === 0) return NO_PENDING;
    const recent = (key: string) => (this.bySubject.get(key) ?? []).slice(-HISTORY_LIMIT);
    return {
      session: subject.uuid === null ? [] : recent(sessionKey(merchant, subject.uuid)),
      customer: subject.customerId === null ? [] : recent(customerKey(merchant, subject.customerId)),
    };
  }

  private listOf(key: string): PendingView[] {
    let list = this.bySubject.get(key);
    if (!list) this.bySubject.set(key, (list = []));
    return list;
  }

  private dropOldest(key: string): void {
    const list = this.bySubject.get(key);
    if (!list) return;
    if (list.length <= 1) this.bySubject.delete(key);
    else list.shift();
  }
}

function sessionKey(merchant: MerchantId, uuid: string): string {
  return `${merchant}\u0000s\u0000${uuid}`;
}

function customerKey(merchant: MerchantId, customerId: number): string {
  return `${merchant}\u0000c\u0000${customerId}`;
}
