// The stored render data (real LMDB): however catalogue writes interleave,
// the data kept up to date write by write is the data a rebuild from the
// catalogue writes.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseProduct } from "../../src/core/ingest/product.js";
import { normaliseCollection, normaliseMarket } from "../../src/core/ingest/records.js";
import { Store } from "../../src/stores/store.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-product-render-", "all");
const NOW = "2026-05-01T00:00:00+00:00";
/** Product ids a catalogue draws from. */
const PRODUCT_IDS = [1, 2, 3, 4, 5, 6, 7, 8];
const MARKET_IDS = [1, 2, 3];
const COUNTRIES = ["CA", "GB", "FR"];

/** Text with what JSON escapes, characters beyond ASCII, and fragments that look like the price members spliced. */
const text = fc.string({
  unit: fc.constantFrom(
    "a",
    "Z",
    " ",
    '"',
    "\\",
    "/",
    "é",
    "😀",
    "\u2028",
    "\u0007",
    "<p>",
    ",",
    '"price":"1.00"',
    '{"compare_at_price":null}',
  ),
  maxLength: 6,
});
/** Amounts from a small range, so prices often meet a bound exactly and a market often repeats the shop's price. */
const amount = fc.integer({ min: 0, max: 8 }).map((units) => (units * 1.5).toFixed(2));

const variantArb = fc.record({
  price: amount,
  compareAt: fc.option(amount, { nil: null }),
  // Often unavailable: stock is judged on the variants shown, which unset_variants changes.
  inventory_quantity: fc.integer({ min: -1, max: 2 }),
  inventory_policy: fc.constantFrom("deny", "deny", "deny", "continue"),
  inventory_management: fc.constantFrom("platform", "platform", "platform", null),
  option1: text,
  sellingPlans: fc.boolean(),
  metafield: fc.boolean(),
});

function productArb(id: number) {
  return fc
    .record({
      title: text,
      body: text,
      tags: fc.subarray(["sale", "exclude_service", " Exclude_Service ", "gift"]),
      status: fc.constantFrom("active", "draft", "archived"),
      published: fc.boolean(),
      variants: fc.array(variantArb, { minLength: 1, maxLength: 3 }),
      images: fc.integer({ min: 0, max: 2 }),
      metafields: fc.subarray([
        { namespace: "a", key: "k1" },
        { namespace: "b", key: "k2" },
      ]),
    })
    .map((spec) => ({
      id,
      title: `T${spec.title}`,
      body_html: spec.body,
      vendor: "V",
      product_type: "P",
      handle: `h${id}`,
      status: spec.status,
      tags: spec.tags.join(","),
      published_at: spec.published ? "2026-01-02T10:00:00-05:00" : null,
      variants: spec.variants.map((v, k) => ({
        id: id * 10 + k + 1,
        title: `V${k}`,
        price: v.price,
        compare_at_price: v.compareAt,
        sku: `S${id}-${k}`,
        inventory_quantity: v.inventory_quantity,
        inventory_policy: v.inventory_policy,
        inventory_management: v.inventory_management,
        option1: v.option1,
        selling_plan_allocations: v.sellingPlans ? [{ selling_plan_id: 7, price: v.price }] : [],
        metafields: v.metafield ? [{ id: 9_000 + id * 10 + k, namespace: "b", key: "k2", value: `"${k}"`, type: "json" }] : [],
      })),
      options: [{ name: "Size", values: spec.variants.map((v) => v.option1) }],
      images: Array.from({ length: spec.images }, (_, k) => ({
        id: id * 100 + k,
        src: `https://cdn.example.com/${id}-${k}.jpg`,
        width: 800,
        height: 600,
        alt: k === 0 ? null : `alt ${spec.title}`,
      })),
      metafields: spec.metafields.map((m, k) => ({ id: 8_000 + id * 10 + k, ...m, value: spec.title, type: "single_line_text_field" })),
    }));
}

const productsArb = fc
  .uniqueArray(fc.constantFrom(...PRODUCT_IDS), { minLength: 1, maxLength: PRODUCT_IDS.length })
  .chain((ids) => fc.tuple(...ids.map(productArb)));

/** Variant ids of products 1-8 (1-3 variants each), and some of variants no product has. */
const variantId = fc.tuple(fc.constantFrom(...PRODUCT_IDS), fc.integer({ min: 1, max: 4 })).map(([id, k]) => String(id * 10 + k));

