import type { OperationDoc } from "../../core/api/openapi.js";
import { parseId } from "../../core/ingest/fields.js";
import type { Merchant } from "../../core/types.js";
import { ApiError } from "../../errors.js";
import { ingest, INGEST_KINDS, isIngestKind } from "../../ingest/ingest.js";
import { createMerchant } from "../../ingest/merchants.js";
import { parseObjects } from "../../ingest/payload.js";
import { ADMIN_AUTH_HEADERS, requireAdmin } from "../auth.js";
import { bodyText } from "../request.js";
import { jsonReply, type Reply } from "../respond.js";
import type { RequestInfo, Route } from "../router.js";
import type { Services } from "../services.js";

function publicMerchant(merchant: Merchant): Record<string, string> {
  const { id, name, domain, currency } = merchant;
  return { id, name, domain, currency };
}

export const ADMIN_OPERATIONS: OperationDoc[] = [
  { method: "GET", path: "/admin/v1/merchants", summary: "List merchants", security: "admin" },
  {
    method: "POST",
    path: "/admin/v1/merchants",
    summary: "Create a merchant: {id, name, domain, currency} → {id, api_key, webhook_secret}",
    security: "admin",
    requestBody: "{id, name, domain, currency}",
  },
  ...INGEST_KINDS.map((kind): OperationDoc => ({
    method: "POST",
    path: `/admin/v1/merchants/:merchant/${kind}`,
    summary: `Upsert ${kind} by id (JSON array, one object, or NDJSON); all or nothing`,
    security: "admin",
    requestBody: `${kind} in the platform's Admin REST shape`,
  })),
  { method: "DELETE", path: "/admin/v1/merchants/:merchant/products/:id", summary: "Delete a product", security: "admin" },
  { method: "DELETE", path: "/admin/v1/merchants/:merchant/collections/:id", summary: "Delete a collection", security: "admin" },
];

export function adminRoutes(services: Services): Route[] {
  const { store } = services;
  const route = (
    method: Route["method"],
    pattern: string,
    readsBody: boolean,
    handle: (request: RequestInfo) => Reply | Promise<Reply>,
  ): Route => ({
    method,
    pattern,
    cors: false,
    readsBody,
    readsHeaders: ADMIN_AUTH_HEADERS,
    errorStyle: "message",
    handle(request) {
      requireAdmin(request.headers, services.adminToken);
      return handle(request);
    },
  });
  const merchantOf = (request: RequestInfo): Merchant => {
    const merchant = store.merchant(request.params.merchant ?? "");
    if (!merchant) throw new ApiError("not_found", `No merchant ${request.params.merchant}`);
    return merchant;
  };
  const idOf = (request: RequestInfo): number => {
    const id = parseId(request.params.id);
    if (id === null) throw new ApiError("invalid_params", `"${request.params.id}" is not an id`);
    return id;
  };

  return [
    route("GET", "/admin/v1/merchants", false, () => jsonReply(200, { data: store.listMerchants().map(publicMerchant) })),
    route("POST", "/admin/v1/merchants", true, async (request) => {
      const [input] = parseObjects(bodyText(request), "merchant");
      const merchant = await createMerchant(store, input);
      services.onMerchantCreated?.(merchant.id);
      return jsonReply(201, { id: merchant.id, api_key: merchant.api_key, webhook_secret: merchant.webhook_secret });
    }),
    route("POST", "/admin/v1/merchants/:merchant/:kind", true, async (request) => {
      const merchant = merchantOf(request);
      const kind = request.params.kind ?? "";
      if (!isIngestKind(kind)) throw new ApiError("not_found", `No endpoint for ${kind}; use one of ${INGEST_KINDS.join(", ")}`);
      const written = await ingest(store, merchant.id, kind, parseObjects(bodyText(request), kind));
      return jsonReply(200, { written });
    }),
    route("DELETE", "/admin/v1/merchants/:merchant/products/:id", false, async (request) => {
      const id = idOf(request);
      if (!(await store.deleteProduct(merchantOf(request).id, id))) throw new ApiError("not_found", `No product ${id}`);
      return jsonReply(200, { deleted: id });
    }),
    route("DELETE", "/admin/v1/merchants/:merchant/collections/:id", false, async (request) => {
      const id = idOf(request);
      if (!(await store.deleteCollection(merchantOf(request).id, id))) throw new ApiError("not_found", `No collection ${id}`);
      return jsonReply(200, { deleted: id });
    }),
  ];
}
