import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import onnxProto from "onnx-proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_HASHING, productFeatures } from "../../src/core/embedding/features.js";
import { embedInto } from "../../src/core/embedding/model.js";
import { DEFAULT_TRAINING, fineTune, groupsOf, textOnlyModel } from "../../src/core/embedding/train.js";
import { encoderGraph } from "../../src/embeddings/onnx-graphs.js";
import { Encoder } from "../../src/embeddings/onnx-runtime.js";
import { modelDirectory } from "../../src/similar/build.js";
import { basketOrder, product } from "../helpers/fixtures.js";
import { createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";

// Four kinds of product with their own words, six of each.
const KINDS = [
  { type: "Sofa", words: ["velvet sofa", "linen sofa", "corner sofa", "leather sofa", "sofa bed", "compact sofa"] },
  { type: "Mug", words: ["ceramic mug", "enamel mug", "travel mug", "stoneware mug", "coffee mug", "camp mug"] },
  { type: "Socks", words: ["wool socks", "hiking socks", "ankle socks", "merino socks", "running socks", "cotton socks"] },
  { type: "Lamp", words: ["desk lamp", "floor lamp", "reading lamp", "table lamp", "brass lamp", "clip lamp"] },
];
const catalogue = KINDS.flatMap((kind, k) =>
  kind.words.map((words, i) =>
    product(100 + k * 10 + i, {
      title: `Harbor ${words}`,
      product_type: kind.type,
      tags: kind.type.toLowerCase(),
      body_html: `<p>A ${words}.</p>`,
    }),
  ),
);
// A sofa whose title, type and tags never say "sofa": only its description and
// shoppers who view it beside sofas do.
const chesterfield = product(140, {
  title: "Harbor Chesterfield",
  product_type: "Seating",
  tags: "living room",
  body_html: "<p>Deep buttoned, for the living room.</p>",
});
catalogue.push(chesterfield);
const kindOf = (id: number) => (id === 140 ? "Sofa" : KINDS[Math.floor((id - 100) / 10)]!.type);

let t: TestService;
let shop: { api_key: string };
let other: { api_key: string };

async function get(path: string, key = shop.api_key): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.base}${path}${path.includes("?") ? "&" : "?"}key=${key}`);
  return { status: res.status, body: await res.json() };
}
const ids = (body: any): number[] => body.data.map((p: { id: number }) => p.id);

beforeAll(async () => {
  t = await startTestService();
  shop = await createTestMerchant(t, "furnish");
  other = await createTestMerchant(t, "rival");
  expect((await postJson(t, "/admin/v1/merchants/furnish/products", catalogue)).status).toBe(200);
  // The rival sells sofas too: they must never show up in furnish's lists.
  expect(
    (await postJson(t, "/admin/v1/merchants/rival/products", [product(900, { title: "Harbor velvet sofa twin", product_type: "Sofa" })]))
      .status,
  ).toBe(200);
  const orders = Array.from({ length: 12 }, (_, index) => basketOrder(index + 1, [100, 101]));
  expect((await postJson(t, "/admin/v1/merchants/furnish/orders", orders)).status).toBe(200);
  // Shoppers browse the chesterfield between sofas.
  for (let session = 0; session < 8; session++) {
    const uuid = `00000000-0000-4000-8000-${String(session).padStart(12, "0")}`;
    for (const id of [100 + (session % 6), 140, 100 + ((session + 1) % 6), 140]) {
      const res = await fetch(
        `${t.base}/api/v1/analytics/event?key=${shop.api_key}&subject=user&verb=viewed&noun=product&platform_product_handle=product-${id}&uuid=${uuid}`,
        { method: "POST" },
      );
      expect(res.status).toBe(200);
    }
  }
  // A shop with products and no model gets one trained once its catalogue is quiet.
  await t.service.similar.idle();
}, 60_000);
afterAll(() => t.stop());

describe("the similar-products model", () => {
  it("is trained for a shop that received products, with a real .onnx file and a manifest whose sha256 matches it", () => {
    const manifestPath = join(modelDirectory(t.dataDir, "furnish"), "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    const onnx = readFileSync(join(modelDirectory(t.dataDir, "furnish"), manifest.file));
    expect(createHash("sha256").update(onnx).digest("hex")).toBe(manifest.sha256);
    expect(manifest.training.products).toBe(25);
    expect(manifest.training.orders).toBe(12);
    const model = onnxProto.onnx.ModelProto.decode(onnx);
    const standard = new Set(["Gather", "Mul", "Unsqueeze", "ReduceSum", "Max", "Sqrt", "Div"]);
    expect(model.graph!.node!.every((node) => standard.has(node.opType!) && (node.domain ?? "") === "")).toBe(true);
  });

  it("runs in onnxruntime-node with the TypeScript reference's output within 1e-5", async () => {
    const scheme = { ...DEFAULT_HASHING, buckets: 1 << 12 };
    const texts = catalogue.map((p) => ({
      ...(p as { id: number; title: string; product_type: string; vendor: string; tags: string; body_html: string }),
    }));
    const features = texts.map((p) => productFeatures(p, scheme));
    const model = textOnlyModel(
      features,
      texts.map((p) => p.id),
      scheme,
      DEFAULT_TRAINING,
    );
    fineTune(model, features, groupsOf([[0, 7]], [1], [0]), { ...DEFAULT_TRAINING, minSamples: 500, batchSize: 16 });
    const encoder = await Encoder.load(encoderGraph(model), model.dims);
    const served = await encoder.embed(features);
    await encoder.release();
    const reference = new Float32Array(model.dims);
    let worst = 0;
    features.forEach((f, row) => {
      embedInto(model, f, reference);
      for (let dim = 0; dim < model.dims; dim++) worst = Math.max(worst, Math.abs(reference[dim]! - served[row * model.dims + dim]!));
    });
    expect(worst).toBeLessThan(1e-5);
  });
});

describe("quick-view search's semantic fallback", () => {
  it("tops up a short lexical result with products the model places near the query", async () => {
    const res = await fetch(`${t.base}/api/v1/smart-search/search/quick-view?Service-Api-Key=${shop.api_key}`, {
      method: "POST",
      body: JSON.stringify({ query: "sofa", limit: 10 }),
    });
    const found = ((await res.json()) as { data: { productSuggestions: { id: string }[] } }).data.productSuggestions.map((s) =>
      Number(s.id),
    );
    // Words find the six sofas first; meaning adds the chesterfield, and nothing unrelated.
    expect(found.slice(0, 6).every((id) => kindOf(id) === "Sofa" && id !== 140)).toBe(true);
    expect(found).toContain(140);
    expect(found.every((id) => kindOf(id) === "Sofa")).toBe(true);
  });
});

describe("GET /api/v1/products/similar_products and recommended?context=similar", () => {
  it("returns products of the same kind, never the input, never another shop's", async () => {
    for (const input of [102, 111, 125, 133]) {
      const { status, body } = await get(`/api/v1/products/similar_products?platform_product_ids=${input}&limit=4`);
      expect(status).toBe(200);
      const found = ids(body);
      expect(found).toHaveLength(4);
      expect(found).not.toContain(input);
      expect(found).not.toContain(900);
      expect(found.filter((id) => kindOf(id) === kindOf(input)).length).toBeGreaterThanOrEqual(3);
    }
  });

  it("serves the same model as recommended with context=similar (and its alias)", async () => {
    const direct = ids((await get("/api/v1/products/similar_products?platform_product_ids=112&limit=5")).body);
    expect(ids((await get("/api/v1/products/recommended?platform_product_ids=112&limit=5&context=similar")).body)).toEqual(direct);
    expect(ids((await get("/api/v1/products/recommended?platform_product_ids=112&limit=5&context=similar_products")).body)).toEqual(direct);
  });

  it("asks for the input products", async () => {
    const { status, body } = await get("/api/v1/products/similar_products?limit=4");
    expect(status).toBe(400);
    expect(body.error).toBe("Missing required endpoint arg: platform_product_ids");
    // The sources list, which storefront builders read to know what to fill in, says so too.
    const sources = (await (await fetch(`${t.base}/api/v1/sources`)).json()) as {
      data: { path: string; query: { name: string; required: boolean }[] }[];
    };
    const similar = sources.data.find(({ path }) => path === "/api/v1/products/similar_products")!;
    expect(similar.query.find(({ name }) => name === "platform_product_ids")).toMatchObject({ required: true });
  });

  it("follows a product change: a retitled product is embedded again and the lists it reaches are patched", async () => {
    const before = ids((await get("/api/v1/products/similar_products?platform_product_ids=130&limit=5")).body);
    expect(before).not.toContain(113);
    // Product 113 (a mug) becomes a lamp.
    const lamp = product(113, {
      title: "Harbor swing arm lamp",
      product_type: "Lamp",
      tags: "lamp",
      body_html: "<p>A swing arm lamp.</p>",
    });
    expect((await postJson(t, "/admin/v1/merchants/furnish/products", lamp)).status).toBe(200);
    await t.service.similar.idle();
    const lamps = ids((await get("/api/v1/products/similar_products?platform_product_ids=113&limit=4")).body);
    expect(lamps.filter((id) => kindOf(id) === "Lamp").length).toBeGreaterThanOrEqual(3);
    const mugs = await get("/api/v1/products/similar_products?platform_product_ids=110&limit=5");
    expect(ids(mugs.body)).not.toContain(113);
  });

  it("leaves vectors and lists alone when an edit does not touch the text (a price change)", async () => {
    const { store } = t.service.services;
    const version = store.version("furnish", "similar");
    const list = store.similar.neighboursOf("furnish", 131);
    const repriced = catalogue.find((p) => p.id === 131)!;
    expect(
      (
        await postJson(t, "/admin/v1/merchants/furnish/products", {
          ...repriced,
          variants: [{ ...(repriced.variants as object[])[0]!, price: "99.00" }],
        })
      ).status,
    ).toBe(200);
    await t.service.similar.idle();
    expect(store.version("furnish", "similar")).toBe(version);
    expect(store.similar.neighboursOf("furnish", 131)).toEqual(list);
  });

  it("drops a deleted product from every list", async () => {
    const victim = ids((await get("/api/v1/products/similar_products?platform_product_ids=120&limit=1")).body)[0]!;
    expect((await t.admin(`/admin/v1/merchants/furnish/products/${victim}`, { method: "DELETE" })).status).toBe(200);
    await t.service.similar.idle();
    const { store } = t.service.services;
    for (const id of store.catalogue.productIds("furnish")) {
      const list = store.similar.neighboursOf("furnish", id)!;
      expect(list.ids).not.toContain(victim);
      // Every other product is still listed (the catalogue is smaller than a list).
      expect(list.ids).toHaveLength(store.catalogue.productIds("furnish").length - 1);
    }
    expect(store.similar.vector("furnish", victim)).toBeUndefined();
  });

  it("keeps another shop's model apart", async () => {
    // The rival's only product is the input itself: nothing of furnish's fills the list.
    const { body } = await get("/api/v1/products/similar_products?platform_product_ids=900&limit=5", other.api_key);
    expect(ids(body)).toEqual([]);
    expect(t.service.services.store.similar.neighboursOf("rival", 900)).toEqual({ ids: [], weights: [] });
  });
});
