// A Store opened directly, for tests of the code beside the HTTP thread: no
// running service, so merchants are written as the store keeps them rather
// than created through the admin API.
import { open } from "lmdb";
import { join } from "node:path";
import type { Merchant } from "../../src/core/types.js";
import { Store } from "../../src/stores/store.js";

/** A merchant record as the store keeps it; its domain and keys follow from its id, so several fit in one store. */
export function storedMerchant(id: string): Merchant {
  return {
    id,
    name: "Shop",
    domain: `${id}.example.com`,
    currency: "USD",
    api_key: `pk_${id}`,
    webhook_secret: `whsec_${id}`,
    created_at: "2026-05-01T00:00:00Z",
  };
}

/** The store in `dir`, opened, with the merchant `id` written into it. */
export async function storeWithMerchant(dir: string, id = "shop"): Promise<Store> {
  const store = Store.open(dir);
  await store.catalogue.createMerchant(storedMerchant(id));
  return store;
}

/**
 * The closed data dir as a build from before a derived store leaves it: the
 * store's tables dropped, and no mark that the merchant has it built.
 */
export async function withoutDerivedStore(dataDir: string, build: string, merchant: string, tables: readonly string[]): Promise<void> {
  const root = open({ path: join(dataDir, "aisle.lmdb"), maxDbs: 64 });
  const meta = root.openDB<unknown, string>({ name: "meta", encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") });
  root.transactionSync(() => {
    for (const name of tables) root.openDB({ name }).dropSync();
    void meta.remove(`derived_built:${build}:${merchant}`);
  });
  await root.close();
}
