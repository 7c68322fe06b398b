// Protection against hostile or careless clients, on a real server: long strings
// never reach a store lookup, rate limits per key and class, bodies checked
// before they are read, and connections that end where a body is left unread.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../src/core/rate-limit.js";
import { product } from "../helpers/fixtures.js";
import { ADMIN_TOKEN, createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let port: number;
let keyA: string;
let keyB: string;
let keyC: string;
let keyD: string;

/** Small limits, so a test reaches them in a few requests. */
const LIMITS = {
  ...DEFAULT_RATE_LIMITS,
  product_reads: { perSecond: 1, burst: 3 },
  search: { perSecond: 1, burst: 2 },
  admin: { perSecond: 1, burst: 1_000 },
};

beforeAll(async () => {
  // Refusals written at once: these tests read them on raw connections within half a second (held ones: below).
  t = await startTestService({ config: { rateLimits: LIMITS, refusalDelayMs: 0, searchMaxBodyBytes: 1024 } });
  port = t.service.port;
  keyA = (await createTestMerchant(t, "shop-a")).api_key;
  keyB = (await createTestMerchant(t, "shop-b")).api_key;
  keyC = (await createTestMerchant(t, "shop-c")).api_key;
  keyD = (await createTestMerchant(t, "shop-d")).api_key;
  for (const shop of ["shop-a", "shop-b"]) await postJson(t, `/admin/v1/merchants/${shop}/products`, [product(1)]);
});
afterAll(() => t.stop());

/** Sends raw bytes on a fresh connection; resolves with what came back and whether the server closed the connection. */
function raw(request: string, waitMs = 1_000, to = port): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(to, "127.0.0.1", () => socket.write(request));
    let text = "";
    let closedByServer = false;
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("end", () => (closedByServer = true));
    socket.on("error", () => {});
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text, closedByServer });
    });
  });
}

describe("long strings", () => {
  const long = "a".repeat(5_000);

  it("never reach a store lookup: each is a 4xx naming the problem, not a 500", async () => {
    const webhook = await fetch(`${t.base}/webhooks/${long}`, { method: "POST", body: "{}" });
    expect(webhook.status).toBe(401);
    const searchHeader = await fetch(`${t.base}/api/v1/smart-search/search/quick-view`, {
      method: "POST",
      headers: { "Service-Api-Key": long },
      body: JSON.stringify({ query: "x" }),
    });
    expect(searchHeader.status).toBe(400);
    expect(searchHeader.headers.get("x-aisle-error")).toBe("Invalid key");
    const searchQuery = await fetch(`${t.base}/api/v1/smart-search/search/quick-view?Service-Api-Key=${"b".repeat(900)}`, {
      method: "POST",
      body: JSON.stringify({ query: "x" }),
    });
    expect(searchQuery.status).toBe(400);
    const admin = await t.admin(`/admin/v1/merchants/${long}/products`, { method: "POST", body: JSON.stringify([product(2)]) });
    expect(admin.status).toBe(404);
    expect(((await admin.json()) as { error: string }).error.length).toBeLessThan(120);
    const adminDelete = await t.admin(`/admin/v1/merchants/shop-a/products/${long}`, { method: "DELETE" });
    expect(adminDelete.status).toBe(400);
  });
});

