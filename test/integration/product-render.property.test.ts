// The stored render data against the renderer it replaced (real LMDB): on
// random catalogues, markets and list options, an answer built from stored
// eligibility records and JSON has exactly the bytes decoding, filtering,
// projecting and serializing every product gave, also read again from the
// thread's render cache between catalogue writes; and however catalogue
// writes interleave, the data kept up to date write by write is the data a
// rebuild from the catalogue writes.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseProduct } from "../../src/core/ingest/product.js";
import { normaliseCollection, normaliseMarket } from "../../src/core/ingest/records.js";
import type { MetafieldSelector } from "../../src/core/products/metafield-selection.js";
import type { PriceFilter } from "../../src/core/products/price-filter.js";
import type { ListOptions } from "../../src/core/products/query.js";
import { productListBody } from "../../src/core/products/render.js";
import type { Customer } from "../../src/core/types.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import { Store } from "../../src/stores/store.js";
import { referenceListBody, referencePurchasedBody } from "../helpers/reference-render.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-product-render-", "all");
const NOW = "2026-05-01T00:00:00+00:00";
/** Product ids a catalogue draws from; candidates also name 9 and 10, which never exist. */
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
const cents = fc.integer({ min: 0, max: 8 }).map((units) => units * 150);

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
      tags: fc.tuple(fc.subarray(["sale", "gift"]), fc.constantFrom([], [], [], ["exclude_service"], [" Exclude_Service "])),
      status: fc.constantFrom("active", "active", "draft", "archived"),
      published: fc.constantFrom(true, true, true, false),
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
      tags: spec.tags.flat().join(","),
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
  .uniqueArray(fc.constantFrom(...PRODUCT_IDS), { minLength: 3, maxLength: PRODUCT_IDS.length })
  .chain((ids) => fc.tuple(...ids.map(productArb)));

/** Variant ids of products 1-8 (1-3 variants each), and some of variants no product has. */
const variantId = fc.tuple(fc.constantFrom(...PRODUCT_IDS), fc.integer({ min: 1, max: 4 })).map(([id, k]) => String(id * 10 + k));

const marketArb = fc.record({
  id: fc.constantFrom(...MARKET_IDS),
  name: fc.constant("Market"),
  active: fc.constantFrom(true, true, true, false),
  countries: fc.subarray(COUNTRIES, { minLength: 1 }),
  currency: fc.constant("CAD"),
  product_ids: fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, fc.subarray(PRODUCT_IDS)),
  variant_prices: fc
    .uniqueArray(fc.tuple(variantId, fc.record({ price: amount, compare_at_price: fc.option(amount, { nil: null }) })), {
      minLength: 4,
      maxLength: 24,
      selector: ([id]) => id,
    })
    .map((prices) => Object.fromEntries(prices)),
});

const collectionArb = fc.record({
  id: fc.constantFrom(1, 2),
  title: fc.constant("Collection"),
  product_ids: fc.subarray(PRODUCT_IDS),
});

const selectorArb: fc.Arbitrary<MetafieldSelector | null> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 9 },
  fc.constant<MetafieldSelector>({ all: true, nsKeys: [], namespaces: [] }),
  fc.constant<MetafieldSelector>({ all: false, nsKeys: ["a.k1"], namespaces: [] }),
  fc.constant<MetafieldSelector>({ all: false, nsKeys: [], namespaces: ["b"] }),
);

/** One bound or two (a range) mostly, so that conditions often leave some variants in; sometimes any mix. */
const priceFilterArb: fc.Arbitrary<PriceFilter> = fc.oneof(
  fc.record({ atMost: cents }),
  fc.record({ atLeast: cents }),
  fc.record({ above: cents }),
  fc.record({ equalTo: cents }),
  fc.record({ atLeast: cents, atMost: cents }),
  fc.record({ atMost: cents, equalTo: cents, above: cents, atLeast: cents }, { requiredKeys: [] }),
);

/**
 * Weighted so that about half the lists show products, many from stored JSON
 * in a market that prices them: every filter alone rejects little, but all of
 * them at even odds left most answers empty, which compare equal whatever the
 * stored data holds.
 */
const listArb: fc.Arbitrary<ListOptions> = fc.record({
  limit: fc.integer({ min: 1, max: 6 }),
  filterOos: fc.boolean(),
  filterUnpublished: fc.constantFrom(false, false, true),
  excludedIds: fc.subarray(PRODUCT_IDS, { maxLength: 2 }),
  restrictTo: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, fc.subarray(PRODUCT_IDS)),
  countryCode: fc.constantFrom("CA", "GB", "FR", null),
  projection: fc.constantFrom("full" as const, "reduced" as const),
  metafields: fc.record({ product: selectorArb, variant: selectorArb }),
  sellingPlans: fc.constantFrom(false, false, true),
  pretty: fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, fc.constant(true)),
  price: fc.option(priceFilterArb, { nil: null, freq: 2 }),
  unsetVariants: fc.boolean(),
  honourExcludeServiceTag: fc.boolean(),
  fresh: fc.constant(false),
});

