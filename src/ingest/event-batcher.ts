import type { BehaviourEvent, MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

interface Pending {
  merchant: MerchantId;
  event: BehaviourEvent;
  done: { resolve: () => void; reject: (error: unknown) => void };
}

/** Most events written in one transaction; more wait for the next one. */
const MAX_BATCH = 5_000;

/**
 * Group commit for behaviour events: while one write is committing, arriving
 * events queue up and go out together in the next write. Under load a commit
 * carries thousands of events; when idle an event is written at once. Each
 * caller is answered when the write holding its event has committed, so an
 * acknowledgement waits at most for the write in flight plus its own.
 */
export class EventBatcher {
  private queue: Pending[] = [];
  private writing = false;

  constructor(private readonly store: Store) {}

  append(merchant: MerchantId, event: BehaviourEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ merchant, event, done: { resolve, reject } });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const byMerchant = new Map<MerchantId, BehaviourEvent[]>();
      for (const { merchant, event } of batch) {
        const events = byMerchant.get(merchant) ?? [];
        events.push(event);
        byMerchant.set(merchant, events);
      }
      try {
        await Promise.all([...byMerchant].map(([merchant, events]) => this.store.appendEvents(merchant, events)));
        for (const { done } of batch) done.resolve();
      } catch (error) {
        for (const { done } of batch) done.reject(error);
      }
    }
    this.writing = false;
  }
}
