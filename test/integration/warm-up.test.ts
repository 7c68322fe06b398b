import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTimestamp } from "../../src/core/timestamps.js";
import type { Logger } from "../../src/main.js";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, eventually, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;

beforeAll(async () => {
  // The demo merchant exists when the service starts, so its workers warm their indexes.
  t = await startTestService({ demo: true });
});
afterAll(() => t.stop());

const metricsText = async () => (await fetch(`${t.base}/metrics`)).text();
const stepsOf = (metrics: string, kind: string) =>
  Number(new RegExp(`^aisle_pool_task_duration_seconds_count\\{kind="${kind}",outcome="ok"\\} (\\d+)$`, "m").exec(metrics)?.[1] ?? 0);

/**
 * Waits until the worker has completed its first build of `index` (one worker
 * in tests: one build), then returns how many warm-up steps of `kind` it took.
 */
async function stepsOfFirstBuild(index: string, kind: string): Promise<number> {
  await eventually(async () => {
    expect(await metricsText()).toMatch(new RegExp(`^aisle_build_duration_seconds_count\\{what="${index}"\\} 1$`, "m"));
  });
  const steps = stepsOf(await metricsText(), kind);
  expect(steps).toBeGreaterThanOrEqual(1);
  return steps;
}

describe("index warm-up at start", () => {
  it("reads the event log into the session index of viewed-related in steps, once per worker", async () => {
    const demo = t.service.demo!;
    // Products answer while the warm-up runs: its steps share the pool with them.
    const listed = await fetch(`${t.base}/api/v1/products/static?key=${demo.apiKey}&ids=${demo.sample.productIds.join(",")}`);
    expect(listed.status).toBe(200);
    const steps = await stepsOfFirstBuild("session_index", "sessions_warm");
    // A session that viewed a product gets related products from the warmed index.
    const uuid = "5b0e7c2a-8f1d-4e3b-9a6c-2d4f8e1b7a90";
    const [productHandle] = demo.sample.handles;
    const event = await fetch(
      `${t.base}/api/v1/analytics/event?key=${demo.apiKey}&subject=user&verb=viewed&noun=product&uuid=${uuid}&platform_product_handle=${productHandle}`,
      { method: "POST" },
    );
    expect(event.status).toBe(200);
    const related = await fetch(`${t.base}/api/v1/products/viewed-related?key=${demo.apiKey}&uuid=${uuid}`);
    expect(related.status).toBe(200);
    expect(((await related.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(stepsOf(await metricsText(), "sessions_warm")).toBe(steps);
  });
});

describe("a merchant created while the service runs", () => {
  it("is warmed too, and its first lists follow its orders once the applier has stored its rankings", async () => {
    await eventually(async () => expect(await metricsText()).toMatch(/^aisle_build_duration_seconds_count\{what="session_index"\} 1$/m));
    const shop = await createTestMerchant(t, "created-later");
    // Its own warm-up: one more completed read of the session index in the worker.
    await eventually(async () => expect(await metricsText()).toMatch(/^aisle_build_duration_seconds_count\{what="session_index"\} 2$/m));
    await postJson(t, "/admin/v1/merchants/created-later/products", [product(1), product(2)]);
    await postJson(t, "/admin/v1/merchants/created-later/orders", [
      {
        id: 1,
        created_at: formatTimestamp(new Date(Date.now() - 86_400_000)),
        customer: null,
        line_items: [{ product_id: 2, variant_id: 21, quantity: 3, price: "1.00" }],
        cancelled_at: null,
      },
    ]);
    await eventually(async () => {
      const res = await fetch(`${t.base}/api/v1/products/top_sellers?key=${shop.api_key}`);
      expect(((await res.json()) as { data: { id: number }[] }).data.map((p) => p.id)).toEqual([2]);
    });
  });
});

describe("a shutdown during the warm-up", () => {
  it("stops the steps still queued without logging an error", async () => {
    const errors: string[] = [];
    const logger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: (message) => errors.push(message) };
    const service = await startTestService({ demo: true, logger });
    // At once: the demo's session index is still being built in steps.
    const metrics = await (await fetch(`${service.base}/metrics`)).text();
    expect(metrics).not.toMatch(/^aisle_build_duration_seconds_count\{what="session_index"\} [1-9]/m);
    await service.stop();
    expect(errors).toEqual([]);
  }, 60_000);
});
