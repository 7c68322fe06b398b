import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CatalogReader } from "../../src/core/products/catalog.js";
import { metafieldSelector } from "../../src/core/products/metafield-selection.js";
import type { ListOptions } from "../../src/core/products/query.js";
import { productListBody } from "../../src/core/products/render.js";
import { renderDataOnRead } from "../../src/core/products/render-data-on-read.js";
import { staticCandidates } from "../../src/core/products/static-selection.js";
import type { Market, Metafield, Product, Variant } from "../../src/core/types.js";

// Property tests of the shared list rules against a naive oracle written
// straight from the spec's wording, on random catalogues and requests.

/** Whole amounts from a small range, so prices often sit exactly on a bound. */
function coarseCents() {
  return fc.integer({ min: 0, max: 12 }).map((units) => units * 100);
}

const variantArb = fc.record({
  inventory_quantity: fc.integer({ min: -2, max: 3 }),
  inventory_policy: fc.constantFrom("deny", "continue"),
  inventory_management: fc.constantFrom("platform", null),
  priceCents: coarseCents(),
});

const productArb = fc.record({
  variants: fc.array(variantArb, { minLength: 1, maxLength: 3 }),
  published: fc.boolean(),
  status: fc.constantFrom("active", "draft"),
  excludeService: fc.boolean(),
});

interface ProductSpec {
  variants: { inventory_quantity: number; inventory_policy: string; inventory_management: string | null; priceCents: number }[];
  published: boolean;
  status: string;
  excludeService?: boolean;
}

function buildProduct(id: number, spec: ProductSpec): Product {
  const variants = spec.variants.map(
    (v, index) =>
      ({
        id: id * 10 + index,
        product_id: id,
        price: (v.priceCents / 100).toFixed(2),
        compare_at_price: null,
        inventory_quantity: v.inventory_quantity,
        inventory_policy: v.inventory_policy,
        inventory_management: v.inventory_management,
      }) as Variant,
  );
  const tags = spec.excludeService ? "sale, Exclude_Service" : "sale";
  return {
    id,
    handle: `h${id}`,
    tags,
    status: spec.status,
    published_at: spec.published ? "2026-01-01T00:00:00+00:00" : null,
    variants,
    options: [],
    images: [],
    image: null,
  } as unknown as Product;
}

const scenarioArb = fc.record({
  products: fc.array(productArb, { minLength: 1, maxLength: 12 }),
  candidates: fc.array(fc.integer({ min: 1, max: 14 }), { maxLength: 20 }),
  excluded: fc.array(fc.integer({ min: 1, max: 14 }), { maxLength: 4 }),
  restrictTo: fc.option(fc.array(fc.integer({ min: 1, max: 14 }), { maxLength: 8 }), { nil: null }),
  limit: fc.integer({ min: 1, max: 10 }),
  filterOos: fc.boolean(),
  filterUnpublished: fc.boolean(),
  marketCatalogue: fc.option(fc.array(fc.integer({ min: 1, max: 14 }), { maxLength: 10 }), { nil: null }),
  marketActive: fc.boolean(),
  country: fc.constantFrom("CA", "FR", null),
  /** Market price per variant index (cents), when the market prices it. */
  marketPrices: fc.array(fc.option(coarseCents(), { nil: null }), { minLength: 3, maxLength: 3 }),
  atMost: fc.option(coarseCents(), { nil: undefined }),
  atLeast: fc.option(coarseCents(), { nil: undefined }),
  above: fc.option(coarseCents(), { nil: undefined }),
  unsetVariants: fc.boolean(),
  honourExcludeService: fc.boolean(),
});

function catalogOf(products: Product[], markets: Market[]): CatalogReader {
  const byId = new Map(products.map((p) => [p.id, p]));
  return {
    product: (id) => byId.get(id),
    productIdByHandle: (handle) => products.find((p) => p.handle === handle)?.id,
    collection: () => undefined,
    metafields: (): Metafield[] => [],
    markets: () => markets,
    marketPrice: (marketId, variantId) => markets.find((m) => m.id === marketId)?.variant_prices[String(variantId)],
  };
}

