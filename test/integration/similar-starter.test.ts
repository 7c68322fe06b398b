// A shop's products have similar lists as soon as the write that brings them is
// answered: the starter vectors written with each product, before (and until)
// a trained model exists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterSignature } from "../../src/core/embedding/starter.js";
import { ingest } from "../../src/ingest/ingest.js";
import { Store } from "../../src/stores/store.js";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-starter-");

const KINDS = {
  Shoes: ["trail running shoe", "road running shoe", "running shoe with carbon plate", "cushioned running shoe", "light running shoe"],
  Socks: ["merino hiking socks", "ankle socks", "compression socks", "wool socks", "cotton crew socks"],
  Tents: ["two person tent", "ultralight tent", "family camping tent", "backpacking tent", "dome tent"],
  Spray: ["waterproofing spray", "shoe deodorant spray", "insect repellent spray", "sunscreen spray", "cleaning spray"],
};
// Ids interleave the kinds, so that the catalogue's own order (the last fallback) mixes them.
const catalogue = Object.entries(KINDS).flatMap(([type, titles], k) =>
  titles.map((title, i) => product(100 + 4 * i + k, { title: `Summit ${title}`, product_type: type, tags: type.toLowerCase() })),
);
const kindOf = (id: number) => Object.keys(KINDS)[(id - 100) % 4]!;

let t: TestService;
let key: string;

beforeAll(async () => {
  t = await startTestService();
  key = (await createTestMerchant(t, "outdoor")).api_key;
});
afterAll(() => t.stop());

describe("similar products before the shop's model is trained", () => {
  it("answers from the starter vectors written with the products: a running shoe gets running shoes", async () => {
    expect((await postJson(t, "/admin/v1/merchants/outdoor/products", catalogue)).status).toBe(200);
    // Right after the write: the trained model comes a second later at the earliest.
    t.service.services.store.refreshSnapshot();
    expect(t.service.services.store.similar.manifest("outdoor")).toBeUndefined();
    for (const path of ["similar_products?platform_product_ids=100", "recommended?context=similar&platform_product_ids=100"]) {
      const res = await fetch(`${t.base}/api/v1/products/${path}&key=${key}&limit=4`);
      const ids = ((await res.json()) as { data: { id: number }[] }).data.map((p) => p.id);
      expect(ids, path).toHaveLength(4);
      expect(ids.map(kindOf), path).toEqual(["Shoes", "Shoes", "Shoes", "Shoes"]);
      expect(ids).not.toContain(100);
    }
    // A product changed or removed is followed at once too.
    await postJson(t, "/admin/v1/merchants/outdoor/products", [
      product(200, { title: "Summit racing running shoe", product_type: "Shoes", tags: "shoes" }),
    ]);
    const res = await fetch(`${t.base}/api/v1/products/similar_products?platform_product_ids=104&key=${key}&limit=5&bust_cache=yes`);
    expect(((await res.json()) as { data: { id: number }[] }).data.map((p) => p.id)).toContain(200);
  });
});

describe("starter vectors as stored", () => {
  it("equal a rebuild from the catalogue after writes, rewrites and deletes", async () => {
    const store = Store.open(tempDir());
    await store.catalogue.createMerchant(storedMerchant("shop"));
    await ingest(store, "shop", "products", catalogue);
    await ingest(store, "shop", "products", [product(104, { title: "Summit trail running shoe, wide", product_type: "Shoes" })]);
    await store.catalogue.deleteProduct("shop", 108);
    const written = [...store.starterVectors.all("shop")].map(({ id, vector }) => [id, [...vector]]);
    await store.atomically(() => {
      store.starterVectors.clear("shop");
      for (let cursor: number | null = null; ;) {
        cursor = store.starterVectors.buildSlice("shop", cursor);
        if (cursor === null) break;
      }
    });
    expect([...store.starterVectors.all("shop")].map(({ id, vector }) => [id, [...vector]])).toEqual(written);
    expect(written.map(([id]) => id)).not.toContain(108);
    await store.close();
  });

  it("have rows whose signatures shortlist the products a rebuild shortlists, the deleted and excluded left out", async () => {
    const store = Store.open(tempDir());
    await store.catalogue.createMerchant(storedMerchant("shop"));
    await ingest(store, "shop", "products", catalogue);
    await ingest(store, "shop", "products", [product(104, { title: "Summit trail running shoe, wide", product_type: "Shoes" })]);
    await store.catalogue.deleteProduct("shop", 108);
    await ingest(store, "shop", "products", [product(300, { title: "Summit hiking boot", product_type: "Shoes" })]);
    const { rows } = store.starterVectors;
    const shoe = starterSignature(store.starterVectors.vector("shop", 100)!);
    const shortlist = () => rows.shortlist("shop", shoe, new Set([100]), 8);
    const incremental = shortlist();
    expect(incremental).toHaveLength(8);
    expect(incremental).not.toContain(100);
    expect(incremental).not.toContain(108);
    // Closest signatures first: the shoes lead.
    expect(incremental.slice(0, 3).map(kindOf)).toEqual(["Shoes", "Shoes", "Shoes"]);

    await store.atomically(() => {
      rows.clear("shop");
      for (let cursor: number | null = null; ;) {
        cursor = rows.buildSlice("shop", cursor);
        if (cursor === null) break;
      }
    });
    expect(shortlist()).toEqual(incremental);
    await store.close();
  });
});
