// A data dir written before the product render store existed: its lists
// answer the same bytes while the store is being built (derived from each
// product as it is read) and once the service's applier has built it, also
// when a restart comes between two slices of the build.
import { describe, expect, it } from "vitest";
import { normaliseProduct } from "../../src/core/ingest/product.js";
import { normaliseMarket } from "../../src/core/ingest/records.js";
import { listOptionsFrom, type ListParams } from "../../src/core/products/query.js";
import { productListBody } from "../../src/core/products/render.js";
import { merchantCatalog } from "../../src/stores/catalog.js";
import { Store } from "../../src/stores/store.js";
import { product, variant } from "../helpers/fixtures.js";
import { eventually, startTestService } from "../helpers/service.js";
import { storeWithMerchant, withoutDerivedStore } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-render-upgrade-");
const NOW = "2026-05-01T00:00:00+00:00";
/** More products than one build slice holds, so the build takes several. */
const IDS = Array.from({ length: 80 }, (_, i) => i + 1);

/** Static lists of the catalogue, as the route parses their queries. */
const LISTS: { query: string; params: ListParams }[] = [
  { query: "limit=50", params: { limit: 50 } },
  { query: "limit=50&country_code=CA", params: { limit: 50, country_code: "CA" } },
  {
    query: "limit=50&country_code=CA&excluded_ids=1,2,3&metafields=yes",
    params: { limit: 50, country_code: "CA", excluded_ids: [1, 2, 3], metafields: true },
  },
  { query: "limit=50&format=pretty", params: { limit: 50, format: true } },
];

function catalogue() {
  return IDS.map((id) => {
    const raw = product(id, {
      tags: id % 7 === 0 ? "exclude_service" : "kitchen",
      variants: [
        variant({ id: id * 10 + 1, price: `${10 + (id % 5)}.00`, inventory_quantity: id % 3 }),
        variant({ id: id * 10 + 2, price: "20.00", compare_at_price: id % 2 === 0 ? "25.00" : null, option1: "Large" }),
      ],
    });
    return { path: `products[${id}]`, value: normaliseProduct(raw, `products[${id}]`, NOW) };
  });
}

/** Canada prices every other product's first variant. */
const canada = normaliseMarket(
  {
    id: 1,
    name: "Canada",
    countries: ["CA"],
    currency: "CAD",
    variant_prices: Object.fromEntries(
      IDS.filter((id) => id % 2 === 1).map((id) => [String(id * 10 + 1), { price: "9.50", compare_at_price: "11.00" }]),
    ),
  },
  "markets[0]",
);

function answers(store: Store): string[] {
  const catalog = merchantCatalog(store, "shop");
  return LISTS.map(({ params }) => new TextDecoder().decode(productListBody(catalog, IDS, listOptionsFrom(params, "full"))));
}

describe("the product render store in a data dir written without it", () => {
  it("answers the same bytes before, during and after its build, which the applier finishes after a restart", async () => {
    const dataDir = tempDir();
    let store = await storeWithMerchant(dataDir);
    await store.catalogue.upsertProducts("shop", catalogue());
    await store.catalogue.upsertMarkets("shop", [{ path: "markets[0]", value: canada }]);
    const written = answers(store);
    expect(written.map((body) => (body.match(/"handle"/g) ?? []).length)).toEqual([50, 50, 50, 50]);
    expect(written[1]).toContain('"price":"9.50"');
    await store.close();
    await withoutDerivedStore(dataDir, "product_render", "shop", [
      "product_render_records",
      "product_render_json",
      "product_render_market_prices",
    ]);

    store = Store.open(dataDir);
    expect(store.pendingBuilds()).toEqual([{ build: store.productRender, merchant: "shop" }]);
    expect(answers(store)).toEqual(written);
    expect(store.buildStepSync(store.productRender, "shop")).toBe(false);
    expect(answers(store)).toEqual(written);
    await store.close();

    const t = await startTestService({ dataDir });
    try {
      await eventually(async () => expect((await fetch(`${t.base}/readyz`)).status).toBe(200), 10_000);
      expect(t.service.services.store.pendingBuilds()).toEqual([]);
      for (const [i, { query }] of LISTS.entries()) {
        const res = await fetch(`${t.base}/api/v1/products/static?key=pk_shop&ids=${IDS.join(",")}&${query}`);
        expect(await res.text()).toBe(written[i]);
      }
    } finally {
      await t.stop();
    }
  });
});