describe("rate limits", () => {
  it("answer 429 in the endpoint's own error shape once a key's bucket is empty, with when to retry", async () => {
    const statuses: number[] = [];
    let limited: Response | null = null;
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${t.base}/api/v1/products/static?key=${keyA}&ids=1`);
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
      else await res.arrayBuffer();
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited!.headers.get("ratelimit-limit")).toBe("3");
    expect(limited!.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(limited!.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    expect(limited!.headers.get("access-control-allow-origin")).toBe("*");
    expect(((await limited!.json()) as { error: string }).error).toMatch(/^Over the product_reads rate limit of 1 requests a second/);
    // trending's error shape is the spec's empty object, with the message in a header.
    const trending = await fetch(`${t.base}/api/v1/products/trending_products?key=${keyA}`);
    expect(trending.status).toBe(429);
    expect(await trending.json()).toEqual({});
    expect(trending.headers.get("x-aisle-error")).toMatch(/rate limit/);
  });

  it("leave another key's requests alone", async () => {
    const res = await fetch(`${t.base}/api/v1/products/static?key=${keyB}&ids=1`);
    expect(res.status).toBe(200);
  });

  it("count search separately, and check its key before its body is read", async () => {
    const search = (key: string) =>
      fetch(`${t.base}/api/v1/smart-search/search/quick-view?Service-Api-Key=${key}`, { method: "POST", body: '{"query":"x"}' });
    expect((await search(keyA)).status).toBe(200);
    expect((await search(keyA)).status).toBe(200);
    const third = await search(keyA);
    expect(third.status).toBe(429);
    expect(third.headers.get("x-aisle-error")).toMatch(/search rate limit/);
    // A wrong key with a large body announced is refused at once, the body never sent.
    const { text, closedByServer } = await raw(
      "POST /api/v1/smart-search/search/quick-view?Service-Api-Key=nope HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n",
    );
    expect(text).toMatch(/^HTTP\/1.1 400 /);
    expect(closedByServer).toBe(true);
  });

  it("can be set per merchant through the admin API, and a misspelt class is a 400", async () => {
    const put = (body: unknown) => t.admin("/admin/v1/merchants/shop-b/rate-limits", { method: "PUT", body: JSON.stringify(body) });
    const set = await put({ product_reads: { per_second: 1, burst: 1 }, events: null });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({
      own: { product_reads: { per_second: 1, burst: 1 }, events: null },
      effective: { product_reads: { per_second: 1, burst: 1 }, events: null, search: { per_second: 1, burst: 2 } },
    });
    const first = await fetch(`${t.base}/api/v1/products/static?key=${keyB}&ids=1`);
    const second = await fetch(`${t.base}/api/v1/products/static?key=${keyB}&ids=2`);
    expect([first.status, second.status]).toContain(429);
    const misspelt = await put({ product_read: { per_second: 5 } });
    expect(misspelt.status).toBe(400);
    expect(((await misspelt.json()) as { error: string }).error).toMatch(/^rate_limits\.product_read: is not a class of limits/);
    expect((await t.admin("/admin/v1/merchants/shop-b/rate-limits")).status).toBe(200);
  });

  it("never let requests without the admin token use up the admin's own limit", async () => {
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${t.base}/admin/v1/merchants`, { headers: { Authorization: "Bearer wrong" } });
      expect(res.status).toBe(401);
    }
    expect((await fetch(`${t.base}/admin/v1/merchants`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(200);
  });
});

/** Sends until a request is refused: the bucket is then empty, and the next requests sent at once are refused too. */
async function untilRefused(send: () => Promise<Response>): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const res = await send();
    await res.arrayBuffer();
    if (res.status === 429) return;
  }
  throw new Error("never refused");
}

/** Status codes of the answers in raw HTTP/1.1 text, in order. */
const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

