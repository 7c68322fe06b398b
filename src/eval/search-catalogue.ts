// The Home Depot titles as products of one merchant, written through the ingest
// path the admin API uses: shared by `aisle eval search` and the search bench.
import { readFileSync } from "node:fs";
import { ingest, MAX_BATCH_ITEMS } from "../ingest/ingest.js";
import { createMerchant } from "../ingest/merchants.js";
import type { Merchant } from "../core/types.js";
import type { Store } from "../stores/store.js";

export interface TitledProduct {
  id: number;
  title: string;
}

/** product_uid TAB product_title, with a header line. */
export function readTitledProducts(path: string): TitledProduct[] {
  const rows = readFileSync(path, "utf8").split("\n").slice(1);
  const products: TitledProduct[] = [];
  for (const row of rows) {
    if (row.trim() === "") continue;
    const tab = row.indexOf("\t");
    const id = Number(row.slice(0, tab));
    const title = row.slice(tab + 1).trim();
    if (Number.isSafeInteger(id) && id > 0 && title !== "") products.push({ id, title });
  }
  return products;
}

/** The admin-API product for a title: one untracked (always available) variant. */
export function titledProductPayload({ id, title }: TitledProduct): Record<string, unknown> {
  return { id, title, handle: `p-${id}`, variants: [{ id, price: "1.00", inventory_management: null }] };
}

/** Batches of admin-API products, each small enough for one request. */
export function titledProductBatches(products: TitledProduct[]): Record<string, unknown>[][] {
  const batches: Record<string, unknown>[][] = [];
  for (let start = 0; start < products.length; start += MAX_BATCH_ITEMS) {
    batches.push(products.slice(start, start + MAX_BATCH_ITEMS).map(titledProductPayload));
  }
  return batches;
}

export async function loadTitledMerchant(store: Store, id: string, products: TitledProduct[]): Promise<Merchant> {
  const merchant = await createMerchant(store, { id, name: "Home Depot titles", domain: `${id}.example.com` });
  for (const batch of titledProductBatches(products)) await ingest(store, merchant.id, "products", batch);
  return merchant;
}
