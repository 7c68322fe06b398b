import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ModelFileRefused } from "../../src/embeddings/model-file.js";
import { ingest } from "../../src/ingest/ingest.js";
import type { Logger } from "../../src/main.js";
import { buildSimilarModel, modelDirectory } from "../../src/similar/build.js";
import { lookUpModel } from "../../src/similar/live-model.js";
import { searchModel } from "../../src/similar/search-model.js";
import { refreshSimilar } from "../../src/similar/refresh.js";
import type { ModelManifest } from "../../src/stores/similar.js";
import type { Store } from "../../src/stores/store.js";
import { basketOrder, product } from "../helpers/fixtures.js";
import { createTestMerchant, eventsApplied, postJson, startTestService } from "../helpers/service.js";
import { storeWithMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-similar-manifest-");

const SOFAS = ["velvet sofa", "linen sofa", "corner sofa", "leather sofa", "sofa bed", "compact sofa"];
const MUGS = ["ceramic mug", "enamel mug", "travel mug", "stoneware mug", "coffee mug", "camp mug"];
const catalogue = [
  ...SOFAS.map((words, i) => product(100 + i, { title: `Harbor ${words}`, product_type: "Sofa", tags: "sofa" })),
  ...MUGS.map((words, i) => product(110 + i, { title: `Harbor ${words}`, product_type: "Mug", tags: "mug" })),
  // Its title, type and tags never say "sofa": only shoppers who view it beside sofas do.
  product(140, { title: "Harbor Chesterfield", product_type: "Seating", tags: "living room", body_html: "<p>Deep buttoned.</p>" }),
];
const CHESTERFIELD = 140;
const orders = Array.from({ length: 12 }, (_, i) => basketOrder(i + 1, [100 + (i % 6), 110 + (i % 6)]));

/**
 * Alters a model file after training in a way onnxruntime cannot notice (one
 * letter of the graph's description): the model still loads and computes the
 * same vectors, so only the manifest's sha256 tells.
 */
function alterModelFile(file: string): void {
  const bytes = readFileSync(file);
  const at = bytes.indexOf("aisle product encoder");
  expect(at).toBeGreaterThan(-1);
  bytes[at] = "A".charCodeAt(0);
  writeFileSync(file, bytes);
}

const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

// A worker keeps its models per merchant id in module state: each test of a
// store in this process trains its own merchant, so none meets another's copy.
async function trainedShop(merchant: string): Promise<{ store: Store; dataDir: string; manifest: ModelManifest; file: string }> {
  const dataDir = tempDir();
  const store = await storeWithMerchant(dataDir, merchant);
  await ingest(store, merchant, "products", catalogue);
  await ingest(store, merchant, "orders", orders);
  const manifest = await buildSimilarModel(store, dataDir, merchant);
  return { store, dataDir, manifest, file: join(modelDirectory(dataDir, merchant), manifest.file) };
}

async function refusalOf(store: Store, dataDir: string, merchant: string): Promise<ModelFileRefused> {
  const { model, refused } = await lookUpModel(store, dataDir, merchant);
  expect(model).toBeNull();
  expect(refused).toBeInstanceOf(ModelFileRefused);
  return refused!;
}

describe("a worker loading a similar-products model checks the file against its manifest", () => {
  const stores: Store[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  const opened = async (merchant: string) => {
    const shop = await trainedShop(merchant);
    stores.push(shop.store);
    return shop;
  };
  const quietErrors = () => vi.spyOn(console, "error").mockImplementation(() => {});

  it("loads an intact model, which computes the vectors the build stored", async () => {
    const { store, dataDir, manifest } = await opened("intact");
    expect((await searchModel(store, dataDir, "intact"))?.manifest.version).toBe(manifest.version);
    const summary = await refreshSimilar(store, dataDir, "intact", [100, 110, CHESTERFIELD]);
    expect(summary).toMatchObject({ model: manifest.version, refused: null, embedded: 0, unchanged: 3 });
  }, 60_000);

  it("refuses a file altered after training: the error names merchant, file, expected and found sha256, logged once; the shop has no model to its callers", async () => {
    const { store, dataDir, manifest, file } = await opened("altered");
    const logged = quietErrors();
    alterModelFile(file);
    const refusal = await refusalOf(store, dataDir, "altered");
    expect(refusal.merchant).toBe("altered");
    expect(refusal.file).toBe(file);
    expect(refusal.expected).toContain(manifest.sha256);
    expect(refusal.found).toBe(`sha256 ${sha256Of(file)}`);
    expect(refusal.message).toContain(`"altered"`);
    expect(refusal.message).toContain(file);

    // What a search and a refresh get: no model, as for a shop that has none; the file is not checked, nor the refusal logged, again.
    expect(await searchModel(store, dataDir, "altered")).toBeNull();
    const summary = await refreshSimilar(store, dataDir, "altered", [100]);
    expect(summary).toMatchObject({ model: null, refused: refusal.message, embedded: 0 });
    expect(logged.mock.calls).toEqual([[refusal.message]]);
  }, 60_000);

  it("checks again once the model is retrained, though the new file has the same bytes and version", async () => {
    const { store, dataDir, manifest, file } = await opened("retrained");
    quietErrors();
    alterModelFile(file);
    await refusalOf(store, dataDir, "retrained");
    const retrained = await buildSimilarModel(store, dataDir, "retrained");
    expect(retrained.version).toBe(manifest.version);
    expect(sha256Of(file)).toBe(retrained.sha256);
    expect((await lookUpModel(store, dataDir, "retrained")).model?.manifest.createdAt).toBe(retrained.createdAt);
  }, 60_000);

  it("refuses a missing file", async () => {
    const { store, dataDir, manifest, file } = await opened("missing");
    quietErrors();
    rmSync(file);
    const refusal = await refusalOf(store, dataDir, "missing");
    expect(refusal.expected).toContain(manifest.sha256);
    expect(refusal.found).toBe("no readable file (ENOENT)");
  }, 60_000);

  it.each([
    ["format", { format: "aisle-product-encoder-v2" }, 'format "aisle-product-encoder-v2"'],
    ["version", { version: "0123456789abcdef" }, "version 0123456789abcdef"],
  ])(
    "refuses a manifest with an unknown %s, though its file is intact",
    async (field, change, found) => {
      const merchant = `unknown-${field}`;
      const { store, dataDir, manifest, file } = await opened(merchant);
      quietErrors();
      await store.atomically(() => store.similar.putManifest(merchant, { ...manifest, ...change } as ModelManifest));
      const refusal = await refusalOf(store, dataDir, merchant);
      expect(refusal.file).toBe(file);
      expect(refusal.expected).toContain(field === "format" ? '"aisle-product-encoder"' : manifest.version);
      expect(refusal.found).toBe(found);
      expect(sha256Of(file)).toBe(manifest.sha256);
    },
    60_000,
  );
});

describe("the service with a refused model file", () => {
  it("answers 200 as a shop without a model does, then trains a new model when a product change meets the refusal", async () => {
    const infos: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: (message) => infos.push(message),
      warn: () => {},
      error: (message, fields) => console.error(message, fields),
    };
    const t = await startTestService({ logger });
    try {
      const shop = await createTestMerchant(t, "furnish");
      expect((await postJson(t, "/admin/v1/merchants/furnish/products", catalogue)).status).toBe(200);
      // Shoppers browse the chesterfield between sofas.
      for (let session = 0; session < 8; session++) {
        const uuid = `00000000-0000-4000-8000-${String(session).padStart(12, "0")}`;
        for (const id of [100 + (session % 6), CHESTERFIELD, 100 + ((session + 1) % 6), CHESTERFIELD]) {
          const res = await fetch(
            `${t.base}/api/v1/analytics/event?key=${shop.api_key}&subject=user&verb=viewed&noun=product&platform_product_handle=product-${id}&uuid=${uuid}`,
            { method: "POST" },
          );
          expect(res.status).toBe(200);
        }
      }
      await eventsApplied(t, "furnish");
      await t.service.similar.idle();
      const { store } = t.service.services;
      // The training thread wrote the model: read it from a fresh snapshot.
      store.refreshSnapshot();
      const trained = store.similar.manifest("furnish")!;
      const file = join(modelDirectory(t.dataDir, "furnish"), trained.file);
      const search = async () => {
        const res = await fetch(`${t.base}/api/v1/smart-search/search/quick-view?Service-Api-Key=${shop.api_key}`, {
          method: "POST",
          body: JSON.stringify({ query: "sofa", limit: 10 }),
        });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { data: { productSuggestions: { id: string }[] } };
        return body.data.productSuggestions.map((suggestion) => Number(suggestion.id));
      };

      alterModelFile(file);
      // Words alone: the six sofas, without the chesterfield only the model places near "sofa".
      expect((await search()).sort((a, b) => a - b)).toEqual([100, 101, 102, 103, 104, 105]);
      const similar = await fetch(`${t.base}/api/v1/products/similar_products?platform_product_ids=102&limit=4&key=${shop.api_key}`);
      expect(similar.status).toBe(200);

      expect((await postJson(t, "/admin/v1/merchants/furnish/products", product(111, { title: "Harbor swing arm lamp" }))).status).toBe(
        200,
      );
      await t.service.similar.idle();
      expect(infos.filter((message) => message.startsWith("training a new similar-products model"))).toHaveLength(1);
      store.refreshSnapshot();
      const retrained = store.similar.manifest("furnish")!;
      expect(retrained.createdAt).not.toBe(trained.createdAt);
      expect(sha256Of(join(modelDirectory(t.dataDir, "furnish"), retrained.file))).toBe(retrained.sha256);
      expect(await search()).toContain(CHESTERFIELD);
    } finally {
      await t.stop();
    }
  }, 60_000);

  it("does not train again and again when the model it trained to replace a refused one is refused too", async () => {
    const infos: string[] = [];
    const errors: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: (message) => infos.push(message),
      warn: () => {},
      error: (message) => errors.push(message),
    };
    const t = await startTestService({ logger });
    try {
      await createTestMerchant(t, "failing");
      expect((await postJson(t, "/admin/v1/merchants/failing/products", catalogue)).status).toBe(200);
      await t.service.similar.idle();
      const { store } = t.service.services;
      const modelFile = () => {
        store.refreshSnapshot();
        return join(modelDirectory(t.dataDir, "failing"), store.similar.manifest("failing")!.file);
      };
      const change = async (id: number) => {
        expect((await postJson(t, "/admin/v1/merchants/failing/products", product(id, { title: `Lamp ${id}` }))).status).toBe(200);
        await t.service.similar.idle();
      };
      const retrainings = () => infos.filter((message) => message.startsWith("training a new similar-products model")).length;
      alterModelFile(modelFile());
      await change(120);
      expect(retrainings()).toBe(1);
      // A disk that keeps failing: the new file is refused as well, before anything loaded it.
      alterModelFile(modelFile());
      await change(121);
      await change(122);
      expect(retrainings()).toBe(1);
      expect(errors.filter((message) => message.includes("not retraining again")).length).toBeGreaterThan(0);
    } finally {
      await t.stop();
    }
  }, 60_000);
});