const marketArb = fc.record({
  id: fc.constantFrom(...MARKET_IDS),
  name: fc.constant("Market"),
  active: fc.boolean(),
  countries: fc.subarray(COUNTRIES, { minLength: 1 }),
  currency: fc.constant("CAD"),
  product_ids: fc.option(fc.subarray(PRODUCT_IDS), { nil: null }),
  variant_prices: fc.dictionary(variantId, fc.record({ price: amount, compare_at_price: fc.option(amount, { nil: null }) })),
});

const collectionArb = fc.record({
  id: fc.constantFrom(1, 2),
  title: fc.constant("Collection"),
  product_ids: fc.subarray(PRODUCT_IDS),
});

type CatalogueWrite =
  | { kind: "products"; products: Record<string, unknown>[] }
  | { kind: "delete_product"; id: number }
  | { kind: "markets"; markets: Record<string, unknown>[] }
  | { kind: "collections"; collections: Record<string, unknown>[] }
  | { kind: "delete_collection"; id: number };

const writeArb: fc.Arbitrary<CatalogueWrite> = fc.oneof(
  { arbitrary: productsArb.map((products) => ({ kind: "products" as const, products })), weight: 3 },
  { arbitrary: fc.constantFrom(...PRODUCT_IDS).map((id) => ({ kind: "delete_product" as const, id })), weight: 2 },
  { arbitrary: fc.array(marketArb, { minLength: 1, maxLength: 2 }).map((markets) => ({ kind: "markets" as const, markets })), weight: 2 },
  fc.array(collectionArb, { minLength: 1, maxLength: 2 }).map((collections) => ({ kind: "collections" as const, collections })),
  fc.constantFrom(1, 2).map((id) => ({ kind: "delete_collection" as const, id })),
);

async function apply(store: Store, merchant: string, write: CatalogueWrite): Promise<void> {
  switch (write.kind) {
    case "products":
      return store.upsertProducts(
        merchant,
        write.products.map((raw, i) => ({ path: `products[${i}]`, value: normaliseProduct(raw, `products[${i}]`, NOW) })),
      );
    case "delete_product":
      await store.deleteProduct(merchant, write.id);
      return;
    case "markets":
      return store.upsertMarkets(
        merchant,
        write.markets.map((raw, i) => ({ path: `markets[${i}]`, value: normaliseMarket(raw, `markets[${i}]`) })),
      );
    case "collections":
      return store.upsertCollections(
        merchant,
        write.collections.map((raw, i) => ({ path: `collections[${i}]`, value: normaliseCollection(raw, `collections[${i}]`) })),
      );
    case "delete_collection":
      await store.deleteCollection(merchant, write.id);
  }
}

/** Everything the render store holds for a merchant, read through its own readers over every id the writes can touch. */
function renderData(store: Store, merchant: string): unknown {
  const rendered = store.productRender;
  return PRODUCT_IDS.map((id) => ({
    id,
    eligibility: rendered.eligibility(merchant, id),
    full: rendered.storedJson(merchant, id, "full"),
    reduced: rendered.storedJson(merchant, id, "reduced"),
    markets: MARKET_IDS.map((marketId) => rendered.marketPricing(merchant, marketId, id)),
  }));
}

let store: Store;
let merchants = 0;

/** A merchant of its own for each generated case: cases share one store, not their data. */
async function newMerchant(): Promise<string> {
  const id = `m${++merchants}`;
  await store.createMerchant(storedMerchant(id));
  return id;
}

beforeAll(() => {
  store = Store.open(tempDir());
});
afterAll(() => store.close());

describe("the product render store (real LMDB)", () => {
  it("kept up to date write by write, holds what a rebuild from the catalogue writes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(writeArb, { minLength: 2, maxLength: 10 }), async (writes) => {
        const merchant = await newMerchant();
        for (const write of writes) await apply(store, merchant, write);
        const incremental = renderData(store, merchant);
        await store.atomically(() => {
          store.productRender.clear(merchant);
          for (let cursor = store.productRender.buildSlice(merchant, null); cursor !== null;) {
            cursor = store.productRender.buildSlice(merchant, cursor);
          }
        });
        expect(incremental).toEqual(renderData(store, merchant));
      }),
      { numRuns: 50 },
    );
  });
});
