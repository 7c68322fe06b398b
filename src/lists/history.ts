// viewed and purchased: a session's or customer's own products, most recent first.
import {
  OWN_ANSWER,
  type AnswerMode,
  type HistorySubject,
  type PendingHistory,
  type PendingView,
  type PurchasedTask,
  type ViewedTask,
} from "../core/products/query.js";
import { productListBody } from "../core/products/render.js";
import { appendToHistory, emptyHistory, recentProducts, type History } from "../core/recs/history.js";
import { purchaseSummary } from "../core/recs/purchases.js";
import type { MerchantId } from "../core/types.js";
import { merchantCatalog } from "../stores/catalog.js";
import type { Store } from "../stores/store.js";

/**
 * The subject's history — the session's, the customer's, or both merged in
 * time order — with its acknowledged events the stored histories lack. The
 * stored histories hold every event up to this snapshot's watermark; pending
 * events at or below it were applied after the task was made, and are skipped.
 */
export function historyOf(store: Store, merchant: MerchantId, subject: HistorySubject, pending: PendingHistory): History {
  const watermark = pending.session.length + pending.customer.length > 0 ? store.applied.derivedSequence(merchant) : 0;
  const parts = [
    subject.uuid === null ? undefined : withPending(store.applied.sessionHistory(merchant, subject.uuid), pending.session, watermark),
    subject.customerId === null
      ? undefined
      : withPending(store.applied.customerHistory(merchant, subject.customerId), pending.customer, watermark),
  ].filter((h): h is History => h !== undefined);
  if (parts.length === 1) return parts[0]!;
  const merged = parts.flatMap((h) => h.products.map((product, i) => ({ product, verb: h.verbs[i]!, at: h.ats[i]! })));
  merged.sort((a, b) => a.at - b.at);
  return { products: merged.map((e) => e.product), verbs: merged.map((e) => e.verb), ats: merged.map((e) => e.at) };
}

function withPending(stored: History | undefined, pending: readonly PendingView[], watermark: number): History | undefined {
  const unapplied = pending.filter((view) => view.sequence > watermark);
  if (unapplied.length === 0) return stored;
  const history = stored ?? emptyHistory();
  for (const view of unapplied) appendToHistory(history, view);
  return history;
}

export function viewed(store: Store, task: ViewedTask, mode: AnswerMode = OWN_ANSWER): Uint8Array {
  const history = historyOf(store, task.merchantId, task.subject, task.pending);
  return productListBody(merchantCatalog(store, task.merchantId), recentProducts(history, task.subject.verb), task.list, {}, mode);
}

/**
 * Units per product over the customer's orders (cancelled ones left out),
 * most recently bought first: the stored summary, or the orders summed where
 * a data dir's summaries are not built yet.
 */
export function purchasedQuantities(store: Store, merchant: MerchantId, customerId: number): Map<number, number> {
  const { purchases } = store.orders;
  const summary = store.derived.isBuilt(purchases, merchant)
    ? purchases.summary(merchant, customerId)
    : purchaseSummary(store.orders.ordersOfCustomer(merchant, customerId));
  return new Map(summary?.ids.map((id, i) => [id, summary.quantities[i]!]));
}

export function purchased(store: Store, task: PurchasedTask, mode: AnswerMode = OWN_ANSWER): Uint8Array {
  const quantities = purchasedQuantities(store, task.merchantId, task.customerId);
  const customer = store.catalogue.customer(task.merchantId, task.customerId) ?? null;
  return productListBody(
    merchantCatalog(store, task.merchantId),
    quantities.keys(),
    task.list,
    {
      productFields: (id) => ({ metadata: { purchased_quantity: String(quantities.get(id)) } }),
      answerFields: { metadata: { platform_customer: customer } },
    },
    mode,
  );
}
