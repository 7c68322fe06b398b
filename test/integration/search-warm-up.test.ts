import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;

beforeAll(async () => {
  // The demo merchant exists when the service starts, so its workers warm their search indexes.
  t = await startTestService({ demo: true });
});
afterAll(() => t.stop());

describe("search index warm-up at start", () => {
  it("completes in steps queued with other tasks, once per worker, and searches use the warmed index", async () => {
    const demo = t.service.demo!;
    // Products answer while the warm-up runs: its steps share the pool with them.
    const listed = await fetch(`${t.base}/api/v1/products/static?key=${demo.apiKey}&ids=${demo.sample.productIds.join(",")}`);
    expect(listed.status).toBe(200);
    await eventually(async () => {
      const metrics = await (await fetch(`${t.base}/metrics`)).text();
      // One worker in tests: one completed build.
      expect(metrics).toMatch(/^aisle_build_duration_seconds_count\{what="search_index"\} 1$/m);
    });
    const tasksBefore = await (await fetch(`${t.base}/metrics`)).text();
    const steps = Number(/^aisle_pool_task_duration_seconds_count\{kind="search_warm",outcome="ok"\} (\d+)$/m.exec(tasksBefore)?.[1]);
    expect(steps).toBeGreaterThanOrEqual(1);

    const [handle] = demo.sample.handles;
    const query = handle!.split("-").slice(0, 2).join(" ");
    const res = await fetch(`${t.base}/api/v1/smart-search/search/quick-view?Service-Api-Key=${demo.apiKey}`, { method: "POST", body: JSON.stringify({ query }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { productSuggestions: unknown[] } }).data.productSuggestions.length).toBeGreaterThan(0);
    // No further warm-up step ran: the worker's index was complete.
    const after = await (await fetch(`${t.base}/metrics`)).text();
    expect(after).toMatch(new RegExp(`^aisle_pool_task_duration_seconds_count\\{kind="search_warm",outcome="ok"\\} ${steps}$`, "m"));
  });
});
