// Draft, archived and unpublished products are never recommended: every ranked
// list and its fallbacks leave them out, while static still shows a product the
// caller names (unless filter_unpublished=yes).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTimestamp } from "../../src/core/timestamps.js";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, eventsApplied, postJson, rankingsRefreshed, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let key: string;
const UNLISTED = [5, 6, 7];
const UUID = randomUUID();

beforeAll(async () => {
  t = await startTestService();
  key = (await createTestMerchant(t, "drafts")).api_key;
  await postJson(t, "/admin/v1/merchants/drafts/products", [
    ...[1, 2, 3, 4].map((id) => product(id)),
    product(5, { status: "draft" }),
    product(6, { status: "archived" }),
    product(7, { published_at: null }),
  ]);
  // The unlisted products sell most, always with product 1: every model ranks them first.
  const when = formatTimestamp(new Date(Date.now() - 86_400_000));
  const line = (id: number, quantity = 1) => ({ product_id: id, variant_id: id * 10 + 1, quantity, price: "10.00" });
  const orders = Array.from({ length: 12 }, (_, i) => ({
    id: 100 + i,
    created_at: when,
    customer: null,
    line_items: [line(1), line(UNLISTED[i % 3]!, 5), ...(i % 4 === 0 ? [line(2)] : [])],
    cancelled_at: null,
  }));
  await postJson(t, "/admin/v1/merchants/drafts/orders", orders);
  for (const id of [1, ...UNLISTED, 2]) {
    const handle = `product-${id}`;
    const res = await fetch(`${t.base}/api/v1/analytics/event?key=${key}&uuid=${UUID}&verb=viewed&platform_product_handle=${handle}`, {
      method: "POST",
    });
    expect(res.status).toBe(200);
  }
  await eventsApplied(t, "drafts");
  // The rankings the applier thread stores, so trending and top sellers rank the sales rather than fall back.
  await rankingsRefreshed(t, "drafts");
  await t.service.similar.idle();
});
afterAll(() => t.stop());

async function ids(path: string): Promise<number[]> {
  const res = await fetch(`${t.base}${path}${path.includes("?") ? "&" : "?"}key=${key}&bust_cache=yes&limit=10`);
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: { id: number }[] }).data.map((p) => p.id);
}

describe("unpublished products", () => {
  it("never appear in a ranked list or its fallbacks", async () => {
    for (const path of [
      "/api/v1/products/trending_products",
      "/api/v1/products/top_sellers",
      "/api/v1/products/recommended?platform_product_ids=1",
      "/api/v1/products/recommended?platform_product_ids=1&context=similar",
      "/api/v1/products/similar_products?platform_product_ids=1",
      `/api/v1/products/viewed-related?uuid=${UUID}`,
    ]) {
      const shown = await ids(path);
      expect(shown.length, path).toBeGreaterThan(0);
      expect(
        shown.filter((id) => UNLISTED.includes(id)),
        path,
      ).toEqual([]);
    }
  });

  it("are shown by static when named, and left out with filter_unpublished=yes", async () => {
    expect(await ids("/api/v1/products/static?ids=5,6,7,1")).toEqual([5, 6, 7, 1]);
    expect(await ids("/api/v1/products/static?ids=5,6,7,1&filter_unpublished=yes")).toEqual([1]);
  });
});
