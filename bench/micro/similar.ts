// The similar-products model: full build time (train → ONNX → embed → neighbour
// lists), one product's embedding through onnxruntime-node on a worker thread,
// and the refresh after one product changes. On a freshly seeded demo shop, or
// on a synthetic shop of any size (`--similar-products N` in run.ts).
import { Worker } from "node:worker_threads";
import { join } from "node:path";
import { seedDemo } from "../../src/demo/seed.js";
import { buildSimilarModel, modelDirectory } from "../../src/similar/build.js";
import { refreshSimilar } from "../../src/similar/refresh.js";
import { Store } from "../../src/stores/store.js";
import { makeTempDir, removeTempDir } from "../shared/children.js";
import type { MicroResult, MicroSuite } from "../shared/results.js";
import { fromSamples } from "./measure.js";

export interface SimilarBenchOptions {
  quick: boolean;
  /** Catalogue size; the demo generator scales customers, orders and sessions with it. */
  products?: number;
}

/** Embeds single products in a worker thread, as a pool worker serving a query would; returns µs per call. */
function embedLatencyInWorker(modelDir: string, merchant: string, productTexts: unknown[], calls: number): Promise<number[]> {
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    (async () => {
      const { loadModelFile } = await import(workerData.modelFile);
      const { productFeatures } = await import(workerData.features);
      const manifest = workerData.manifest;
      const encoder = await loadModelFile(workerData.modelDir, workerData.merchant, manifest);
      const features = workerData.products.map((p) => productFeatures(p, manifest.hashing));
      const samples = [];
      for (let i = 0; i < workerData.calls; i++) {
        const started = process.hrtime.bigint();
        await encoder.embed([features[i % features.length]]);
        samples.push(Number(process.hrtime.bigint() - started) / 1000);
      }
      await encoder.release();
      parentPort.postMessage(samples);
    })().catch((error) => parentPort.postMessage({ error: String(error) }));`;
  return import("node:fs").then(({ readFileSync }) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: {
        modelFile: new URL("../../src/embeddings/model-file.js", import.meta.url).href,
        features: new URL("../../src/core/embedding/features.js", import.meta.url).href,
        manifest: JSON.parse(readFileSync(join(modelDir, "manifest.json"), "utf8")),
        modelDir,
        merchant,
        products: productTexts,
        calls,
      },
    });
    return new Promise<number[]>((resolve, reject) => {
      worker.once("message", (message: number[] | { error: string }) => {
        void worker.terminate();
        if (Array.isArray(message)) resolve(message);
        else reject(new Error(message.error));
      });
      worker.once("error", reject);
    });
  });
}

export async function runSimilarBench(options: SimilarBenchOptions): Promise<MicroSuite> {
  const dataDir = makeTempDir("aisle-bench-similar-");
  const store = Store.open(dataDir);
  try {
    const size = options.products;
    const demo = await seedDemo(
      store,
      size === undefined ? {} : { products: size, customers: Math.max(2_000, Math.round(size / 5)), sessions: Math.max(20_000, size / 2) },
    );
    const merchant = demo.merchantId;
    const label = size === undefined ? "demo" : `${size.toLocaleString("en-US")} products`;

    const started = performance.now();
    const manifest = await buildSimilarModel(store, dataDir, merchant);
    const buildUs = (performance.now() - started) * 1000;
    const results: MicroResult[] = [
      fromSamples(
        `full build, ${label}: train ${manifest.training.samples.toLocaleString("en-US")} pairs + ONNX export + embed + neighbour lists`,
        [buildUs],
        {
          name: size === undefined ? "similarBuildDemo" : "similarBuildScale",
          stat: "p50",
        },
      ),
    ];

    const ids = store.catalogue.productIds(merchant);
    const texts = ids.slice(0, 256).map((id) => store.catalogue.product(merchant, id)!);
    const embedSamples = await embedLatencyInWorker(modelDirectory(dataDir, merchant), merchant, texts, options.quick ? 500 : 5_000);
    results.push(
      fromSamples(`embed one product in a worker (onnxruntime-node, ${manifest.hashing.buckets} × ${manifest.dims} table)`, embedSamples, [
        { name: "similarEmbedP50", stat: "p50" },
        { name: "similarEmbedP99", stat: "p99" },
      ]),
    );

    // Refresh after one product changes: its title is swapped with another's, so its neighbours really move.
    const refreshSamples: number[] = [];
    const rounds = options.quick ? 10 : 40;
    for (let round = 0; round < rounds; round++) {
      const id = ids[(round * 7919) % ids.length]!;
      const donor = store.catalogue.product(merchant, ids[(round * 104_729 + 1) % ids.length]!)!;
      const product = store.catalogue.product(merchant, id)!;
      await store.catalogue.upsertProducts(merchant, [
        {
          path: "bench",
          value: {
            product: { ...product, title: donor.title, product_type: donor.product_type },
            metafields: store.catalogue.metafields(merchant, "product", id),
          },
        },
      ]);
      const refreshStarted = performance.now();
      await refreshSimilar(store, dataDir, merchant, [id]);
      refreshSamples.push((performance.now() - refreshStarted) * 1000);
    }
    // Most webhooks change price or stock, not text: the refresh embeds the product and stops there.
    const priceSamples: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const id = ids[(round * 6_151) % ids.length]!;
      const product = store.catalogue.product(merchant, id)!;
      const variants = product.variants.map((variant) => ({ ...variant, price: (Number(variant.price) + 1).toFixed(2) }));
      await store.catalogue.upsertProducts(merchant, [
        { path: "bench", value: { product: { ...product, variants }, metafields: store.catalogue.metafields(merchant, "product", id) } },
      ]);
      const refreshStarted = performance.now();
      await refreshSimilar(store, dataDir, merchant, [id]);
      priceSamples.push((performance.now() - refreshStarted) * 1000);
    }
    // The first refresh loads the model and every vector into the worker: reported apart.
    results.push(fromSamples(`refresh after one product changed (first, with model load)`, refreshSamples.slice(0, 1)));
    results.push(
      fromSamples(`refresh after one product's text changed (embed + own list + patch the lists it reaches)`, refreshSamples.slice(1), {
        name: "similarRefreshP99",
        stat: "p99",
      }),
    );
    results.push(fromSamples(`refresh after a price change (embed, vector unchanged, nothing written)`, priceSamples));
    return {
      title: `similar-products model (${label})`,
      results,
      note: `${manifest.training.products} products, ${manifest.training.productsWithBehaviour} with behaviour (${manifest.training.orders} orders, ${manifest.training.viewSessions} view sessions); the build runs on this thread, the embedding rows in a worker thread; a refresh is the pool task's function called in-process`,
    };
  } finally {
    await store.close();
    removeTempDir(dataDir);
  }
}
