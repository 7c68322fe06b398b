// The products a custom source's rule returns, as ranked candidates (the list
// judges and renders them): given products, a collection's, those with given
// tags, vendors or types, the input products, or a built-in source's list as
// its own endpoint ranks it.
import type { BuiltInSource, RecommendedContextName, RuleReturn } from "../core/sources/definition.js";
import type { Attribute } from "../core/sources/product-texts.js";
import type { CustomSourceTask } from "../core/sources/task.js";
import type { HistorySubject } from "../core/products/query.js";
import { recentProducts } from "../core/recs/history.js";
import { topSellers, withStoreFallbacks } from "../recs/sales-rankings.js";
import { DEFAULT_WINDOW_DAYS } from "../stores/ranked-lists.js";
import type { Store } from "../stores/store.js";
import type { RequestProducts } from "./custom-source-facts.js";
import { historyOf, purchasedQuantities } from "./history.js";
import { recommendationCandidates } from "./recommended.js";
import { viewedRelatedCandidates } from "./viewed-related.js";

/** Best sellers read to rank products of a tag, vendor or type: past these, the others follow in catalogue order. */
const RANKED_SCAN = 1_000;

function* keeping(candidates: Iterable<number>, keep: (id: number) => boolean): Generator<number> {
  for (const id of candidates) if (keep(id)) yield id;
}

/** The products carrying any of the values, best sellers first, then the rest of each value's in id order. */
function* bestSellingFirst(store: Store, task: CustomSourceTask, attribute: Attribute, values: readonly string[]): Generator<number> {
  const { merchantId } = task;
  const carriers = values.map((value) => store.productAttributes.carriers(merchantId, attribute, value));
  const given = new Set<number>();
  let scanned = 0;
  for (const id of topSellers(store, merchantId, DEFAULT_WINDOW_DAYS)) {
    if (++scanned > RANKED_SCAN) break;
    if (carriers.some((ids) => ids.has(id))) {
      given.add(id);
      yield id;
    }
  }
  for (const ids of carriers) for (const id of ids) if (!given.has(id)) yield id;
}

/** What the shopper's session and customer history is read for. */
function subjectOf(task: CustomSourceTask): HistorySubject | null {
  return task.uuid === null && task.customerId === null ? null : { uuid: task.uuid, customerId: task.customerId, verb: "viewed" };
}

export function builtInCandidates(
  store: Store,
  task: CustomSourceTask,
  products: RequestProducts,
  source: BuiltInSource,
  context: RecommendedContextName = "default",
): Iterable<number> {
  const { merchantId } = task;
  switch (source) {
    case "recommended":
    case "similar": {
      // The product page's products, else the cart's: what a cart drawer's widget is about.
      const inputs = products.inputs.length > 0 ? products.inputs : products.cart;
      const model = source === "similar" || context === "similar" ? "similar" : "bought_together";
      const recommendation = recommendationCandidates(store, {
        kind: "recommended",
        merchantId,
        context: model,
        inputs: { productIds: inputs, variantIds: [], collectionId: task.inputs.collectionId },
        list: task.list,
      });
      const excluded = new Set(recommendation.excludedIds);
      const allowed = recommendation.restrictTo === null ? null : new Set(recommendation.restrictTo);
      return keeping(recommendation.candidates, (id) => !excluded.has(id) && (allowed === null || allowed.has(id)));
    }
    case "top_sellers":
      return topSellers(store, merchantId, DEFAULT_WINDOW_DAYS, task.inputs.collectionId);
    case "trending":
      return withStoreFallbacks(store, merchantId);
    case "purchased":
      return task.customerId === null ? [] : purchasedQuantities(store, merchantId, task.customerId).keys();
    case "viewed": {
      const subject = subjectOf(task);
      return subject === null ? [] : recentProducts(historyOf(store, merchantId, subject, task.pending), subject.verb);
    }
    case "viewed_related": {
      const subject = subjectOf(task);
      if (subject === null) return [];
      const { candidates, viewed } = viewedRelatedCandidates(store, { merchantId, subject, pending: task.pending });
      const seen = new Set(viewed);
      return keeping(candidates, (id) => !seen.has(id));
    }
  }
}

export function ruleCandidates(store: Store, task: CustomSourceTask, products: RequestProducts, returned: RuleReturn): Iterable<number> {
  switch (returned.kind) {
    case "products":
      return returned.product_ids;
    case "collection":
      return store.catalogue.collection(task.merchantId, returned.collection_id)?.product_ids ?? [];
    case "tags":
    case "vendors":
    case "product_types": {
      const values: string[] =
        returned.kind === "tags" ? returned.tags : returned.kind === "vendors" ? returned.vendors : returned.product_types;
      return bestSellingFirst(store, task, returned.kind, values);
    }
    case "input_products":
      return products.inputs;
    case "nothing":
      return [];
    case "source":
      return builtInCandidates(store, task, products, returned.source, returned.context);
  }
}
