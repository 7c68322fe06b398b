// /healthz says the process answers; /readyz says whether it answers in full, and if not, what it waits for.
import { describe, expect, it } from "vitest";
import { metaRoutes } from "../../src/http/routes/meta.js";
import type { Route } from "../../src/http/router.js";
import type { Services } from "../../src/http/services.js";

function routesWaitingFor(waitingFor: string[]): Route[] {
  const config = { publicUrl: null } as Services["config"];
  return metaRoutes({ version: "test", config, waitingFor: () => waitingFor } as Partial<Services> as Services, []);
}

async function call(routes: Route[], path: string) {
  const route = routes.find((candidate) => candidate.pattern === path)!;
  const reply = await route.handle({
    method: "GET",
    path,
    rawQuery: "",
    query: new URLSearchParams(),
    headers: {},
    body: null,
    params: {},
  });
  return { status: reply.status, body: JSON.parse(Buffer.from(reply.body).toString("utf8")) as Record<string, unknown> };
}

describe("health and readiness", () => {
  it("answers /readyz 503 naming what it waits for, while /healthz stays 200", async () => {
    const starting = routesWaitingFor(["2 derived store builds"]);
    expect(await call(starting, "/readyz")).toEqual({
      status: 503,
      body: { status: "starting", error: "Not ready: waiting for 2 derived store builds", waiting_for: ["2 derived store builds"] },
    });
    expect((await call(starting, "/healthz")).status).toBe(200);
    expect(await call(routesWaitingFor([]), "/readyz")).toEqual({ status: 200, body: { status: "ready" } });
  });
});
