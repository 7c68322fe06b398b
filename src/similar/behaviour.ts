// Behaviour the encoder is fine-tuned on, read from the store: each order's
// products and each session's viewed products, weighted towards the recent.
// Built in typed arrays: at 1M products the event log holds tens of millions
// of views in millions of sessions, which as Maps and arrays took gigabytes.
import { DEFAULT_COPURCHASE } from "../core/recs/copurchase.js";
import { StringIds } from "../core/recs/id-tables.js";
import { IntListPool } from "../core/recs/int-list-pool.js";
import { grownTo } from "../core/typed-arrays.js";
import type { BehaviourGroups } from "../core/embedding/train.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import type { Checkpoint } from "./cancellation.js";

/** Views this many steps apart in a session still count as "viewed together". */
const VIEW_WINDOW = 3;
/** Baskets and sessions longer than this are cut: the rest adds noise, not signal. */
const MAX_GROUP = 50;
/** Not a catalogue index: the product is unknown (deleted since). */
const UNKNOWN = -1;

export interface BehaviourSummary {
  orders: number;
  viewSessions: number;
  productsWithBehaviour: number;
}

/**
 * `indexOf` maps product ids to catalogue positions (unknown products are
 * skipped). Weights: recency (the co-purchase model's half-life) times the
 * square root of the pairs a group holds, so a big basket counts more than a
 * pair but not quadratically more. Orders come first, then sessions in the
 * order of their first view.
 */
export function behaviourGroups(
  store: Store,
  merchant: MerchantId,
  indexOf: Map<number, number>,
  checkpoint: Checkpoint,
): { groups: BehaviourGroups; summary: BehaviourSummary } {
  const groups = new GroupsBuilder();
  for (const order of store.orders.allOrders(merchant)) {
    checkpoint();
    if (order.cancelled_at !== null) continue;
    groups.add(
      order.line_items.map((line) => indexOf.get(line.product_id) ?? UNKNOWN),
      Date.parse(order.created_at),
      0,
    );
  }
  const orderGroups = groups.size;

  // Each session's views, as catalogue indexes, and the time of its last view.
  const sessions = new StringIds();
  const views = new IntListPool();
  let lastViewAt = new Float64Array(1024);
  for (const { event } of store.events.eventsSince(merchant, 0)) {
    checkpoint();
    if (event.verb !== "viewed" || event.uuid === null) continue;
    let session = sessions.get(event.uuid);
    if (session < 0) {
      session = views.add();
      sessions.set(event.uuid, session);
      if (session === lastViewAt.length) lastViewAt = grownTo(lastViewAt, session * 2);
    }
    views.push(session, indexOf.get(event.product_id) ?? UNKNOWN);
    lastViewAt[session] = event.at;
  }
  for (let session = 0; session < views.size; session++) {
    const start = views.start(session);
    groups.add(views.data.subarray(start, start + views.length(session)), lastViewAt[session]!, VIEW_WINDOW);
  }

  const built = groups.build();
  const withBehaviour = new Set<number>(built.items);
  return {
    groups: built,
    summary: { orders: orderGroups, viewSessions: built.weights.length - orderGroups, productsWithBehaviour: withBehaviour.size },
  };
}

/** Appends groups to growing typed arrays; build() weighs them. */
class GroupsBuilder {
  private items = new Int32Array(1 << 16);
  private itemCount = 0;
  private starts = new Int32Array(1 << 12);
  private times = new Float64Array(1 << 12);
  private windows = new Uint8Array(1 << 12);
  private count = 0;
  /** One group's members while it is filtered. */
  private readonly kept: number[] = [];

  get size(): number {
    return this.count;
  }

  /**
   * A group of catalogue indexes (UNKNOWN: skipped): an order's products once
   * each (window 0), or a session's views in order with reloads (a product
   * right after itself) dropped. Kept if it holds two different products; cut
   * at MAX_GROUP.
   */
  add(indexes: ArrayLike<number>, at: number, window: number): void {
    const kept = this.kept;
    kept.length = 0;
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i]!;
      if (index === UNKNOWN) continue;
      if (window === 0 ? kept.includes(index) : kept[kept.length - 1] === index) continue;
      kept.push(index);
    }
    // Without repeats side by side, two entries are two different products.
    if (kept.length < 2) return;
    const size = Math.min(kept.length, MAX_GROUP);
    if (this.count + 2 > this.starts.length) {
      const capacity = this.starts.length * 2;
      this.starts = grownTo(this.starts, capacity);
      this.times = grownTo(this.times, capacity);
      this.windows = grownTo(this.windows, capacity);
    }
    if (this.itemCount + size > this.items.length) this.items = grownTo(this.items, Math.max(this.items.length * 2, this.itemCount + size));
    for (let i = 0; i < size; i++) this.items[this.itemCount + i] = kept[i]!;
    this.itemCount += size;
    this.times[this.count] = at;
    this.windows[this.count] = window;
    this.count++;
    this.starts[this.count] = this.itemCount;
  }

  build(): BehaviourGroups {
    const count = this.count;
    const times = this.times.subarray(0, count);
    const latest = times.reduce((max, at) => Math.max(max, at), 0);
    const halfLifeMs = (DEFAULT_COPURCHASE.halfLifeDays ?? Infinity) * 86_400_000;
    const weights = new Float64Array(count);
    for (let group = 0; group < count; group++) {
      const decay = Math.pow(0.5, (latest - times[group]!) / halfLifeMs);
      weights[group] = decay * Math.sqrt(this.starts[group + 1]! - this.starts[group]! - 1);
    }
    return {
      items: this.items.slice(0, this.itemCount),
      starts: this.starts.slice(0, count + 1),
      weights,
      windows: this.windows.slice(0, count),
    };
  }
}
