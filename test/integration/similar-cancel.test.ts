import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ingest } from "../../src/ingest/ingest.js";
import { buildSimilarModel, DEFAULT_BUILD, modelDirectory, type BuildStage } from "../../src/similar/build.js";
import { BuildCancelled } from "../../src/similar/cancellation.js";
import { trainInWorker } from "../../src/similar/trainer.js";
import type { Store } from "../../src/stores/store.js";
import { basketOrder, product } from "../helpers/fixtures.js";
import { createTestMerchant, postJson, startTestService } from "../helpers/service.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-similar-cancel-");

const WORDS = ["velvet sofa", "ceramic mug", "wool socks", "desk lamp", "linen sofa", "travel mug", "hiking socks", "floor lamp"];
const catalogue = Array.from({ length: 40 }, (_, i) => product(100 + i, { title: `Harbor ${WORDS[i % WORDS.length]} ${i}` }));
// Baskets, so the build has behaviour to fine-tune on (the training stage runs batches).
const orders = Array.from({ length: 20 }, (_, i) => basketOrder(i + 1, [100 + (i % 8), 108 + (i % 8)]));

async function shop(dir: string): Promise<Store> {
  const store = await storeWithMerchant(dir);
  await ingest(store, "shop", "products", catalogue);
  await ingest(store, "shop", "orders", orders);
  return store;
}

/** Nothing of a model: no manifest, no vectors, no files. */
function expectNoModel(store: Store, dataDir: string): void {
  expect(store.similar.manifest("shop")).toBeUndefined();
  expect(store.similar.vectorIds("shop").size).toBe(0);
  const directory = modelDirectory(dataDir, "shop");
  expect(existsSync(directory) ? readdirSync(directory) : []).toEqual([]);
}

describe("stopping a similar-model build", () => {
  it("stops at a checkpoint in any stage, writing nothing; uncancelled, the same build checks in at every stage and stores its model", async () => {
    const dataDir = tempDir();
    const store = await shop(dataDir);
    try {
      for (const stopIn of ["training", "embedding", "neighbours"] satisfies BuildStage[]) {
        let stage: BuildStage | null = null;
        const cancelInStage = () => {
          if (stage === stopIn) throw new BuildCancelled();
        };
        const build = buildSimilarModel(store, dataDir, "shop", DEFAULT_BUILD, (progress) => (stage = progress.stage), cancelInStage);
        await expect(build).rejects.toBeInstanceOf(BuildCancelled);
        expect(stage).toBe(stopIn);
        expectNoModel(store, dataDir);
      }
      const checkedIn = new Map<BuildStage | "reading", number>();
      let stage: BuildStage | "reading" = "reading";
      const count = () => checkedIn.set(stage, (checkedIn.get(stage) ?? 0) + 1);
      const manifest = await buildSimilarModel(store, dataDir, "shop", DEFAULT_BUILD, (progress) => (stage = progress.stage), count);
      expect(manifest.training.products).toBe(40);
      expect(store.similar.manifest("shop")?.version).toBe(manifest.version);
      // Reading the catalogue and behaviour (once per product and per order at least), then every stage.
      expect(checkedIn.get("reading")).toBeGreaterThanOrEqual(2 * catalogue.length + orders.length);
      for (const name of ["training", "embedding", "neighbours"]) expect(checkedIn.get(name as BuildStage)).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("stops a build on its own thread when the caller aborts: it rejects with BuildCancelled and writes nothing", async () => {
    const dataDir = tempDir();
    const store = await shop(dataDir);
    try {
      const stop = new AbortController();
      const training = trainInWorker({ dataDir, merchantId: "shop", useBehaviour: true }, () => {}, stop.signal);
      // The thread is still starting: the flag is up before its first checkpoint.
      stop.abort();
      await expect(training).rejects.toBeInstanceOf(BuildCancelled);
      store.refreshSnapshot();
      expectNoModel(store, dataDir);
      // The same request, not aborted, trains and stores the model.
      const manifest = await trainInWorker({ dataDir, merchantId: "shop", useBehaviour: true });
      store.refreshSnapshot();
      expect(store.similar.manifest("shop")?.version).toBe(manifest.version);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("is what the service does at shutdown: closing stops a training under way instead of waiting for it", async () => {
    const t = await startTestService();
    let stopped = false;
    try {
      await createTestMerchant(t, "shop");
      expect((await postJson(t, "/admin/v1/merchants/shop/products", catalogue)).status).toBe(200);
      const { similar } = t.service;
      const training = similar.train("shop");
      training.catch(() => {});
      // The queue was empty, so the job started in a microtask: by the next turn its thread exists
      // (and is still loading: the flag is up before its first checkpoint).
      await new Promise((resolve) => setImmediate(resolve));
      await similar.close();
      await expect(training).rejects.toBeInstanceOf(BuildCancelled);
      expectNoModel(t.service.services.store, t.dataDir);
      await t.stop();
      stopped = true;
    } finally {
      if (!stopped) await t.stop();
    }
  }, 60_000);
});
