import { InvalidInput } from "../core/ingest/fields.js";
import { normaliseProduct } from "../core/ingest/product.js";
import { normaliseCollection, normaliseCustomer, normaliseMarket, normaliseOrder } from "../core/ingest/records.js";
import { formatTimestamp } from "../core/timestamps.js";
import type { Market, MerchantId, Order } from "../core/types.js";
import type { Located, RecordBatch } from "../stores/catalogue-store.js";
import type { Store } from "../stores/store.js";

export const INGEST_KINDS = ["products", "collections", "customers", "orders", "markets"] as const;
export type IngestKind = (typeof INGEST_KINDS)[number];

export function isIngestKind(value: string): value is IngestKind {
  return (INGEST_KINDS as readonly string[]).includes(value);
}

/** Largest batch one request may carry; bigger imports go through `aisle import`. */
export const MAX_BATCH_ITEMS = 50_000;

/** Validated objects of one kind, ready to write. */
export type ValidBatch = RecordBatch | { kind: "orders"; items: Located<Order>[] } | { kind: "markets"; items: Located<Market>[] };

function locate<T>(kind: IngestKind, items: unknown[], normalise: (item: unknown, path: string) => T, offset: number): Located<T>[] {
  return items.map((item, index) => {
    const path = `${kind}[${offset + index}]`;
    return { path, value: normalise(item, path) };
  });
}

/** Validates and normalises every object; throws InvalidInput naming the first bad field. */
export function validateBatch(kind: IngestKind, items: unknown[], now: string, offset = 0): ValidBatch {
  switch (kind) {
    case "products":
      return { kind, items: locate(kind, items, (item, path) => normaliseProduct(item, path, now), offset) };
    case "collections":
      return { kind, items: locate(kind, items, normaliseCollection, offset) };
    case "customers":
      return { kind, items: locate(kind, items, (item, path) => normaliseCustomer(item, path, now), offset) };
    case "orders":
      return { kind, items: locate(kind, items, (item, path) => normaliseOrder(item, path, now), offset) };
    case "markets":
      return { kind, items: locate(kind, items, normaliseMarket, offset) };
  }
}

/** Writes a validated batch in one transaction. */
export async function writeBatch(store: Store, merchant: MerchantId, batch: ValidBatch): Promise<void> {
  switch (batch.kind) {
    case "products":
      return store.catalogue.upsertProducts(merchant, batch.items);
    case "collections":
      return store.catalogue.upsertCollections(merchant, batch.items);
    case "customers":
      return store.catalogue.upsertCustomers(merchant, batch.items);
    case "orders":
      return store.orders.upsertOrders(merchant, batch.items);
    case "markets":
      return store.catalogue.upsertMarkets(merchant, batch.items);
  }
}

/** Validates a batch as a request carries it: at most MAX_BATCH_ITEMS objects, each valid. */
export function checkBatch(kind: IngestKind, items: unknown[], now: string): ValidBatch {
  if (items.length > MAX_BATCH_ITEMS) throw new InvalidInput(kind, `at most ${MAX_BATCH_ITEMS} objects per batch`);
  return validateBatch(kind, items, now);
}

/**
 * Validates every object first and then writes them all in one transaction,
 * so an invalid object anywhere means nothing is written. The shared path for
 * the admin API, webhooks and the demo seed.
 */
export async function ingest(
  store: Store,
  merchant: MerchantId,
  kind: IngestKind,
  items: unknown[],
  now: string = formatTimestamp(new Date()),
): Promise<number> {
  await writeBatch(store, merchant, checkBatch(kind, items, now));
  return items.length;
}
