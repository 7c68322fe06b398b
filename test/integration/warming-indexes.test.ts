import { describe, expect, it } from "vitest";
import { ResponseCache } from "../../src/cache/response-cache.js";
import { parseQuery } from "../../src/core/params/query.js";
import { quickViewRequest, type QuickViewTask } from "../../src/core/search/request.js";
import { searchRoutes } from "../../src/http/routes/search.js";
import type { Services } from "../../src/http/services.js";
import { ingest } from "../../src/ingest/ingest.js";
import type { TaskResult } from "../../src/pool/protocol.js";
import { quickView } from "../../src/search/quick-view.js";
import { Store } from "../../src/stores/store.js";
import { product } from "../helpers/fixtures.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-warming-");

const SHOP = storedMerchant("shop");

/** 1,000 lanterns; the last one alone is also a "zeppelin". */
async function lanternShop(dir: string): Promise<Store> {
  const store = Store.open(dir);
  await store.createMerchant(SHOP);
  const catalogue = Array.from({ length: 1_000 }, (_, i) =>
    product(1_000 + i, { title: `Harbor lantern ${i}${i === 999 ? " zeppelin" : ""}` }),
  );
  await ingest(store, "shop", "products", catalogue);
  return store;
}

const task = (query: string): QuickViewTask => ({
  kind: "quick_view",
  merchantId: "shop",
  request: quickViewRequest(query),
});

const productIds = (result: TaskResult): number[] => {
  if (!result.ok) throw new Error(result.message);
  return (
    JSON.parse(new TextDecoder().decode(result.body)) as { data: { productSuggestions: { id: string }[] } }
  ).data.productSuggestions.map((p) => Number(p.id));
};

describe("answers from an index still warming up after a start", () => {
  it("search: a request builds for its budget only, answers from the products indexed so far and says so; once complete, from all", async () => {
    const store = await lanternShop(tempDir());
    try {
      const noTime = { semantic: null, buildBudgetMs: 0 };
      const first = await quickView(store, task("lantern"), noTime);
      expect(first.ok && first.warming).toMatch(/search index warming up/);
      // Built in product-id order: a partial index knows only the first products.
      expect(productIds(first).length).toBeGreaterThan(0);
      expect(productIds(first).every((id) => id < 1_500)).toBe(true);
      expect(productIds(await quickView(store, task("zeppelin"), noTime))).toEqual([]);
      let answer = first;
      let requests = 1;
      while (answer.ok && answer.warming !== undefined) {
        answer = await quickView(store, task("zeppelin"), noTime);
        requests++;
      }
      expect(requests).toBeGreaterThan(2);
      expect(productIds(answer)).toEqual([1_999]);

      // Once built, a bulk change too big to patch (over max(1,000, a quarter of the catalogue)) is
      // rebuilt in one go: the answer is complete, never a fresh partial build.
      for (let round = 0; round < 2; round++) {
        await ingest(
          store,
          "shop",
          "products",
          Array.from({ length: 1_000 }, (_, i) =>
            product(1_000 + i, { title: `Harbor lantern ${i}${i === 0 ? " airship" : ""} r${round}` }),
          ),
        );
      }
      store.refreshSnapshot();
      const afterBulk = await quickView(store, task("airship"), noTime);
      expect(afterBulk.ok && afterBulk.warming).toBeUndefined();
      expect(productIds(afterBulk)).toEqual([1_000]);
    } finally {
      await store.close();
    }
  });

  it("search route: a warming answer carries X-Aisle-Partial and is not cached; a complete one is cached", async () => {
    const store = await lanternShop(tempDir());
    try {
      const answers: TaskResult[] = [
        {
          ok: true,
          body: new TextEncoder().encode('{"partial":true}'),
          warming: "search index warming up: results cover the part of the catalogue indexed so far",
        },
        { ok: true, body: new TextEncoder().encode('{"partial":false}') },
      ];
      let runs = 0;
      const pool = { run: async () => answers[Math.min(runs++, answers.length - 1)]!, queueSize: 0 };
      const services = {
        store,
        cache: new ResponseCache(1 << 20),
        pool,
        now: () => Date.now(),
        config: { behaviourCacheTtlMs: 60_000 },
      } as unknown as Services;
      const [route] = searchRoutes(services);
      const ask = async () =>
        route!.handle({
          method: "POST",
          path: route!.pattern,
          query: parseQuery(`Service-Api-Key=${SHOP.api_key}&query=lantern`),
          headers: {},
          body: null,
          params: {},
        });
      const partial = await ask();
      expect(partial.headers?.["X-Aisle-Partial"]).toMatch(/search index warming up/);
      const complete = await ask();
      expect(complete.headers?.["X-Aisle-Partial"]).toBeUndefined();
      expect(new TextDecoder().decode(complete.body as Uint8Array)).toBe('{"partial":false}');
      // The complete answer was cached: no third task.
      await ask();
      expect(runs).toBe(2);
    } finally {
      await store.close();
    }
  });
});
