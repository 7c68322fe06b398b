import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STATIC_PRODUCTS } from "../../src/core/api/endpoints.js";
import { product } from "../helpers/fixtures.js";
import { servedOpenApi } from "../helpers/openapi-checker.js";
import { createTestMerchant, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
let key: string;

beforeAll(async () => {
  t = await startTestService();
  key = (await createTestMerchant(t, "web")).api_key;
  await postJson(t, "/admin/v1/merchants/web/products", [product(1)]);
});
afterAll(() => t.stop());

describe("HTTP front end", () => {
  it("answers unknown paths with a JSON 404 and wrong methods with a JSON 405 and Allow", async () => {
    const missing = await fetch(`${t.base}/api/v1/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "No endpoint at /api/v1/nothing-here" });
    const wrong = await fetch(`${t.base}/api/v1/products/static?key=${key}&ids=1`, { method: "POST" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
    expect(((await wrong.json()) as { error: string }).error).toBe("Method POST is not allowed on /api/v1/products/static; use GET");
  });

  it("answers CORS preflights and sends Access-Control-Allow-Origin on storefront endpoints", async () => {
    const preflight = await fetch(`${t.base}/api/v1/products/static`, {
      method: "OPTIONS",
      headers: { Origin: "https://shop.example.com", "Access-Control-Request-Method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
    // A cluster's read-your-writes: a storefront may send the sequence it was given, and read it from a write's answer.
    expect(preflight.headers.get("access-control-allow-headers")).toContain("X-Aisle-After-Seq");
    const res = await fetch(`${t.base}/api/v1/products/static?key=${key}&ids=1`);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Aisle-Seq");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const error = await fetch(`${t.base}/api/v1/products/static?key=bad&ids=1`);
    expect(error.headers.get("access-control-allow-origin")).toBe("*");
    const admin = await t.admin("/admin/v1/merchants");
    expect(admin.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("limits URL and body size with a 4xx and keeps answering", async () => {
    const long = await fetch(`${t.base}/api/v1/products/static?key=${key}&handles=${"a".repeat(9000)}`);
    expect([414, 431]).toContain(long.status);
    const big = await t.admin("/admin/v1/merchants/web/products", {
      method: "POST",
      body: JSON.stringify([product(2, { body_html: "x".repeat(33 * 1024 * 1024) })]),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toMatch(/^Request body larger than/);
    expect(t.service.services.store.catalogue.product("web", 2)).toBeUndefined();
    expect((await fetch(`${t.base}/healthz`)).status).toBe(200);
  });

  it("answers /readyz 200 once the indexes are read and the derived stores are built", async () => {
    let status = 0;
    for (let tries = 0; tries < 200 && status !== 200; tries++) {
      status = (await fetch(`${t.base}/readyz`)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);
    // A new, empty shop is warmed without taking the instance out of service.
    await createTestMerchant(t, "newcomer");
    expect((await fetch(`${t.base}/readyz`)).status).toBe(200);
  });

  it("serves /healthz and an OpenAPI 3.1 document generated from the same parameter definitions", async () => {
    expect(await (await fetch(`${t.base}/healthz`)).json()).toMatchObject({ status: "ok" });
    const doc = (await (await fetch(`${t.base}/openapi.json`)).json()) as any;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc).toEqual(servedOpenApi());
    const staticOp = doc.paths["/api/v1/products/static"].get;
    const current = staticOp.parameters.filter((p: { deprecated?: boolean }) => !p.deprecated);
    // The key is a security scheme, not a parameter.
    expect(current.map((p: { name: string }) => p.name)).toEqual(STATIC_PRODUCTS.params.filter((p) => p.name !== "key").map((p) => p.name));
    expect(staticOp.security).toEqual([{ storefrontKey: [] }]);
    expect(staticOp.parameters.find((p: any) => p.name === "presentment_prices")).toMatchObject({ deprecated: true });
    expect(staticOp.parameters.find((p: any) => p.name === "limit").schema.default).toBe(5);
    expect(staticOp.parameters.find((p: any) => p.name === "ids")).toMatchObject({
      style: "form",
      explode: false,
      schema: { type: "array" },
    });
    expect(doc.paths["/admin/v1/merchants/{merchant}/products"].post.security).toEqual([{ adminToken: [] }]);
    expect(doc.paths["/webhooks/{merchant}"].post).toBeDefined();
  });

  it("names the service in sources by its configured public URL, else by a sane Host over plain HTTP", async () => {
    const proxied = await startTestService({ config: { publicUrl: new URL("https://recs.example.com") } });
    try {
      const { data } = (await (await fetch(`${proxied.base}/api/v1/sources`)).json()) as { data: { protocol: string; host: string }[] };
      expect(data[0]).toMatchObject({ protocol: "https", host: "recs.example.com" });
    } finally {
      await proxied.stop();
    }
    // A Host header that is no host name is not repeated to clients.
    const odd = await new Promise<string>((resolve) => {
      const socket = connect(t.service.port, "127.0.0.1", () =>
        socket.write("GET /api/v1/sources HTTP/1.1\r\nHost: <script>x</script>\r\n\r\n"),
      );
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk.toString();
        if (text.includes("}]}")) socket.destroy();
      });
      socket.on("close", () => resolve(text));
    });
    expect(odd).toContain(`"host":"localhost:`);
    expect(odd).not.toContain("<script>");
  });

  it("lists sources with parameter metadata generated from the validating definitions", async () => {
    const res = await fetch(`${t.base}/api/v1/sources?format=pretty`);
    const text = await res.text();
    expect(text).toContain('\n  "data"');
    const { data } = JSON.parse(text) as { data: any[] };
    const source = data.find((s) => s.path === "/api/v1/products/static");
    expect(source).toMatchObject({
      id: "/api/v1/products/static",
      // aisle serves plain HTTP; a TLS proxy in front is named by AISLE_PUBLIC_URL.
      protocol: "http",
      host: `127.0.0.1:${t.service.port}`,
      name: "Static products",
    });
    expect(source.query).toHaveLength(STATIC_PRODUCTS.params.length);
    expect(source.query.find((q: any) => q.name === "key")).toEqual({
      name: "key",
      required: true,
      default: null,
      description: expect.any(String),
      example: "<API_KEY>",
    });
    expect(source.query.find((q: any) => q.name === "limit").default).toBe("5");
    expect(data.some((s) => s.path === "/api/v1/sources")).toBe(false);
    const badKey = await fetch(`${t.base}/api/v1/sources?key=wrong`);
    expect(badKey.status).toBe(400);
    expect((await fetch(`${t.base}/api/v1/sources?key=${key}`)).status).toBe(200);
  });

  it("answers /demo with a 404 naming why when the data dir has no demo merchant", async () => {
    for (const path of ["/demo", "/demo/products/product-1", "/demo/images/product-1-1.svg"]) {
      const res = await fetch(`${t.base}${path}`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: string }).error, path).toMatch(/no demo merchant/);
    }
  });

  it("answers the deprecated quick-view settings endpoint with the spec's 404", async () => {
    const res = await fetch(`${t.base}/api/v1/smart-search/settings/quick-view?key=${key}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ successful: false, message: "deprecated", data: [{ message: "This endpoint is deprecated" }] });
  });

  it("survives a burst of malformed requests", async () => {
    const bad = [
      `${t.base}/api/v1/products/static?key=${key}&ids=%E0%A4%A`,
      `${t.base}/api/v1/products/static?key=${key}&ids=1&limit=1e3`,
      `${t.base}/api/v1/products/static?key=${key}&ids=${"9".repeat(30)}`,
      `${t.base}/api/v1/products/static?key=${key}&country_code=%00%00`,
      `${t.base}/admin/v1/merchants/%ZZ/products`,
    ];
    const statuses = await Promise.all(bad.map(async (url) => (await fetch(url)).status));
    for (const status of statuses) expect(status).toBeGreaterThanOrEqual(400);
    for (const status of statuses) expect(status).toBeLessThan(500);
    const utf8 = await t.admin("/admin/v1/merchants/web/products", { method: "POST", body: new Uint8Array([0xff, 0xfe, 0x00]) });
    expect(await utf8.json()).toEqual({ error: "Request body is not valid UTF-8" });
    expect((await fetch(`${t.base}/api/v1/products/static?key=${key}&ids=1`)).status).toBe(200);
  });
});
