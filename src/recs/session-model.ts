// Each worker keeps, per merchant, an in-memory session index fed from the
// event log: new events are read on demand (only those after the last one
// seen), so the index follows live traffic without a rebuild.
import { DEFAULT_SESSION_KNN, SessionIndex, type SessionKnnConfig } from "../core/recs/session-knn.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

export class MerchantSessions {
  readonly index = new SessionIndex();
  private readonly sessionOf = new Map<string, number>();
  private readonly itemOf = new Map<number, number>();
  private readonly productOf: number[] = [];
  private lastSequence = 0;

  constructor(
    private readonly store: Store,
    private readonly merchant: MerchantId,
  ) {}

  /** Reads the events logged since the last call into the index. */
  catchUp(): void {
    if (this.store.eventSequence(this.merchant) === this.lastSequence) return;
    for (const { sequence, event } of this.store.eventsSince(this.merchant, this.lastSequence)) {
      this.lastSequence = sequence;
      if (event.verb !== "viewed" || event.uuid === null) continue;
      let session = this.sessionOf.get(event.uuid);
      if (session === undefined) {
        session = this.index.newSession();
        this.sessionOf.set(event.uuid, session);
      }
      this.index.append(session, this.itemFor(event.product_id));
    }
  }

  /**
   * Products scored as the next view after `viewed` (product ids in view order).
   * `uuid` names the session itself, kept out of its own neighbours.
   */
  scoreNext(viewed: readonly number[], uuid: string | null, config: SessionKnnConfig = DEFAULT_SESSION_KNN): Map<number, number> {
    const prefix = viewed.map((id) => this.itemOf.get(id)).filter((item): item is number => item !== undefined);
    const self = uuid === null ? -1 : (this.sessionOf.get(uuid) ?? -1);
    const scores = new Map<number, number>();
    for (const [item, score] of this.index.query(prefix, config, self)) scores.set(this.productOf[item]!, score);
    return scores;
  }

  private itemFor(productId: number): number {
    let item = this.itemOf.get(productId);
    if (item === undefined) {
      item = this.productOf.length;
      this.itemOf.set(productId, item);
      this.productOf.push(productId);
    }
    return item;
  }
}

const perMerchant = new Map<MerchantId, MerchantSessions>();

/** This thread's session index of a merchant, brought up to date with the event log. */
export function sessionsOf(store: Store, merchant: MerchantId): MerchantSessions {
  let sessions = perMerchant.get(merchant);
  if (!sessions) {
    sessions = new MerchantSessions(store, merchant);
    perMerchant.set(merchant, sessions);
  }
  sessions.catchUp();
  return sessions;
}
