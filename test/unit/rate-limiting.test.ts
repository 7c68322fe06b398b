import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../src/core/rate-limit.js";
import { parseQuery } from "../../src/core/params/query.js";
import { RateLimiting, type RateSubject } from "../../src/http/rate-limiting.js";
import type { Reply } from "../../src/http/respond.js";
import type { RequestInfo, Route } from "../../src/http/router.js";

const LIMITS = { ...DEFAULT_RATE_LIMITS, product_reads: { perSecond: 1, burst: 2 } };

function route(errorStyle: Route["errorStyle"], subject: RateSubject): Route {
  return {
    method: "GET",
    pattern: "/list",
    cors: true,
    readsBody: false,
    errorStyle,
    limit: { rateClass: "product_reads", subjectOf: () => subject },
    handle: () => ({ status: 200, body: "" }),
  };
}

const request = (query = ""): RequestInfo => ({
  method: "GET",
  path: "/list",
  rawQuery: query,
  query: parseQuery(query),
  headers: {},
  body: null,
  params: {},
});

/** What a refusal puts on the wire: its headers by name and its body, as text. */
function written(reply: Reply | null): { status: number; headers: Record<string, string>; body: string } {
  if (reply === null) throw new Error("not refused");
  const text = (bytes: Uint8Array | string) => (typeof bytes === "string" ? bytes : Buffer.from(bytes).toString("utf8"));
  const headers: Record<string, string> = { ...reply.headers };
  for (const [name, value] of reply.encodedHeaders ?? []) headers[text(name)] = text(value);
  return { status: reply.status, headers, body: text(reply.body) };
}

describe("RateLimiting", () => {
  it("refuses past the burst with the 429 the README documents, in the route's error shape", () => {
    const limiting = new RateLimiting(LIMITS, () => 1_000);
    const shop = route("message", { id: "shop" });
    expect(limiting.check(shop, request())).toBeNull();
    expect(limiting.check(shop, request())).toBeNull();
    const refused = written(limiting.check(shop, request()));
    expect(refused.status).toBe(429);
    expect(refused.headers).toEqual({ "Retry-After": "1", "RateLimit-Limit": "2", "RateLimit-Remaining": "0", "RateLimit-Reset": "2" });
    expect(JSON.parse(refused.body)).toEqual({
      error: "Over the product_reads rate limit of 1 requests a second (bursts of 2); retry in 1 s",
    });
    const pretty = written(limiting.check(shop, request("format=pretty")));
    expect(pretty.body).toContain('{\n  "error": "Over the product_reads rate limit');
    const empty = written(limiting.check(route("empty", { id: "shop" }), request()));
    expect(JSON.parse(empty.body)).toEqual({});
    expect(empty.headers["X-Aisle-Error"]).toMatch(/^Over the product_reads rate limit of 1 requests a second/);
  });

  it("answers each subject's refusal with its own limit, not another's kept refusal", () => {
    const limiting = new RateLimiting(LIMITS, () => 1_000);
    const shared = route("message", { id: "a" });
    const own = route("message", { id: "b", own: { product_reads: { perSecond: 5, burst: 5 } } });
    for (let i = 0; i < 2; i++) limiting.check(shared, request());
    for (let i = 0; i < 5; i++) limiting.check(own, request());
    expect(written(limiting.check(shared, request())).headers["RateLimit-Limit"]).toBe("2");
    const refused = written(limiting.check(own, request()));
    expect(refused.headers).toMatchObject({ "RateLimit-Limit": "5", "RateLimit-Reset": "1" });
    expect(refused.body).toContain("rate limit of 5 requests a second (bursts of 5)");
  });

  it("allows again once the bucket has refilled", () => {
    let now = 1_000;
    const limiting = new RateLimiting(LIMITS, () => now);
    const shop = route("message", { id: "shop" });
    for (let i = 0; i < 2; i++) limiting.check(shop, request());
    expect(limiting.check(shop, request())?.status).toBe(429);
    now += 1_000;
    expect(limiting.check(shop, request())).toBeNull();
  });
});
