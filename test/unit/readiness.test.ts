// /healthz says the process answers; /readyz says whether it answers in full.
import { describe, expect, it } from "vitest";
import { metaRoutes } from "../../src/http/routes/meta.js";
import type { Route } from "../../src/http/router.js";
import type { Services } from "../../src/http/services.js";

function routesWhen(ready: boolean): Route[] {
  return metaRoutes({ version: "test", ready: () => ready } as Services, []);
}

async function call(routes: Route[], path: string) {
  const route = routes.find((candidate) => candidate.pattern === path)!;
  const reply = await route.handle({ method: "GET", path, query: new URLSearchParams(), headers: {}, body: null, params: {} });
  return { status: reply.status, body: JSON.parse(Buffer.from(reply.body).toString("utf8")) as Record<string, unknown> };
}

describe("health and readiness", () => {
  it("answers /readyz 503 until derived data is caught up, while /healthz stays 200", async () => {
    const starting = routesWhen(false);
    expect(await call(starting, "/readyz")).toEqual({
      status: 503,
      body: { status: "starting", error: "Not ready: derived data is being built" },
    });
    expect((await call(starting, "/healthz")).status).toBe(200);
    expect(await call(routesWhen(true), "/readyz")).toEqual({ status: 200, body: { status: "ready" } });
  });
});
