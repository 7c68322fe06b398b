// Records read back through the admin API in the shape it takes them, so that
// what is read can be edited and sent again (and a PATCH merges into it).
import type { MerchantId, Metafield, Product } from "../core/types.js";
import type { RecordKind } from "../stores/catalogue-store.js";
import type { Store } from "../stores/store.js";

/** Metafields as the admin API takes them inside a product or variant. */
function inline(metafields: Metafield[]): Record<string, unknown>[] {
  return metafields.map(({ id, namespace, key, value, type }) => ({ id, namespace, key, value, type }));
}

function productRecord(store: Store, merchant: MerchantId, product: Product): Record<string, unknown> {
  return {
    ...product,
    variants: product.variants.map((variant) => ({
      ...variant,
      metafields: inline(store.catalogue.metafields(merchant, "variant", variant.id)),
    })),
    metafields: inline(store.catalogue.metafields(merchant, "product", product.id)),
  };
}

/** One record of a kind, as the admin API takes it; undefined when there is none. */
export function readRecord(store: Store, merchant: MerchantId, kind: RecordKind, id: number): Record<string, unknown> | undefined {
  switch (kind) {
    case "products": {
      const product = store.catalogue.product(merchant, id);
      return product && productRecord(store, merchant, product);
    }
    case "collections":
      return store.catalogue.collection(merchant, id) as Record<string, unknown> | undefined;
    case "customers":
      return store.catalogue.customer(merchant, id) as Record<string, unknown> | undefined;
    case "orders": {
      const order = store.orders.order(merchant, id);
      if (!order) return undefined;
      const { customer_id: customerId, ...rest } = order;
      return { ...rest, customer: customerId === null ? null : { id: customerId } };
    }
    case "markets": {
      const market = store.catalogue.marketsOf(merchant).find((candidate) => candidate.id === id);
      return market && { ...market, variant_prices: store.catalogue.marketPriceList(merchant, id) };
    }
  }
}

/** The records' largest page; a client asks for fewer with `limit`. */
export const MAX_PAGE = 250;

/** A page of a kind's records in id order, after the cursor; `next` is the cursor of the page after, or null at the end. */
export function readPage(
  store: Store,
  merchant: MerchantId,
  kind: RecordKind,
  after: number | null,
  limit: number,
): { data: Record<string, unknown>[]; next: string | null } {
  const ids = store.catalogue.idsAfter(kind, merchant, after, limit + 1);
  const page = ids.slice(0, limit);
  return {
    data: page.map((id) => readRecord(store, merchant, kind, id)!),
    next: ids.length > limit ? String(page.at(-1)) : null,
  };
}
