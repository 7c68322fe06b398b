import { describe, expect, it, vi } from "vitest";
import { ingest } from "../../src/ingest/ingest.js";
import { buildSimilarModel } from "../../src/similar/build.js";
import { reconcileSimilar } from "../../src/similar/refresh.js";
import type { Store } from "../../src/stores/store.js";
import { product } from "../helpers/fixtures.js";
import { startTestService } from "../helpers/service.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-similar-reconcile-");

const WORDS = ["velvet sofa", "ceramic mug", "wool socks", "desk lamp"];

/** A shop of 30 products with a trained similar-products model. */
async function shopWithModel(dataDir: string): Promise<Store> {
  const store = await storeWithMerchant(dataDir);
  await ingest(
    store,
    "shop",
    "products",
    Array.from({ length: 30 }, (_, i) => product(100 + i, { title: `Harbor ${WORDS[i % WORDS.length]} ${i}` })),
  );
  await buildSimilarModel(store, dataDir, "shop");
  return store;
}

/** Whether a reconcile read the set difference (every product id and every vector id). */
async function reconcileReadsAll(store: Store, dataDir: string): Promise<boolean> {
  const productIds = vi.spyOn(store.catalogue, "productIds");
  const vectorIds = vi.spyOn(store.similar, "vectorIds");
  try {
    store.refreshSnapshot();
    await reconcileSimilar(store, dataDir, "shop", []);
    return productIds.mock.calls.length > 0 && vectorIds.mock.calls.length > 0;
  } finally {
    productIds.mockRestore();
    vectorIds.mockRestore();
  }
}

describe("the similar-products model at start", () => {
  it("reads every id only when the catalogue or the model was written since a reconcile last found them in step", async () => {
    const dataDir = tempDir();
    const store = await shopWithModel(dataDir);
    try {
      expect(await reconcileReadsAll(store, dataDir)).toBe(true);
      // Nothing written since: the next start's reconcile reads no id.
      expect(await reconcileReadsAll(store, dataDir)).toBe(false);
      // A product arrives while no service runs: read again, and embedded.
      await ingest(store, "shop", "products", [product(200, { title: "Harbor linen sofa 200" })]);
      expect(await reconcileReadsAll(store, dataDir)).toBe(true);
      store.refreshSnapshot();
      expect(store.similar.vectorIds("shop").has(200)).toBe(true);
      expect(await reconcileReadsAll(store, dataDir)).toBe(false);
      // The model written otherwise (trained again): read again.
      await buildSimilarModel(store, dataDir, "shop");
      expect(await reconcileReadsAll(store, dataDir)).toBe(true);
      expect(await reconcileReadsAll(store, dataDir)).toBe(false);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("says nothing is in step when another writer wrote the model while the reconcile refreshed it", async () => {
    const dataDir = tempDir();
    const store = await shopWithModel(dataDir);
    try {
      await ingest(store, "shop", "products", [product(200, { title: "Harbor linen sofa 200" })]);
      // Right after the refresh's own write, another writer (a training run beside the service) drops a vector.
      const atomically = store.atomically.bind(store);
      let writes = 0;
      vi.spyOn(store, "atomically").mockImplementation(async <T>(write: () => T): Promise<T> => {
        const result = await atomically(write);
        if (++writes === 1)
          await atomically(() => {
            store.similar.remove("shop", 200);
            store.similar.bump("shop");
          });
        return result;
      });
      store.refreshSnapshot();
      await reconcileSimilar(store, dataDir, "shop", []);
      vi.mocked(store.atomically).mockRestore();
      expect(writes).toBe(2);
      // So the next start reads every id again.
      expect(await reconcileReadsAll(store, dataDir)).toBe(true);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("embeds products added while the service was down and drops the vectors of products deleted meanwhile", async () => {
    const dataDir = tempDir();
    const store = await shopWithModel(dataDir);
    // While no service runs: one product arrives, another goes.
    await ingest(store, "shop", "products", [product(200, { title: "Harbor linen sofa 200" })]);
    expect(await store.catalogue.deleteProduct("shop", 105)).toBe(true);
    expect(store.similar.vectorIds("shop")).toEqual(new Set(Array.from({ length: 30 }, (_, i) => 100 + i)));
    await store.close();

    const t = await startTestService({ dataDir });
    try {
      await t.service.similar.idle();
      const vectors = t.service.services.store.similar.vectorIds("shop");
      expect(vectors.has(200)).toBe(true);
      expect(vectors.has(105)).toBe(false);
      expect(vectors.size).toBe(30);
    } finally {
      await t.stop();
    }
  }, 60_000);
});
