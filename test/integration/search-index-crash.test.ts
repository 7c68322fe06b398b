// The stored search index across a kill -9 in the middle of catalogue writes:
// it is written in each write's own transaction, so whatever the kill left
// committed, the index holds exactly what a rebuild from that catalogue holds;
// and the restarted server answers every search from it at once, with the
// bytes the stored index gives.
import { describe, expect, it } from "vitest";
import { quickViewRequest } from "../../src/core/search/request.js";
import { quickView } from "../../src/search/quick-view.js";
import { Store } from "../../src/stores/store.js";
import { product, variant } from "../helpers/fixtures.js";
import { serveInChild } from "../helpers/child-service.js";
import { rebuildSearchIndex, searchIndexDump } from "../helpers/search-index.js";
import { createTestMerchant, postJson } from "../helpers/service.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-search-crash-");

const WORDS = ["cordless", "drill", "brass", "lantern", "garden", "hose", "steel", "hammer", "copper", "pipe", "kit", "reel"];
/** Each finds far more products than a page, so no answer reaches for the semantic fallback the server may train a model for. */
const QUERIES = ["drill", "brass lan", "garden hose ", "lantren", "copperpipe", "steel"];

function title(id: number): string {
  return [0, 1, 2].map((i) => WORDS[(id * (i + 3) + i * 5) % WORDS.length]).join(" ");
}

async function search(base: string, key: string, query: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/smart-search/search/quick-view?Service-Api-Key=${key}`, {
    method: "POST",
    body: JSON.stringify({ query, limit: 5 }),
  });
  expect(res.status).toBe(200);
  return res.text();
}

describe("the stored search index across a kill -9", () => {
  it("holds what a rebuild of the committed catalogue holds, and the restarted server answers from it at once", async () => {
    const dataDir = tempDir();
    const first = await serveInChild(dataDir);
    const { api_key: key } = await createTestMerchant(first, "shop");

    // Four clients write batches of new products, rewrite earlier ones and delete some, until the kill.
    let acknowledged = 0;
    let killed = false;
    const client = async (c: number) => {
      for (let round = 0; !killed; round++) {
        const ids = Array.from({ length: 20 }, (_, i) => c * 100_000 + round * 20 + i + 1);
        const rewritten = ids.map((id) => id - 40).filter((id) => id > c * 100_000);
        const batch = [...ids, ...rewritten].map((id) =>
          product(id, {
            title: `${title(id + round)}`,
            variants: [variant({ id: id * 10 + 1, sku: `K-${id}`, inventory_quantity: round % 2 })],
          }),
        );
        try {
          const res = await postJson(first, "/admin/v1/merchants/shop/products", batch);
          if (res.status === 200) acknowledged++;
          await first.admin(`/admin/v1/merchants/shop/products/${ids[3]! - 20}`, { method: "DELETE" });
        } catch {
          return; // the connection died with the server
        }
        if (acknowledged >= 24 && !killed) {
          killed = true;
          first.child.kill("SIGKILL");
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(client));
    await first.exited;

    const store = Store.open(dataDir);
    let stored: string[];
    try {
      const committed = searchIndexDump(store, "shop");
      expect(committed.size).toBe(store.catalogue.countOf("shop", "products"));
      expect(committed.size).toBeGreaterThan(400);
      stored = [];
      for (const query of QUERIES) {
        const result = await quickView(store, { kind: "quick_view", merchantId: "shop", request: quickViewRequest(query, 5) });
        if (!result.ok) throw new Error(result.message);
        stored.push(new TextDecoder().decode(result.body));
      }
      await rebuildSearchIndex(store, "shop");
      expect(searchIndexDump(store, "shop")).toEqual(committed);
    } finally {
      await store.close();
    }

    const second = await serveInChild(dataDir);
    try {
      // The first requests after listening: no warm-up, the stored index answers.
      for (const [i, query] of QUERIES.entries()) expect(await search(second.base, key, query), query).toBe(stored[i]);
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  }, 90_000);
});
