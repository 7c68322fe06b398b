import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLogger } from "../../src/observability/logger.js";
import { product } from "../helpers/fixtures.js";
import { createTestMerchant, eventsApplied, eventually, postJson, startTestService, type TestService } from "../helpers/service.js";

// Log lines the service writes, parsed.
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split("\n")) if (line.trim() !== "") lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let t: TestService;
let shop: { id: string; api_key: string };

beforeAll(async () => {
  t = await startTestService({ logger: jsonLogger("debug", sink), logLevel: "debug" });
  shop = await createTestMerchant(t, "metered");
  expect((await postJson(t, "/admin/v1/merchants/metered/products", [product(1), product(2)])).status).toBe(200);
});
afterAll(() => t.stop());

/** One metric's value from the Prometheus text, by name and exact label set. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? "").split(",").filter((part) => part !== "");
    if (wanted.every((label) => present.includes(label)) && present.length === wanted.length) return Number(match[3]);
  }
  return undefined;
}

describe("GET /metrics", () => {
  it("counts requests per route and status, cache hits and misses, inline answers, pool tasks, acknowledged events and builds", async () => {
    const staticUrl = `${t.base}/api/v1/products/static?key=${shop.api_key}&ids=1,2`;
    expect((await fetch(staticUrl)).status).toBe(200); // a miss answered on the HTTP thread
    expect((await fetch(staticUrl)).status).toBe(200); // hit
    expect((await fetch(`${staticUrl}&format=pretty`)).status).toBe(200); // a miss rendered in the pool
    expect((await fetch(`${t.base}/api/v1/products/static?ids=1`)).status).toBe(400);
    expect((await fetch(`${t.base}/nowhere`)).status).toBe(404);
    const event = await fetch(
      `${t.base}/api/v1/analytics/event?key=${shop.api_key}&subject=user&verb=viewed&noun=product&platform_product_handle=product-1&uuid=00000000-0000-4000-8000-000000000001`,
      { method: "POST" },
    );
    expect(event.status).toBe(200);
    await eventsApplied(t, shop.id);
    await t.service.similar.idle();

    const res = await fetch(`${t.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    const route = "/api/v1/products/static";
    expect(sample(text, "aisle_http_requests_total", { route, method: "GET", status: "200" })).toBe(3);
    expect(sample(text, "aisle_http_requests_total", { route, method: "GET", status: "400" })).toBe(1);
    expect(sample(text, "aisle_http_requests_total", { route: "unmatched", method: "GET", status: "404" })).toBe(1);
    expect(sample(text, "aisle_http_request_duration_seconds_count", { route, method: "GET", status: "200" })).toBe(3);
    expect(sample(text, "aisle_response_cache_lookups_total", { result: "hit" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "aisle_response_cache_lookups_total", { result: "miss" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "aisle_pool_queue_depth")).toBe(0);
    expect(sample(text, "aisle_inline_answer_duration_seconds_count", { kind: "static_products" })).toBe(1);
    expect(sample(text, "aisle_pool_task_duration_seconds_count", { kind: "static_products", outcome: "ok" })).toBe(1);
    expect(sample(text, "aisle_events_acknowledged_total")).toBe(1);
    expect(sample(text, "aisle_event_commit_duration_seconds_count")).toBe(1);
    await eventually(async () => expect(sample(await (await fetch(`${t.base}/metrics`)).text(), "aisle_events_unapplied")).toBe(0));
    // The shop's similar-products model was trained once its products arrived.
    expect(sample(text, "aisle_build_duration_seconds_count", { what: "similar_model" })).toBe(1);
    expect(sample(text, "aisle_process_resident_memory_bytes")).toBeGreaterThan(0);
    // The worker reported its heap after the static list's task (or an earlier one).
    const workersUsed = sample(text, "aisle_pool_workers_heap_bytes", { kind: "used" }) ?? 0;
    expect(workersUsed).toBeGreaterThan(0);
    expect(sample(text, "aisle_pool_workers_heap_bytes", { kind: "committed" })).toBeGreaterThanOrEqual(workersUsed);
    expect(sample(text, "aisle_pool_workers_external_memory_bytes")).toBeGreaterThanOrEqual(0);
    // Nothing of a tenant in the labels.
    expect(text).not.toContain("metered");
    expect(text).not.toContain(shop.api_key);
  });
});

describe("structured logs", () => {
  it("write one JSON object per line with a request id that the response carries", async () => {
    const res = await fetch(`${t.base}/api/v1/products/static?key=${shop.api_key}&ids=2`, { headers: { "X-Request-Id": "trace-abc.123" } });
    expect(res.headers.get("x-request-id")).toBe("trace-abc.123");
    const own = await fetch(`${t.base}/healthz`);
    const generated = own.headers.get("x-request-id")!;
    expect(generated).toMatch(/^[a-z0-9]+-[a-z0-9]+$/);
    const access = lines.filter((line) => line.message === "request");
    expect(access.find((line) => line.requestId === "trace-abc.123")).toMatchObject({
      level: "debug",
      method: "GET",
      path: "/api/v1/products/static",
      status: 200,
    });
    expect(access.find((line) => line.requestId === generated)).toMatchObject({ path: "/healthz", status: 200 });
    expect(lines.every((line) => typeof line.time === "string" && typeof line.level === "string")).toBe(true);
  });

  it("drops lines below the configured level", () => {
    const quiet: Record<string, unknown>[] = [];
    const logger = jsonLogger(
      "warn",
      new Writable({ write: (chunk: Buffer, _e, done) => (quiet.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) }),
    );
    logger.info("not shown");
    logger.debug("not shown");
    logger.warn("shown", { reason: "test" });
    expect(quiet).toEqual([expect.objectContaining({ level: "warn", message: "shown", reason: "test" })]);
  });
});