describe("connection hygiene", () => {
  it("keeps the connection after a 429 on a body route whose body is framed within the limit, skipping the unread body", async () => {
    await untilRefused(() =>
      fetch(`${t.base}/api/v1/smart-search/search/quick-view?Service-Api-Key=${keyD}`, { method: "POST", body: '{"query":"x"}' }),
    );
    // The unread body looks like a request: it must be skipped, not answered.
    const smuggled = "GET /api/v1/sources HTTP/1.1\r\nHost: x\r\n\r\n";
    const refused =
      `POST /api/v1/smart-search/search/quick-view?Service-Api-Key=${keyD} HTTP/1.1\r\nHost: x\r\nContent-Length: ${smuggled.length}\r\n\r\n` +
      smuggled;
    const { text, closedByServer } = await raw(`${refused}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`, 500);
    expect(statuses(text)).toEqual([429, 200]);
    expect(text).toContain('{"status":"ok"');
    expect(text).not.toMatch(/\r\nConnection: close\r\n/i);
    expect(closedByServer).toBe(false);
    // A chunked body says nothing of its length: refused unread, it ends the connection.
    const chunked = await raw(
      `POST /api/v1/smart-search/search/quick-view?Service-Api-Key=${keyD} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n`,
    );
    expect(statuses(chunked.text)).toEqual([429]);
    expect(chunked.closedByServer).toBe(true);
  });

  it("keeps the connection after a 429 without a body", async () => {
    await untilRefused(() => fetch(`${t.base}/api/v1/products/static?key=${keyC}&ids=1`));
    const get = `GET /api/v1/products/static?key=${keyC}&ids=1 HTTP/1.1\r\nHost: x\r\n\r\n`;
    const { text, closedByServer } = await raw(`${get}${get}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`, 500);
    expect(statuses(text)).toEqual([429, 429, 200]);
    expect(closedByServer).toBe(false);
  });

  it("answers a body over the route's limit with a 413 before reading it, and closes the connection", async () => {
    const declared = await raw(
      `POST /api/v1/smart-search/search/quick-view?Service-Api-Key=${keyC} HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n`,
    );
    expect(declared.text).toMatch(/^HTTP\/1.1 413 /);
    expect(declared.closedByServer).toBe(true);
    // A chunked body says nothing up front: the read stops where it passes the limit.
    const chunk = "x".repeat(800);
    const chunked = await raw(
      `POST /api/v1/smart-search/search/quick-view?Service-Api-Key=${keyC} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n` +
        `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(2),
    );
    expect(chunked.text).toMatch(/^HTTP\/1.1 413 /);
    expect(chunked.closedByServer).toBe(true);
  });

  it("refuses conflicting Content-Length headers with a 400 and closes the connection", async () => {
    const { text, closedByServer } = await raw(
      `POST /api/v1/analytics/event?key=${keyB} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n12345`,
    );
    expect(text).toMatch(/^HTTP\/1.1 400 /);
    expect(text).toContain("Conflicting Content-Length headers");
    expect(closedByServer).toBe(true);
  });
});

describe("held refusals", () => {
  /** Sends one request on a fresh connection; resolves with the status line's code once the answer's head has come. */
  function statusOf(path: string, to: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = connect(to, "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk.toString("latin1");
        const status = statuses(text)[0];
        if (status === undefined) return;
        socket.destroy();
        resolve(status);
      });
      socket.on("error", reject);
    });
  }

  it("write a key's 429 after the delay, while other keys are answered at once", async () => {
    const own = await startTestService({
      config: { rateLimits: { ...LIMITS, product_reads: { perSecond: 1, burst: 1 } }, refusalDelayMs: 1_000 },
    });
    try {
      const flooder = (await createTestMerchant(own, "flooder")).api_key;
      const other = (await createTestMerchant(own, "other")).api_key;
      expect(await statusOf(`/api/v1/products/static?key=${flooder}&ids=1`, own.service.port)).toBe(200);
      const order: string[] = [];
      const refused = statusOf(`/api/v1/products/static?key=${flooder}&ids=1`, own.service.port).then((status) =>
        order.push(`flooder ${status}`),
      );
      // Sent after the refused request has been read: answered before it all the same.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const answered = statusOf(`/api/v1/products/static?key=${other}&ids=1`, own.service.port).then((status) =>
        order.push(`other ${status}`),
      );
      await Promise.all([refused, answered]);
      expect(order).toEqual(["other 200", "flooder 429"]);
    } finally {
      await own.stop();
    }
  });

  it("are written at once, closing their connections, when the server drains", async () => {
    const own = await startTestService({
      config: { rateLimits: { ...LIMITS, product_reads: { perSecond: 1, burst: 1 } }, refusalDelayMs: 60_000 },
    });
    const key = (await createTestMerchant(own, "flooder")).api_key;
    expect(await statusOf(`/api/v1/products/static?key=${key}&ids=1`, own.service.port)).toBe(200);
    const held = raw(`GET /api/v1/products/static?key=${key}&ids=1 HTTP/1.1\r\nHost: x\r\n\r\n`, 30_000, own.service.port);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await own.stop();
    const { text, closedByServer } = await held;
    expect(statuses(text)).toEqual([429]);
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(closedByServer).toBe(true);
  });
});

describe("shutting down", () => {
  it("answers requests on open connections with 503 and Connection: close while it drains", async () => {
    const own = await startTestService();
    const socket = connect(own.service.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    const ended = new Promise((resolve) => socket.once("end", resolve));
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(text).toMatch(/^HTTP\/1.1 200 /);
    const stopping = own.stop();
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await ended;
    const second = text.slice(text.indexOf("HTTP/1.1", 10));
    expect(second).toMatch(/^HTTP\/1.1 503 /);
    expect(second).toMatch(/\r\nConnection: close\r\n/i);
    await stopping;
  });
});
