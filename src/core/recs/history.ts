import type { BehaviourEvent } from "../types.js";

/** Kept per session and per customer: enough for "viewed" lists and session recommendations. */
export const HISTORY_LIMIT = 200;

/** Recent events of one session or customer, oldest first, as parallel arrays. */
export interface History {
  products: number[];
  verbs: BehaviourEvent["verb"][];
  ats: number[];
}

export function emptyHistory(): History {
  return { products: [], verbs: [], ats: [] };
}

export function appendToHistory(history: History, event: Pick<BehaviourEvent, "product_id" | "verb" | "at">): void {
  history.products.push(event.product_id);
  history.verbs.push(event.verb);
  history.ats.push(event.at);
  const excess = history.products.length - HISTORY_LIMIT;
  if (excess > 0) {
    history.products.splice(0, excess);
    history.verbs.splice(0, excess);
    history.ats.splice(0, excess);
  }
}

/** Distinct products of one verb, most recent first. */
export function recentProducts(history: History, verb: BehaviourEvent["verb"]): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (let i = history.products.length - 1; i >= 0; i--) {
    const id = history.products[i]!;
    if (history.verbs[i] !== verb || seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

/** Every product of one verb in the history, oldest first (with repeats). */
export function productsWithVerb(history: History, verb: BehaviourEvent["verb"]): number[] {
  return history.products.filter((_, i) => history.verbs[i] === verb);
}
