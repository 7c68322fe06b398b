import { performance } from "node:perf_hooks";
import { ingest, MAX_BATCH_ITEMS, type IngestKind } from "../ingest/ingest.js";
import { createMerchant } from "../ingest/merchants.js";
import type { Store } from "../stores/store.js";
import { generateDemo, type DemoOptions } from "./generator.js";

export interface DemoSummary {
  merchantId: string;
  apiKey: string;
  domain: string;
  counts: Record<IngestKind | "events", number>;
  generateMs: number;
  importMs: number;
  /** A few real ids and handles of the demo, for the printed curl lines. */
  sample: { productIds: number[]; handles: string[]; collectionId: number | null };
}

/** Generates the demo merchant and writes it through the same ingest path as the admin API. */
export async function seedDemo(store: Store, options: DemoOptions = {}): Promise<DemoSummary> {
  const started = performance.now();
  const demo = generateDemo(options);
  const generated = performance.now();

  const merchant = await createMerchant(store, demo.merchant);
  const batches: [IngestKind, unknown[]][] = [
    ["products", demo.products],
    ["collections", demo.collections],
    ["markets", demo.markets],
    ["customers", demo.customers],
    ["orders", demo.orders],
  ];
  for (const [kind, items] of batches) {
    for (let start = 0; start < items.length; start += MAX_BATCH_ITEMS) {
      await ingest(store, merchant.id, kind, items.slice(start, start + MAX_BATCH_ITEMS));
    }
  }
  await store.appendEvents(merchant.id, demo.events);

  const listed = demo.products.filter(
    (p) => p.status === "active" && !p.tags.includes("exclude_service") && p.variants.some((v) => v.inventory_quantity > 0),
  );
  return {
    merchantId: merchant.id,
    apiKey: merchant.api_key,
    domain: merchant.domain,
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
    sample: {
      productIds: listed.slice(0, 3).map((p) => p.id),
      handles: listed.slice(3, 5).map((p) => p.handle),
      collectionId: demo.collections[0]?.id ?? null,
    },
  };
}