const candidatesArb = fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 4, maxLength: 12 });

const customer = { id: 77, email: "a@example.com", first_name: "Ann", tags: "vip" } as unknown as Customer;
/** purchased's additions: units per product in the order bought, and the customer (or none). */
const purchasedArb = fc.record({
  quantities: fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 5 })), { selector: ([id]) => id }),
  customer: fc.constantFrom(customer, null),
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
      return store.catalogue.upsertProducts(
        merchant,
        write.products.map((raw, i) => ({ path: `products[${i}]`, value: normaliseProduct(raw, `products[${i}]`, NOW) })),
      );
    case "delete_product":
      await store.catalogue.deleteProduct(merchant, write.id);
      return;
    case "markets":
      return store.catalogue.upsertMarkets(
        merchant,
        write.markets.map((raw, i) => ({ path: `markets[${i}]`, value: normaliseMarket(raw, `markets[${i}]`) })),
      );
    case "collections":
      return store.catalogue.upsertCollections(
        merchant,
        write.collections.map((raw, i) => ({ path: `collections[${i}]`, value: normaliseCollection(raw, `collections[${i}]`) })),
      );
    case "delete_collection":
      await store.catalogue.deleteCollection(merchant, write.id);
  }
}

const copyOf = (view: Uint8Array | undefined) => (view === undefined ? undefined : Uint8Array.prototype.slice.call(view, 0, view.length));

/** Everything the render store holds for a merchant, read through its own readers over every id the writes can touch. */
function renderData(store: Store, merchant: string): unknown {
  const rendered = store.productRender;
  return PRODUCT_IDS.map((id) => ({
    id,
    eligibility: rendered.eligibility(merchant, id),
    // Copied to the length lmdb sets (a Buffer's slice would be a view of the buffer the next read reuses).
    full: copyOf(rendered.storedJsonView(merchant, id, "full")),
    reduced: copyOf(rendered.storedJsonView(merchant, id, "reduced")),
    markets: MARKET_IDS.map((marketId) => rendered.marketPricing(merchant, marketId, id)),
  }));
}

const decoder = new TextDecoder();
let store: Store;
let merchants = 0;

/** A merchant of its own for each generated case: cases share one store, not their data. */
async function newMerchant(): Promise<string> {
  const id = `m${++merchants}`;
  await store.catalogue.createMerchant(storedMerchant(id));
  return id;
}

beforeAll(() => {
  store = Store.open(tempDir());
});
afterAll(() => store.close());

describe("product lists from stored render data (real LMDB)", () => {
  it("answer the bytes the decoding renderer answered, for any catalogue, markets and list options", async () => {
    await fc.assert(
      fc.asyncProperty(
        productsArb,
        fc.array(marketArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(listArb, candidatesArb, fc.option(purchasedArb, { nil: null })), { minLength: 1, maxLength: 8 }),
        async (products, markets, lists) => {
          const merchant = await newMerchant();
          await apply(store, merchant, { kind: "products", products });
          if (markets.length > 0) await apply(store, merchant, { kind: "markets", markets });
          expect(store.derived.isBuilt(store.productRender, merchant)).toBe(true);
          const catalog = merchantCatalog(store, merchant);
          for (const [list, candidates, purchased] of lists) {
            if (purchased === null) {
              expect(decoder.decode(productListBody(catalog, candidates, list))).toBe(
                decoder.decode(referenceListBody(catalog, candidates, list)),
              );
              continue;
            }
            const quantities = new Map(purchased.quantities);
            const body = productListBody(catalog, quantities.keys(), list, {
              productFields: (id) => ({ metadata: { purchased_quantity: String(quantities.get(id)) } }),
              answerFields: { metadata: { platform_customer: purchased.customer } },
            });
            expect(decoder.decode(body)).toBe(decoder.decode(referencePurchasedBody(catalog, quantities, purchased.customer, list)));
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it("answer from a thread's render cache what the catalogue holds after each write (a view asked for per answer, as lists do)", async () => {
    await fc.assert(
      fc.asyncProperty(
        productsArb,
        fc.array(fc.tuple(writeArb, listArb, candidatesArb), { minLength: 2, maxLength: 8 }),
        async (products, steps) => {
          const merchant = await newMerchant();
          await apply(store, merchant, { kind: "products", products });
          for (const [write, list, candidates] of steps) {
            // Read before the write too, so the write must replace what the cache holds.
            const before = merchantCatalog(store, merchant);
            expect(decoder.decode(productListBody(before, candidates, list))).toBe(
              decoder.decode(referenceListBody(before, candidates, list)),
            );
            await apply(store, merchant, write);
            const after = merchantCatalog(store, merchant);
            expect(decoder.decode(productListBody(after, candidates, list))).toBe(
              decoder.decode(referenceListBody(after, candidates, list)),
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });

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
