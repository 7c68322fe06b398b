// Each worker keeps, per merchant, an in-memory session index fed from the
// event log: new events are read on demand (only those after the last one
// seen), so the index follows live traffic without a rebuild. At start the
// service warms it in short background steps (warmSessions), because a
// first read of a large log takes seconds (4M events: ~7 s; 40M: minutes).
// A shopper's request reads for a bounded time (sessionsForRequest).
import { IntegerIds, StringIds } from "../core/recs/id-tables.js";
import { DEFAULT_SESSION_KNN, SessionIndex, type SessionKnnConfig } from "../core/recs/session-knn.js";
import type { MerchantId } from "../core/types.js";
import type { WarmStep } from "../pool/protocol.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";

export class MerchantSessions {
  readonly index = new SessionIndex();
  /** Session uuid → the index's session number. */
  private readonly sessionOf = new StringIds();
  /** Product id → the index's item number, and back. */
  private readonly itemOf = new IntegerIds();
  private readonly productOf: number[] = [];
  private lastSequence = 0;
  /** Time spent reading the log into the index so far, over all calls. */
  busyMs = 0;

  constructor(
    private readonly store: Store,
    private readonly merchant: MerchantId,
  ) {}

  /**
   * Reads the events logged since the last call into the index, until
   * `deadline` (performance.now()) has passed; true once it has read to the
   * end of the log.
   */
  catchUp(deadline = Number.POSITIVE_INFINITY): boolean {
    if (this.store.eventSequence(this.merchant) === this.lastSequence) return true;
    const started = performance.now();
    let read = 0;
    try {
      for (const { sequence, event } of this.store.eventsSince(this.merchant, this.lastSequence)) {
        // Before this event is taken: the next call starts with it.
        if (++read % DEADLINE_CHECK_EVERY === 0 && performance.now() >= deadline) return false;
        this.lastSequence = sequence;
        if (event.verb !== "viewed" || event.uuid === null) continue;
        let session = this.sessionOf.get(event.uuid);
        if (session < 0) {
          session = this.index.newSession();
          this.sessionOf.set(event.uuid, session);
        }
        this.index.append(session, this.itemFor(event.product_id));
      }
      return true;
    } finally {
      this.busyMs += performance.now() - started;
    }
  }

  /** Whether the index holds every event of the log as this thread's snapshot sees it. */
  readToEnd(): boolean {
    return this.store.eventSequence(this.merchant) === this.lastSequence;
  }

  /**
   * Products scored as the next view after `viewed` (product ids in view order).
   * `uuid` names the session itself, kept out of its own neighbours.
   */
  scoreNext(viewed: readonly number[], uuid: string | null, config: SessionKnnConfig = DEFAULT_SESSION_KNN): Map<number, number> {
    const prefix = viewed.map((id) => this.itemOf.get(id)).filter((item) => item >= 0);
    const self = uuid === null ? -1 : this.sessionOf.get(uuid);
    const scores = new Map<number, number>();
    for (const [item, score] of this.index.query(prefix, config, self)) scores.set(this.productOf[item]!, score);
    return scores;
  }

  private itemFor(productId: number): number {
    let item = this.itemOf.get(productId);
    if (item < 0) {
      item = this.productOf.length;
      this.itemOf.set(productId, item);
      this.productOf.push(productId);
    }
    return item;
  }
}

/** Events read between looks at the clock: a look costs about as much as reading a few events. */
const DEADLINE_CHECK_EVERY = 256;

const sessionsByStore = new PerStore<MerchantId, MerchantSessions>();
/** Merchants whose index this thread has read to the end of the log at least once. */
const completeByStore = new PerStore<MerchantId, true>();

function merchantSessions(store: Store, merchant: MerchantId): MerchantSessions {
  const perMerchant = sessionsByStore.of(store);
  let sessions = perMerchant.get(merchant);
  if (!sessions) {
    sessions = new MerchantSessions(store, merchant);
    perMerchant.set(merchant, sessions);
  }
  return sessions;
}

/** This thread's session index of a merchant, brought up to date with the event log (evaluations). */
export function sessionsOf(store: Store, merchant: MerchantId): MerchantSessions {
  const sessions = merchantSessions(store, merchant);
  sessions.catchUp();
  return sessions;
}

/** Whether this thread's index of the merchant lacks events of the log (still warming up after a start). */
export function sessionIndexWarming(store: Store, merchant: MerchantId): boolean {
  return !merchantSessions(store, merchant).readToEnd();
}

/** How long a shopper's request may spend reading the log into the index. */
export const REQUEST_READ_BUDGET_MS = 2;

/**
 * This thread's session index of a merchant for a shopper's request. Until
 * the first read of the log has reached its end (the start-up warm-up: 40M
 * events take minutes), the request reads for about `budgetMs` and is
 * answered from the sessions read so far, instead of holding the worker, and
 * every shopper queued behind it, for the rest of the read; the warm-up steps
 * and later requests read on. After that, each request reads everything
 * logged since the last one, as live traffic adds a few events between them.
 */
export function sessionsForRequest(store: Store, merchant: MerchantId, budgetMs = REQUEST_READ_BUDGET_MS): MerchantSessions {
  const sessions = merchantSessions(store, merchant);
  sessions.catchUp(completeByStore.of(store).has(merchant) ? Number.POSITIVE_INFINITY : performance.now() + budgetMs);
  return sessions;
}

/**
 * One warm-up step: reads the log into this thread's index of the merchant for
 * about `sliceMs`. Done once the index has read to the end of the log; the
 * step that gets there first reports the time all steps spent reading.
 */
export function warmSessions(store: Store, merchant: MerchantId, sliceMs: number): WarmStep {
  const sessions = merchantSessions(store, merchant);
  if (!sessions.catchUp(performance.now() + sliceMs)) return { done: false, buildSeconds: null };
  const complete = completeByStore.of(store);
  if (complete.has(merchant)) return { done: true, buildSeconds: null };
  complete.set(merchant, true);
  return { done: true, buildSeconds: sessions.busyMs / 1000 };
}
