// Loads Online Retail invoices into a throwaway merchant through the same ingest
// path the admin API uses, so evaluations measure the code the server runs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CopurchaseConfig } from "../core/recs/copurchase.js";
import { formatTimestamp } from "../core/timestamps.js";
import { ingest, MAX_BATCH_ITEMS } from "../ingest/ingest.js";
import { createMerchant } from "../ingest/merchants.js";
import { Store } from "../stores/store.js";
import type { Invoice } from "./online-retail.js";

export interface RetailMerchant {
  store: Store;
  /** The throwaway data dir (model files are written here too). */
  dataDir: string;
  merchantId: string;
  productId: (stockCode: string) => number;
  stockCode: (productId: number) => string;
  close(): Promise<void>;
}

/** Stock codes become product ids in order of first appearance; prices come from the first line seen. */
export async function loadRetailMerchant(
  invoices: Invoice[],
  descriptions: Map<string, string>,
  options: { copurchase?: CopurchaseConfig } = {},
): Promise<RetailMerchant> {
  const dir = mkdtempSync(join(tmpdir(), "aisle-eval-"));
  const store = Store.open(dir, options);
  const merchant = await createMerchant(store, { id: "retail", name: "Online Retail", domain: "retail.example.com", currency: "GBP" });

  const ids = new Map<string, number>();
  const codes: string[] = [];
  const prices = new Map<string, number>();
  for (const invoice of invoices) {
    for (const code of invoice.items) {
      if (ids.has(code)) continue;
      ids.set(code, codes.length + 1);
      codes.push(code);
      prices.set(code, invoice.lines.get(code)!.price);
    }
  }
  const products = codes.map((code, index) => ({
    id: index + 1,
    title: descriptions.get(code) || code,
    handle: `sku-${code.toLowerCase()}`,
    created_at: "2010-01-01T00:00:00+00:00",
    // Untracked inventory: every product is always available, as the protocol assumes.
    variants: [{ id: index + 1, sku: code, price: prices.get(code)!.toFixed(2), inventory_management: null }],
  }));
  await ingestAll(store, merchant.id, "products", products);

  const orders = invoices.map((invoice, index) => ({
    id: index + 1,
    created_at: formatTimestamp(new Date(invoice.at)),
    customer: invoice.customerId === null ? null : { id: invoice.customerId },
    line_items: invoice.items.map((code) => {
      const line = invoice.lines.get(code)!;
      return { product_id: ids.get(code)!, variant_id: ids.get(code)!, quantity: line.quantity, price: line.price.toFixed(2) };
    }),
  }));
  await ingestAll(store, merchant.id, "orders", orders);

  return {
    store,
    dataDir: dir,
    merchantId: merchant.id,
    productId: (code) => ids.get(code) ?? 0,
    stockCode: (id) => codes[id - 1] ?? "",
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function ingestAll(store: Store, merchant: string, kind: "products" | "orders", items: unknown[]): Promise<void> {
  for (let start = 0; start < items.length; start += MAX_BATCH_ITEMS) {
    await ingest(store, merchant, kind, items.slice(start, start + MAX_BATCH_ITEMS));
  }
}
