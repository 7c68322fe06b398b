// Behaviour the encoder is fine-tuned on, read from the store: each order's
// products and each session's viewed products, weighted towards the recent.
import { DEFAULT_COPURCHASE } from "../core/recs/copurchase.js";
import type { BehaviourGroups } from "../core/embedding/train.js";
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import type { Checkpoint } from "./cancellation.js";

/** Views this many steps apart in a session still count as "viewed together". */
const VIEW_WINDOW = 3;
/** Baskets and sessions longer than this are cut: the rest adds noise, not signal. */
const MAX_GROUP = 50;

export interface BehaviourSummary {
  orders: number;
  viewSessions: number;
  productsWithBehaviour: number;
}

/**
 * `indexOf` maps product ids to catalogue positions (unknown products are
 * skipped). Weights: recency (the co-purchase model's half-life) times the
 * square root of the pairs a group holds, so a big basket counts more than a
 * pair but not quadratically more.
 */
export function behaviourGroups(
  store: Store,
  merchant: MerchantId,
  indexOf: Map<number, number>,
  checkpoint: Checkpoint,
): { groups: BehaviourGroups; summary: BehaviourSummary } {
  const members: Int32Array[] = [];
  const times: number[] = [];
  const windows: number[] = [];
  const add = (productIds: Iterable<number>, at: number, window: number) => {
    const known: number[] = [];
    const seen = new Set<number>();
    for (const id of productIds) {
      const index = indexOf.get(id);
      if (index === undefined || (window === 0 && seen.has(index))) continue;
      // Views: a repeat right after itself is a reload, not a second product.
      if (window > 0 && known[known.length - 1] === index) continue;
      seen.add(index);
      known.push(index);
    }
    if (new Set(known).size < 2) return;
    members.push(Int32Array.from(known.slice(0, MAX_GROUP)));
    times.push(at);
    windows.push(window);
  };

  for (const order of store.allOrders(merchant)) {
    checkpoint();
    if (order.cancelled_at !== null) continue;
    add(order.line_items.map((line) => line.product_id), Date.parse(order.created_at), 0);
  }
  const orderGroups = members.length;
  const sessions = new Map<string, { views: number[]; at: number }>();
  for (const { event } of store.eventsSince(merchant, 0)) {
    checkpoint();
    if (event.verb !== "viewed" || event.uuid === null) continue;
    const session = sessions.get(event.uuid) ?? { views: [], at: event.at };
    session.views.push(event.product_id);
    session.at = event.at;
    sessions.set(event.uuid, session);
  }
  for (const { views, at } of sessions.values()) add(views, at, VIEW_WINDOW);

  const latest = times.reduce((max, at) => Math.max(max, at), 0);
  const halfLifeMs = (DEFAULT_COPURCHASE.halfLifeDays ?? Infinity) * 86_400_000;
  const weights = Float64Array.from(members, (group, index) => {
    const decay = Math.pow(0.5, (latest - times[index]!) / halfLifeMs);
    return decay * Math.sqrt(group.length - 1);
  });
  const withBehaviour = new Set<number>();
  for (const group of members) for (const member of group) withBehaviour.add(member);
  return {
    groups: { members, weights, windows: Uint8Array.from(windows) },
    summary: { orders: orderGroups, viewSessions: members.length - orderGroups, productsWithBehaviour: withBehaviour.size },
  };
}