describe("productListBody", () => {
  it("keeps exactly the eligible candidates (stock, publication, market, price, exclude_service), in order, up to limit", () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const products = s.products.map((spec, index) => buildProduct(index + 1, spec));
        const market: Market = {
          id: 1,
          name: "CA",
          active: s.marketActive,
          countries: ["CA"],
          currency: "CAD",
          product_ids: s.marketCatalogue,
          variant_prices: Object.fromEntries(
            products.flatMap((p) =>
              p.variants.flatMap((v, index) => {
                const cents = s.marketPrices[index];
                return cents == null ? [] : [[String(v.id), { price: (cents / 100).toFixed(2), compare_at_price: null }]];
              }),
            ),
          ),
        };
        const price = Object.fromEntries(
          Object.entries({ atMost: s.atMost, atLeast: s.atLeast, above: s.above }).filter(([, v]) => v !== undefined),
        );
        const list: ListOptions = {
          limit: s.limit,
          filterOos: s.filterOos,
          filterUnpublished: s.filterUnpublished,
          excludedIds: s.excluded,
          restrictTo: s.restrictTo,
          countryCode: s.country,
          projection: "reduced",
          metafields: { product: null, variant: null },
          sellingPlans: false,
          pretty: false,
          price: Object.keys(price).length > 0 ? price : null,
          unsetVariants: s.unsetVariants,
          honourExcludeServiceTag: s.honourExcludeService,
        };
        const body = productListBody(renderDataOnRead(catalogOf(products, [market])), s.candidates, list);
        const rendered = (
          JSON.parse(new TextDecoder().decode(body)) as { data: { id: number; variants: { id: number; price: string }[] }[] }
        ).data;
        const got = rendered.map((p) => ({ id: p.id, variants: p.variants.map((v) => `${v.id}:${v.price}`) }));

        // The oracle, from the spec's sentences.
        const activeMarket = s.country === "CA" && s.marketActive ? market : null;
        const expected: { id: number; variants: string[] }[] = [];
        for (const id of s.candidates) {
          const stored = products.find((p) => p.id === id);
          if (!stored || expected.some((e) => e.id === id) || s.excluded.includes(id)) continue;
          if (s.restrictTo && !s.restrictTo.includes(id)) continue;
          if (activeMarket?.product_ids && !activeMarket.product_ids.includes(id)) continue;
          if (s.honourExcludeService && stored.tags.toLowerCase().includes("exclude_service")) continue;
          const priced = stored.variants.map((v, index) => {
            const cents = activeMarket ? s.marketPrices[index] : null;
            return { ...v, price: cents == null ? v.price : (cents / 100).toFixed(2) };
          });
          const passes = (v: Variant) => {
            const cents = Math.round(Number(v.price) * 100);
            return (
              (s.atMost === undefined || cents <= s.atMost) &&
              (s.atLeast === undefined || cents >= s.atLeast) &&
              (s.above === undefined || cents > s.above)
            );
          };
          if (!priced.some(passes)) continue;
          const shown = s.unsetVariants ? priced.filter(passes) : priced;
          const product = { ...stored, variants: shown };
          const inStock = product.variants.some(
            (v) => v.inventory_quantity > 0 || v.inventory_policy === "continue" || v.inventory_management === null,
          );
          if (s.filterOos && !inStock) continue;
          if (s.filterUnpublished && (product.status !== "active" || product.published_at === null)) continue;
          expected.push({ id, variants: shown.map((v) => `${v.id}:${v.price}`) });
        }
        expect(got).toEqual(expected.slice(0, s.limit));
      }),
      { numRuns: 300 },
    );
  });
});

describe("staticCandidates", () => {
  it("orders ids, then handles, then the collection, and restricts by platform_product_ids", () => {
    const products = [1, 2, 3, 4].map((id) =>
      buildProduct(id, {
        variants: [{ inventory_quantity: 1, inventory_policy: "deny", inventory_management: "platform", priceCents: 100 }],
        published: true,
        status: "active",
      }),
    );
    const catalog: CatalogReader = {
      ...catalogOf(products, []),
      collection: (id) => (id === 9 ? { id, title: "c", handle: "c", product_ids: [4, 1] } : undefined),
    };
    expect(staticCandidates(catalog, { ids: [3], handles: ["h2", "missing"], collectionId: 9, productIds: [1, 2] })).toEqual({
      candidates: [3, 2, 4, 1],
      restrictTo: [1, 2],
    });
    expect(staticCandidates(catalog, { ids: [], handles: [], collectionId: null, productIds: [2, 1] })).toEqual({
      candidates: [2, 1],
      restrictTo: null,
    });
  });
});

describe("metafieldSelector", () => {
  it("returns all with yes alone, and only the named ones when any are named", () => {
    expect(metafieldSelector(false, [], [])).toBeNull();
    expect(metafieldSelector(true, [], [])).toEqual({ all: true, nsKeys: [], namespaces: [] });
    expect(metafieldSelector(true, ["a.b"], [])).toEqual({ all: false, nsKeys: ["a.b"], namespaces: [] });
    expect(metafieldSelector(false, [], ["a"])).toEqual({ all: false, nsKeys: [], namespaces: ["a"] });
  });
});
