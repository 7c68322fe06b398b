// A custom source of 20 rules evaluated as the worker evaluates it, on the demo
// store: the request's facts read, the rules matched, their products gathered
// through the list filters, pins placed. It calls no built-in source (those are
// timed by their own rows) and renders nothing (the render is the static list's).
import { listOptionsFrom } from "../../src/core/products/query.js";
import type { CustomSource, Rule } from "../../src/core/sources/definition.js";
import type { CustomSourceTask } from "../../src/core/sources/task.js";
import { validateSource } from "../../src/core/sources/validate.js";
import { NO_PENDING } from "../../src/ingest/pending-events.js";
import { evaluateCustomSource, readySource } from "../../src/lists/custom-source.js";
import type { Store } from "../../src/stores/store.js";
import { listedIds } from "../shared/inputs.js";

const RULES = 20;

/** Twenty rules over every kind of field, half of which match the request below; their products are given ids, collections and tags. */
function twentyRules(store: Store, merchantId: string, ids: number[]): CustomSource {
  const collections = store.catalogue.collectionsOf(merchantId).map((collection) => collection.id);
  const input = store.catalogue.product(merchantId, ids[0]!)!;
  const conditions = [
    { field: "product.tags", operator: "contains_any", values: input.tags.split(",").slice(0, 2) },
    { field: "product.product_type", operator: "does_not_equal", values: ["Sofa"] },
    { field: "cart.subtotal", operator: "greater_than", values: ["500.00"] },
    { field: "customer.orders_count", operator: "greater_than", values: [0] },
    { field: "country_code", operator: "equals", values: ["ca"] },
    { field: "product.price", operator: "less_than", values: ["10.00"] },
    { field: "cart.product_ids", operator: "contains_all", values: ids.slice(1, 3) },
    { field: "product.collection_ids", operator: "does_not_contain_any", values: collections.slice(0, 2) },
    { field: "product.title", operator: "contains_any", values: ["zzz"] },
    { field: "customer.tags", operator: "does_not_contain_all", values: ["vip", "wholesale"] },
  ];
  const returns = [
    { kind: "products", product_ids: ids.slice(10, 16) },
    { kind: "collection", collection_id: collections[3] },
    { kind: "tags", tags: ["bestseller"] },
    { kind: "product_types", product_types: ["Mug"] },
  ];
  const rules = Array.from({ length: RULES }, (_, i) => ({
    if: { join: i % 3 === 0 ? "or" : "and", conditions: [conditions[i % conditions.length], conditions[(i * 7 + 3) % conditions.length]] },
    return: returns[i % returns.length],
    ...(i % 5 === 0 ? { pin: [{ product_id: ids[20 + i]!, position: 1 + (i % 4) }] } : {}),
    ...(i % 4 === 1 ? { boost: { tags: ["new"] }, exclude: { product_ids: [ids[11]!] } } : {}),
  })) as unknown as Rule[];
  return validateSource({ id: "bench-twenty", name: "Twenty rules", rules });
}

/** One evaluation per call, rotating through requests with an input product, a cart of two and a customer. */
export async function customSourceEvaluation(store: Store, merchantId: string): Promise<() => number> {
  const ids = listedIds(store, merchantId);
  const source = twentyRules(store, merchantId, ids);
  await store.customSources.put(merchantId, [source]);
  const stored = store.customSources.get(merchantId, source.id)!;
  const customers = store.catalogue.idsAfter("customers", merchantId, null, 64);
  const tasks: CustomSourceTask[] = customers.map((customerId, i) => ({
    kind: "custom_source",
    merchantId,
    sourceId: source.id,
    inputs: { productIds: [ids[i]!], variantIds: [], collectionId: null },
    cart: [
      { product_id: ids[1]!, variant_id: null, quantity: 2 },
      { product_id: ids[2 + i]!, variant_id: null, quantity: 1 },
    ],
    customerId,
    uuid: null,
    pending: NO_PENDING,
    list: listOptionsFrom({ limit: 10, country_code: "CA" }, "full", { ranked: true }),
  }));
  let i = 0;
  return () => evaluateCustomSource(store, tasks[i++ % tasks.length]!, readySource(store, merchantId, stored)).ids.length;
}
