import { describe, expect, it } from "vitest";
import { ingest } from "../../src/ingest/ingest.js";
import { buildSimilarModel } from "../../src/similar/build.js";
import { product } from "../helpers/fixtures.js";
import { startTestService } from "../helpers/service.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-similar-reconcile-");

describe("the similar-products model at start", () => {
  it("embeds products added while the service was down and drops the vectors of products deleted meanwhile", async () => {
    const dataDir = tempDir();
    const store = await storeWithMerchant(dataDir);
    const words = ["velvet sofa", "ceramic mug", "wool socks", "desk lamp"];
    await ingest(
      store,
      "shop",
      "products",
      Array.from({ length: 30 }, (_, i) => product(100 + i, { title: `Harbor ${words[i % words.length]} ${i}` })),
    );
    await buildSimilarModel(store, dataDir, "shop");
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
