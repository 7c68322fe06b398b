// A data dir written before the search index was stored: the applier builds
// it, also across a restart between two slices of the build, and once the
// service reports ready it holds what it would have held written product by
// product, and answers the same bytes.
import { describe, expect, it } from "vitest";
import { quickViewRequest } from "../../src/core/search/request.js";
import { ingest } from "../../src/ingest/ingest.js";
import { quickView } from "../../src/search/quick-view.js";
import { Store } from "../../src/stores/store.js";
import { product, variant } from "../helpers/fixtures.js";
import { searchIndexDump } from "../helpers/search-index.js";
import { eventually, startTestService } from "../helpers/service.js";
import { storeWithMerchant, withoutDerivedStore } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-search-upgrade-");

const TITLES = ["Cordless Drill", "Brass Lantern", "Garden Hose Reel", "Steel Hammer", "LED Light Bulbs", "Copper Pipe 18 in."];
/** More products than one slice of the build indexes, so the build takes several. */
const IDS = Array.from({ length: 1_200 }, (_, i) => i + 1);
const QUERIES = ["drill", "brass lant", "garden hose", "lantren ", "copperpipe", "c-77", "18 in"];

async function answers(store: Store): Promise<string[]> {
  const found: string[] = [];
  for (const query of QUERIES) {
    const result = await quickView(store, { kind: "quick_view", merchantId: "shop", request: quickViewRequest(query) });
    if (!result.ok) throw new Error(result.message);
    found.push(new TextDecoder().decode(result.body));
  }
  return found;
}

/** The stored index's tables: a data dir from before it has none of them. */
const SEARCH_TABLES = [
  "search_meta",
  "search_terms",
  "search_postings",
  "search_docs",
  "search_doc_chunks",
  "search_product_docs",
  "search_free_docs",
  "search_ranks",
  "search_codes",
  "search_completions",
  "search_typo_keys",
  "search_collection_titles",
];

describe("the search index in a data dir written without it", () => {
  it("is built by the applier, across a restart, into what product writes would have written, and answers the same bytes", async () => {
    const dataDir = tempDir();
    let store = await storeWithMerchant(dataDir);
    await ingest(
      store,
      "shop",
      "products",
      IDS.map((id) =>
        product(id, {
          title: `${TITLES[id % TITLES.length]!} ${id % 7 === 0 ? "Kit" : ""}`,
          status: id % 50 === 0 ? "draft" : "active",
          variants: [variant({ id: id * 10 + 1, sku: `C-${id}`, inventory_quantity: id % 3 })],
        }),
      ),
    );
    await ingest(store, "shop", "orders", [
      {
        id: 1,
        created_at: new Date(Date.now() - 86_400_000).toISOString(),
        customer: null,
        line_items: [11, 12, 13].map((id) => ({ product_id: id, variant_id: id * 10 + 1, quantity: id, price: "1.00" })),
        cancelled_at: null,
      },
    ]);
    store.rankingWriter.refreshSync("shop", Date.now());
    await ingest(store, "shop", "collections", [{ id: 7, title: "Garden Tools", product_ids: [1, 2] }]);
    const written = searchIndexDump(store, "shop");
    const answered = await answers(store);
    expect(answered[0]).toContain('"productSuggestions":[{');
    await store.close();
    await withoutDerivedStore(dataDir, "search_index", "shop", SEARCH_TABLES);

    store = Store.open(dataDir);
    expect(store.pendingBuilds()).toEqual([{ build: store.searchIndex, merchant: "shop" }]);
    expect(store.buildStepSync(store.searchIndex, "shop")).toBe(false);
    expect(store.buildStepSync(store.searchIndex, "shop")).toBe(false);
    // Answers meanwhile come from the products indexed so far; the build's end moves the catalogue's version, so none stays cached.
    const partialVersion = store.version("shop", "catalogue");
    await store.close();

    const t = await startTestService({ dataDir });
    try {
      await eventually(async () => expect((await fetch(`${t.base}/readyz`)).status).toBe(200), 20_000);
      const { store: served } = t.service.services;
      served.refreshSnapshot();
      expect(served.pendingBuilds()).toEqual([]);
      expect(served.version("shop", "catalogue")).toBe(partialVersion + 1);
      expect(searchIndexDump(served, "shop")).toEqual(written);
      for (const [i, query] of QUERIES.entries()) {
        const res = await fetch(`${t.base}/api/v1/smart-search/search/quick-view?Service-Api-Key=pk_shop`, {
          method: "POST",
          body: JSON.stringify({ query }),
        });
        expect(await res.text(), query).toBe(answered[i]);
      }
    } finally {
      await t.stop();
    }
  });
});
