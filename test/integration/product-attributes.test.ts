// The stored product attributes custom sources read (texts, carriers of each
// tag, vendor and type, collection listings): kept in step with every product
// and collection write, and built for a data dir written without them, in
// slices, to exactly what the writes leave.
import { describe, expect, it } from "vitest";
import { normaliseProduct } from "../../src/core/ingest/product.js";
import { normaliseCollection } from "../../src/core/ingest/records.js";
import type { Attribute } from "../../src/core/sources/product-texts.js";
import { Store } from "../../src/stores/store.js";
import { product } from "../helpers/fixtures.js";
import { storeWithMerchant, withoutDerivedStore } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-attributes-");
const NOW = "2026-05-01T00:00:00+00:00";

const located = (raw: Record<string, unknown>, i = 0) => ({ path: `products[${i}]`, value: normaliseProduct(raw, `products[${i}]`, NOW) });
const collection = (id: number, productIds: number[]) => ({
  path: "collections[0]",
  value: normaliseCollection({ id, title: `Collection ${id}`, product_ids: productIds }, "collections[0]"),
});
const carriers = (store: Store, attribute: Attribute, value: string) => [...store.productAttributes.carriers("shop", attribute, value)];

describe("stored product attributes", () => {
  it("follow product and collection writes in their own transactions", async () => {
    const store = await storeWithMerchant(tempDir());
    await store.catalogue.upsertProducts("shop", [
      located(product(1, { tags: "Summer, Sale", vendor: " Acme ", product_type: "Mug", title: " Blue Mug " }), 0),
      located(product(2, { tags: "summer", vendor: "Other", product_type: "" }), 1),
    ]);
    expect(store.productAttributes.textsOf("shop", 1)).toEqual({
      tags: ["summer", "sale"],
      vendor: "acme",
      type: "mug",
      handle: "product-1",
      title: "blue mug",
      variantIds: [11],
    });
    expect(carriers(store, "tags", "summer")).toEqual([1, 2]);
    expect(carriers(store, "vendors", "acme")).toEqual([1]);
    expect(store.productAttributes.carriers("shop", "tags", "sale").has(1)).toBe(true);

    // A changed product leaves the values it no longer carries; a deleted one leaves every value.
    await store.catalogue.upsertProducts("shop", [located(product(1, { tags: "winter", vendor: "Acme", product_type: "Cup" }))]);
    expect(carriers(store, "tags", "summer")).toEqual([2]);
    expect(carriers(store, "tags", "sale")).toEqual([]);
    expect(carriers(store, "product_types", "mug")).toEqual([]);
    expect(carriers(store, "product_types", "cup")).toEqual([1]);
    await store.catalogue.deleteProduct("shop", 2);
    expect(carriers(store, "tags", "summer")).toEqual([]);
    expect(store.productAttributes.textsOf("shop", 2)).toBeUndefined();

    await store.catalogue.upsertCollections("shop", [collection(7, [1, 2]), collection(5, [1])]);
    expect(store.productAttributes.collectionsOf("shop", 1)).toEqual([5, 7]);
    expect(store.productAttributes.collectionsOf("shop", 2)).toEqual([7]);
    await store.catalogue.upsertCollections("shop", [collection(7, [2, 3])]);
    expect(store.productAttributes.collectionsOf("shop", 1)).toEqual([5]);
    expect(store.productAttributes.collectionsOf("shop", 3)).toEqual([7]);
    await store.catalogue.deleteCollection("shop", 7);
    expect([1, 2, 3].map((id) => store.productAttributes.collectionsOf("shop", id))).toEqual([[5], [], []]);
    await store.close();
  });

  it("are built for a data dir written without them, a slice of products per transaction", async () => {
    const dataDir = tempDir();
    let store = await storeWithMerchant(dataDir);
    const ids = Array.from({ length: 1_050 }, (_, i) => i + 1);
    await store.catalogue.upsertProducts(
      "shop",
      ids.map((id, i) => located(product(id, { tags: `tag-${id % 3}, all`, vendor: `Vendor ${id % 4}` }), i)),
    );
    await store.catalogue.upsertCollections("shop", [
      collection(1, ids.slice(0, 40)),
      collection(
        2,
        ids.filter((id) => id % 2 === 0),
      ),
    ]);
    const written = snapshot(store, ids);
    await store.close();

    const tables = ["product_attribute_texts", "product_attribute_carriers", "product_collection_listings"];
    await withoutDerivedStore(dataDir, "product_attributes", "shop", tables);

    store = Store.open(dataDir);
    expect(store.pendingBuilds()).toEqual([{ build: store.productAttributes, merchant: "shop" }]);
    expect(store.buildStepSync(store.productAttributes, "shop")).toBe(false);
    expect(store.buildStepSync(store.productAttributes, "shop")).toBe(true);
    expect(store.pendingBuilds()).toEqual([]);
    expect(snapshot(store, ids)).toEqual(written);
    await store.close();
  });
});

function snapshot(store: Store, ids: number[]) {
  return {
    texts: ids.map((id) => store.productAttributes.textsOf("shop", id)),
    listings: ids.map((id) => store.productAttributes.collectionsOf("shop", id)),
    carriers: [
      carriers(store, "tags", "all").length,
      carriers(store, "tags", "tag-1"),
      carriers(store, "vendors", "vendor 2"),
      carriers(store, "product_types", "mug").length,
    ],
  };
}
