// A bounded fuzz run against a real server: a few thousand random and malformed
// requests — known and unknown paths and methods, every known parameter with
// good, bad and long values, garbage and oversized bodies, long keys and ids.
// None may get a 5xx or a dropped connection. The seed is printed, and
// FUZZ_SEED=<seed> replays a run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STOREFRONT_ENDPOINTS } from "../../src/core/api/endpoints.js";
import { Rng } from "../../src/core/random.js";
import { product } from "../helpers/fixtures.js";
import { ADMIN_TOKEN, createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";

const REQUESTS = 3_000;
/** Requests in flight at once: enough to interleave, not so many that the pool's queue refuses them (503 by design). */
const CONCURRENCY = 4;
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

let t: TestService;
let key: string;
let secret: string;

beforeAll(async () => {
  t = await startTestService();
  const shop = await createTestMerchant(t, "fuzz");
  key = shop.api_key;
  secret = shop.webhook_secret;
  await postJson(t, "/admin/v1/merchants/fuzz/products", [product(1), product(2, { tags: "exclude_service" }), product(3)]);
  await postJson(t, "/admin/v1/merchants/fuzz/collections", [{ id: 9, title: "All", handle: "all", product_ids: [1, 2, 3] }]);
});
afterAll(() => t.stop());

const PATHS = [
  ...STOREFRONT_ENDPOINTS.map((endpoint) => endpoint.path),
  "/admin/v1/merchants",
  "/admin/v1/merchants/fuzz/products",
  "/admin/v1/merchants/fuzz/orders",
  "/admin/v1/merchants/fuzz/rate-limits",
  "/admin/v1/merchants/fuzz/products/1",
  "/admin/v1/merchants/nobody/customers",
  "/webhooks/fuzz",
  "/webhooks/nobody",
  "/healthz",
  "/readyz",
  "/openapi.json",
  "/metrics",
  "/",
  "/api/v1/products/",
  "/api/v1/../../etc/passwd",
];
const PARAM_NAMES = [...new Set(STOREFRONT_ENDPOINTS.flatMap((endpoint) => endpoint.params.map((param) => param.name)))];
const METHODS = ["GET", "GET", "GET", "POST", "POST", "PUT", "DELETE", "PATCH", "HEAD"];

function randomText(rng: Rng, max: number): string {
  const alphabets = ["abcdefghij", "0123456789", ",.-_~%20", "ÄéЖ中😀", "\u0000\u0001\u007f", "'\"<>{}[]\\"];
  const alphabet = [...rng.pick(alphabets)];
  return Array.from({ length: rng.int(0, max) }, () => rng.pick(alphabet)).join("");
}

/** Printable ASCII without spaces: what a header value may hold, so that the client sends it at all. */
function headerText(rng: Rng, max: number): string {
  return Array.from({ length: rng.int(1, max) }, () => String.fromCharCode(rng.int(33, 126))).join("");
}

function value(rng: Rng): string {
  switch (rng.int(0, 9)) {
    case 0:
      return key;
    case 1:
      return String(rng.int(-5, 5));
    case 2:
      return "1,2,3";
    case 3:
      return rng.uuid();
    case 4:
      return "a".repeat(rng.int(1_000, 3_000)); // long, within the URL limit
    case 5:
      return "9".repeat(rng.int(16, 40)); // ids past the safe integers
    case 6:
      return rng.pick(["yes", "no", "pretty", "similar", "viewed", "added", "CA", "19.99", "-1", "1e9", "NaN"]);
    default:
      return randomText(rng, 30);
  }
}

function body(rng: Rng): string | undefined {
  switch (rng.int(0, 6)) {
    case 0:
      return undefined;
    case 1:
      return JSON.stringify({ query: randomText(rng, 50), limit: rng.int(-2, 60), filters: { collections: [rng.int(0, 10)] } });
    case 2:
      return JSON.stringify([product(rng.int(1, 5), { title: randomText(rng, 20) })]);
    case 3:
      return "x".repeat(rng.int(60_000, 120_000)); // over quick-view's 64 KB
    case 4:
      return JSON.stringify({ id: rng.int(1, 3), nested: { deeper: [null, true, "x".repeat(rng.int(0, 5_000))] } });
    default:
      return randomText(rng, 200);
  }
}

function request(rng: Rng): { url: string; init: RequestInit } {
  const path = rng.chance(0.85)
    ? rng.pick(PATHS)
    : rng.chance(0.5)
      ? `/${randomText(rng, 40)}`
      : // Merchant ids past what a store key holds.
        rng.pick(["/webhooks/", "/admin/v1/merchants/"]) + "m".repeat(rng.int(1, 6_000)) + rng.pick(["", "/products"]);
  const query = Array.from({ length: rng.int(0, 6) }, () => {
    const name = rng.chance(0.85) ? rng.pick(PARAM_NAMES) : randomText(rng, 10);
    return `${encodeURIComponent(name)}=${encodeURIComponent(value(rng))}`;
  }).join("&");
  const headers: Record<string, string> = {};
  if (rng.chance(0.3)) headers.Authorization = rng.chance(0.5) ? `Bearer ${ADMIN_TOKEN}` : `Bearer ${headerText(rng, 40)}`;
  if (rng.chance(0.2)) headers["Service-Api-Key"] = rng.chance(0.5) ? key : "k".repeat(rng.int(1, 6_000));
  if (rng.chance(0.2)) headers["X-Platform-Topic"] = rng.pick(["products/update", "orders/create", "products/delete", "nope"]);
  if (rng.chance(0.2)) headers["X-Platform-Hmac-Sha256"] = rng.chance(0.1) ? secret : headerText(rng, 44);
  const method = rng.pick(METHODS);
  const payload = method === "GET" || method === "HEAD" ? undefined : body(rng);
  return { url: `${t.base}${encodeURI(path).replace(/%25/g, "%")}${query ? `?${query}` : ""}`, init: { method, headers, body: payload } };
}

describe(`fuzz (seed ${SEED}; replay with FUZZ_SEED=${SEED})`, () => {
  it(`answers ${REQUESTS} random and malformed requests without a 5xx or a dropped connection`, async () => {
    console.log(`fuzz seed ${SEED}`);
    const rng = new Rng(SEED);
    const requests = Array.from({ length: REQUESTS }, () => request(rng));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const lane = async () => {
      while (next < requests.length) {
        const { url, init } = requests[next++]!;
        try {
          const res = await fetch(url, init);
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status >= 500) failures.push(`${res.status} ${init.method} ${url.slice(0, 200)}`);
        } catch (error) {
          failures.push(`dropped: ${init.method} ${url.slice(0, 200)}: ${String((error as Error).cause ?? error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    expect(failures, `seed ${SEED}`).toEqual([]);
    // The run reached real answers, not only refusals.
    expect(statuses.get(200) ?? 0, `seed ${SEED}: ${JSON.stringify([...statuses])}`).toBeGreaterThan(100);
    // The service still answers normally afterwards.
    expect((await fetch(`${t.base}/api/v1/products/static?key=${key}&ids=1`)).status).toBe(200);
  });
});
