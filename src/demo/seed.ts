import { performance } from "node:perf_hooks";
import { isProductAvailable, isProductPublished } from "../core/availability.js";
import { chunksOf } from "../core/chunks.js";
import { isInMarket } from "../core/products/market.js";
import { ingest, MAX_BATCH_ITEMS, type IngestKind } from "../ingest/ingest.js";
import { createMerchant } from "../ingest/merchants.js";
import type { Store } from "../stores/store.js";
import { seedDemoSources } from "./custom-sources.js";
import { generateDemo, type DemoData, type DemoOptions } from "./generator.js";
import { DEMO_SEARCH_QUERIES, hasDemoSearchSettings, seedDemoSearchSettings } from "./search-settings.js";

export const DEMO_MERCHANT_ID = "demo";

export interface DemoSeedStats {
  counts: Record<IngestKind | "events", number>;
  generateMs: number;
  importMs: number;
}

/** What the start-up banner shows about the demo merchant, fresh or already seeded. */
export interface DemoInfo {
  merchantId: string;
  apiKey: string;
  /** Set only on the start that seeded it. */
  seeded: DemoSeedStats | null;
  /** A few real listable ids and handles, for curl lines that return products. */
  sample: {
    productIds: number[];
    handles: string[];
    collectionId: number | null;
    /** A customer with orders, for purchased. */
    customerId: number | null;
    /** A session that viewed products, for viewed and viewed-related. */
    sessionUuid: string | null;
    /** A listable T-shirt, for the cart of "complete the look". */
    tShirtId: number | null;
  };
  /** The ids of its custom sources (a data dir seeded before they existed has none). */
  customSourceIds: string[];
  /** Searches its search settings answer (none when the shop does not have the demo's settings). */
  searchQueries: string[];
}

/** What demoBatches reads: the demo's lists, as arrays (generateDemo) or read as they are generated (generateDemoStream). */
export type DemoLists = { [Kind in "products" | "collections" | "markets" | "customers" | "orders"]: Iterable<DemoData[Kind][number]> };

/** The demo's objects by kind, in an order where every reference points back: products first. */
export function demoBatches(demo: DemoLists): [IngestKind, Iterable<unknown>][] {
  return [
    ["products", demo.products],
    ["collections", demo.collections],
    ["markets", demo.markets],
    ["customers", demo.customers],
    ["orders", demo.orders],
  ];
}

/** Generates the demo merchant and writes it through the same ingest path as the admin API. */
export async function seedDemo(store: Store, options: DemoOptions = {}): Promise<DemoInfo> {
  const started = performance.now();
  const demo = generateDemo(options);
  const generated = performance.now();

  const merchant = await createMerchant(store, { ...demo.merchant, id: DEMO_MERCHANT_ID });
  for (const [kind, items] of demoBatches(demo)) {
    for (const batch of chunksOf(items, MAX_BATCH_ITEMS)) await ingest(store, merchant.id, kind, batch);
  }
  await store.applied.appendEvents(merchant.id, demo.events);
  await seedDemoSources(store, merchant.id);
  await seedDemoSearchSettings(store, merchant.id);

  const seeded: DemoSeedStats = {
    counts: {
      products: demo.products.length,
      collections: demo.collections.length,
      markets: demo.markets.length,
      customers: demo.customers.length,
      orders: demo.orders.length,
      events: demo.events.length,
    },
    generateMs: generated - started,
    importMs: performance.now() - generated,
  };
  return { ...describeDemo(store)!, seeded };
}

/** The demo merchant of a data dir, if it has one. */
export function describeDemo(store: Store): DemoInfo | null {
  const merchant = store.catalogue.merchant(DEMO_MERCHANT_ID);
  if (!merchant) return null;
  const markets = store.catalogue.marketsOf(merchant.id).filter((market) => market.active);
  const listable: { id: number; handle: string }[] = [];
  let tShirtId: number | null = null;
  for (const id of firstProductIds(store, merchant.id, SAMPLE_SCAN)) {
    const product = store.catalogue.product(merchant.id, id);
    // Sold everywhere, so every printed curl line (country_code included) returns it.
    if (product && isProductAvailable(product) && isProductPublished(product) && markets.every((m) => isInMarket(product, m))) {
      if (listable.length < 5) listable.push(product);
      if (tShirtId === null && product.product_type === "T-Shirt") tShirtId = product.id;
    }
    if (listable.length === 5 && tShirtId !== null) break;
  }
  return {
    merchantId: merchant.id,
    apiKey: merchant.api_key,
    seeded: null,
    sample: {
      productIds: listable.slice(0, 3).map((p) => p.id),
      handles: listable.slice(3, 5).map((p) => p.handle),
      collectionId: store.catalogue.collectionsOf(merchant.id)[0]?.id ?? null,
      customerId: firstBuyer(store, merchant.id),
      sessionUuid: firstViewingSession(store, merchant.id),
      tShirtId,
    },
    customSourceIds: store.customSources.list(merchant.id).map(({ source }) => source.id),
    searchQueries: hasDemoSearchSettings(store, merchant.id) ? [...DEMO_SEARCH_QUERIES] : [],
  };
}

/**
 * Products the banner's examples are looked for among: the whole demo, but
 * not a million-product shop served as the demo merchant (the scale bench's),
 * whose every product read would hold up the start.
 */
const SAMPLE_SCAN = 20_000;

/** The merchant's first `limit` product ids, read a page at a time. */
function* firstProductIds(store: Store, merchant: string, limit: number): Generator<number> {
  let after: number | null = null;
  for (let seen = 0; seen < limit;) {
    const page = store.catalogue.productIdsAfter(merchant, after, Math.min(1_000, limit - seen));
    yield* page;
    if (page.length === 0) return;
    seen += page.length;
    after = page[page.length - 1]!;
  }
}

function firstBuyer(store: Store, merchant: string): number | null {
  for (const order of store.orders.allOrders(merchant))
    if (order.customer_id !== null && order.cancelled_at === null) return order.customer_id;
  return null;
}

function firstViewingSession(store: Store, merchant: string): string | null {
  for (const { event } of store.events.eventsSince(merchant, 0)) if (event.verb === "viewed" && event.uuid !== null) return event.uuid;
  return null;
}
