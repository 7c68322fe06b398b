// A start reads no index into the workers: quick-view search and viewed-related
// read their stored indexes in place, so the first requests after a start (or a
// restart) answer in full, and a merchant created while the service runs is
// searchable as soon as its products are written.
import { afterAll, describe, expect, it } from "vitest";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, eventually, postJson, startTestService, type TestService } from "../helpers/service.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-first-answers-");
const running: TestService[] = [];
afterAll(() => Promise.all(running.map((t) => t.stop())));

async function start(dataDir: string, demo: boolean): Promise<TestService> {
  const t = await startTestService({ demo, dataDir });
  running.push(t);
  return t;
}

async function search(t: TestService, key: string, query: string): Promise<{ bytes: string; suggestions: unknown[] }> {
  const res = await fetch(`${t.base}/api/v1/smart-search/search/quick-view?Service-Api-Key=${key}`, {
    method: "POST",
    body: JSON.stringify({ query }),
  });
  expect(res.status).toBe(200);
  const bytes = await res.text();
  return { bytes, suggestions: (JSON.parse(bytes) as { data: { productSuggestions: unknown[] } }).data.productSuggestions };
}

const poolTaskKinds = async (t: TestService) =>
  [...(await (await fetch(`${t.base}/metrics`)).text()).matchAll(/^aisle_pool_task_duration_seconds_count\{kind="([^"]+)"/gm)].map(
    (match) => match[1],
  );

describe("the first requests after a start", () => {
  it("search the whole catalogue and answer the bytes the previous run answered, with no warm-up task in the pool", async () => {
    const dataDir = tempDir();
    const first = await start(dataDir, true);
    const demo = first.service.demo!;
    // Popularity comes from the stored top sellers: the answers to compare are those given once the applier has stored them.
    await eventually(async () => {
      const topSellers = await fetch(`${first.base}/api/v1/products/top_sellers?key=${demo.apiKey}`);
      expect(((await topSellers.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    });
    const queries = demo.sample.handles.slice(0, 4).map((handle) => handle.split("-").slice(0, 2).join(" "));
    const before: string[] = [];
    for (const query of queries) {
      const answer = await search(first, demo.apiKey, query);
      expect(answer.suggestions.length).toBeGreaterThan(0);
      before.push(answer.bytes);
    }
    await first.stop();
    running.splice(running.indexOf(first), 1);

    const second = await start(dataDir, true);
    const after: string[] = [];
    for (const query of queries) after.push((await search(second, demo.apiKey, query)).bytes);
    expect(after).toEqual(before);
    expect(await poolTaskKinds(second)).toEqual(["quick_view"]);
  }, 60_000);

  it("find a merchant's products as soon as the write that creates the merchant's first products returns", async () => {
    const t = await start(tempDir(), false);
    const shop = await createTestMerchant(t, "created-later");
    await postJson(t, "/admin/v1/merchants/created-later/products", [product(1), product(2)]);
    const { suggestions } = await search(t, shop.api_key, "product");
    expect(suggestions.length).toBe(2);
    await eventually(async () => expect((await fetch(`${t.base}/readyz`)).status).toBe(200));
  });
});
