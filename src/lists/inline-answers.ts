// The list misses the HTTP thread answers itself, without the pool. With the
// derived stores, such a list is a few stored reads and a concatenation of
// stored bytes: about 5–12 µs when its products are in the thread's render
// cache, 26–28 µs when each is read from LMDB (demo shop, p50). Handing it to a worker cost the HTTP thread
// more than that (Piscina's post and its answer's message, the transferred
// body's garbage: 60–75 µs of that thread per miss, measured on the demo
// shop), and the worker another 55 µs. So a list is answered here when it is
// surely cheap, and by the pool otherwise: whatever renders from a product
// itself (pretty printing, metafields, selling plans, unset variants), runs a
// model (viewed-related's kNN, the starter vectors' neighbours before a shop's
// model is trained), reads many inputs' lists, a whole collection's members, a
// customer's every order (before their purchases are stored) or a stored
// purchase record past INLINE_PURCHASE_BYTES, a market's settings, or products
// whose stored JSON is not built yet; and any list that passes INLINE_BUDGET: 500 candidates
// judged (filters that reject most of a catalogue) or 256 KB of products. The
// work done is then lost, about half a millisecond, and that merchant's lists
// of that kind go to the pool for GIVE_UP_FOR_MS.
import type { AnswerMode, ListBudget } from "../core/products/query.js";
import { OverBudget, storedJsonLacks } from "../core/products/render.js";
import type { Task } from "../pool/protocol.js";
import { hasSimilarModel } from "../recs/similar-ranking.js";
import { hasRenderData } from "../stores/catalog.js";
import type { Store } from "../stores/store.js";
import { answerListTask, type InlineListTask } from "./list-task.js";

/**
 * What an inline list may cost: candidates judged (each an eligibility read of
 * about a microsecond) and bytes of products copied into the answer (the demo's
 * products are 2–10 KB; one with a huge description can be 100 KB).
 */
export const INLINE_BUDGET: ListBudget = { judged: 500, bytes: 256 * 1024 };
/** How this thread answers a list: within INLINE_BUDGET, into its list buffer, which the caller uses at once. */
const INLINE_MODE: AnswerMode = Object.freeze({ budget: INLINE_BUDGET, transient: true });

/** Input products whose lists an inline recommendation may read. */
export const INLINE_MAX_INPUTS = 10;

/**
 * A customer's stored purchases are decoded whole before the budget counts a
 * product: past this size (about 400 products) the record alone would cost
 * the HTTP thread more than the pool's hand-off (10k products: about 1 ms).
 */
const INLINE_PURCHASE_BYTES = 4_096;

/** After a merchant's list of a kind went over budget, its lists of that kind go to the pool for this long. */
export const GIVE_UP_FOR_MS = 10_000;

export class InlineAnswers {
  /** "merchant kind" → when its lists of that kind may be tried here again. */
  private readonly gaveUp = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = performance.now.bind(performance),
  ) {}

  /** The answer's bytes, a view valid until this thread's next list (see AnswerMode.transient), or null: the task is for the pool. */
  answer(task: Task): Uint8Array | null {
    if (!answersInline(this.store, task)) return null;
    // A request shaped to pass the budget would otherwise cost this thread the budget each time.
    const shape = `${task.merchantId} ${task.kind}`;
    const retryAt = this.gaveUp.get(shape);
    if (retryAt !== undefined) {
      if (this.now() < retryAt) return null;
      this.gaveUp.delete(shape);
    }
    try {
      const result = answerListTask(this.store, task, INLINE_MODE);
      // An expected failure (an unknown merchant) is the pool's to answer, as it always has been.
      return result.ok ? result.body : null;
    } catch (error) {
      if (!(error instanceof OverBudget)) throw error;
      this.gaveUp.set(shape, this.now() + GIVE_UP_FOR_MS);
      return null;
    }
  }
}

function answersInline(store: Store, task: Task): task is InlineListTask {
  if (!("list" in task)) return false;
  const { list } = task;
  // Rendered from the products themselves: tens of µs each. unset_variants may render any of them so.
  if (list.pretty || storedJsonLacks(list) || list.unsetVariants) return false;
  // A market's settings hold its whole catalogue, decoded once per catalogue version; until built, products render from themselves.
  if (list.countryCode !== null || !hasRenderData(store, task.merchantId)) return false;
  // A collection's record holds all its members, read and made a set whole, before the budget counts anything.
  switch (task.kind) {
    case "static_products":
      return task.selection.collectionId === null;
    case "trending":
    case "top_sellers":
    case "viewed":
      return true;
    case "recommended":
      return (
        task.inputs.collectionId === null &&
        task.inputs.productIds.length + task.inputs.variantIds.length <= INLINE_MAX_INPUTS &&
        (task.context === "bought_together" || hasSimilarModel(store, task.merchantId))
      );
    case "purchased":
      // Until the stored summaries are built, a customer's every order would be decoded, however many.
      return (
        store.derived.isBuilt(store.orders.purchases, task.merchantId) &&
        store.orders.purchases.storedBytes(task.merchantId, task.customerId) <= INLINE_PURCHASE_BYTES
      );
    default:
      return false;
  }
}
