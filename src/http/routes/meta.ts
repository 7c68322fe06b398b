import { STOREFRONT_ENDPOINTS } from "../../core/api/endpoints.js";
import { buildOpenApi, type OperationDoc } from "../../core/api/openapi.js";
import { jsonBytes } from "../../core/json.js";
import { jsonReply } from "../respond.js";
import type { Route } from "../router.js";
import type { Services } from "../services.js";

function getRoute(pattern: string, handle: Route["handle"]): Route {
  return { method: "GET", pattern, cors: true, readsBody: false, errorStyle: "message", handle };
}

/** Health and the OpenAPI document; `operations` documents the non-storefront routes. */
export function metaRoutes(services: Services, operations: readonly OperationDoc[]): Route[] {
  const openApi = jsonBytes(
    buildOpenApi(STOREFRONT_ENDPOINTS, operations, { version: services.version, publicUrl: services.config.publicUrl?.origin ?? null }),
  );
  return [
    // Liveness: the process answers. Readiness is /readyz.
    getRoute("/healthz", () => jsonReply(200, { status: "ok", version: services.version })),
    // A load balancer sends shoppers here only once answers are complete, e.g. not while derived stores are rebuilt after an upgrade.
    getRoute("/readyz", () => {
      const waitingFor = services.waitingFor();
      return waitingFor.length === 0
        ? jsonReply(200, { status: "ready" })
        : jsonReply(503, { status: "starting", error: `Not ready: waiting for ${waitingFor.join(", ")}`, waiting_for: waitingFor });
    }),
    getRoute("/openapi.json", () => ({ status: 200, body: openApi })),
    // Prometheus scrapes this; labels carry routes and task kinds, never a tenant's data.
    getRoute("/metrics", async () => {
      const { metrics } = services;
      if (!metrics) return jsonReply(404, { error: "No metrics in this process" });
      return { status: 200, body: await metrics.text(), contentType: metrics.contentType };
    }),
  ];
}
