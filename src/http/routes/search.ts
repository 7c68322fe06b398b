// POST /api/v1/smart-search/search/quick-view: validated and authenticated on
// this thread, answered from the response cache when the same request (the
// same keystroke) was answered on the same catalogue, otherwise searched in the pool.
import { QUICK_VIEW_SEARCH } from "../../core/api/endpoints.js";
import { BadSearchRequest, canonicalSearchRequest, parseQuickViewRequest, type QuickViewRequest } from "../../core/search/request.js";
import { ApiError } from "../../errors.js";
import { PoolSaturatedError } from "../../pool/pool.js";
import { merchantForKey } from "../auth.js";
import { PARTIAL_HEADER, type Reply } from "../respond.js";
import type { RequestInfo, Route } from "../router.js";
import type { Services } from "../services.js";

function requestFrom(info: RequestInfo): QuickViewRequest {
  try {
    return parseQuickViewRequest(info.body, info.query);
  } catch (error) {
    if (error instanceof BadSearchRequest) throw new ApiError("invalid_params", `Invalid request: ${error.message}`);
    throw error;
  }
}

export function searchRoutes(services: Services): Route[] {
  const { store, cache, pool } = services;
  return [
    {
      method: "POST",
      pattern: QUICK_VIEW_SEARCH.path,
      cors: true,
      readsBody: true,
      readsHeaders: ["service-api-key"],
      errorStyle: QUICK_VIEW_SEARCH.errorStyle,
      handle(info): Reply | Promise<Reply> {
        const key = info.query.get("Service-Api-Key") ?? info.headers["service-api-key"];
        const merchant = merchantForKey(store, key?.trim() || undefined);
        const request = requestFrom(info);
        const cacheKey = `${merchant.id}|${QUICK_VIEW_SEARCH.path}|${canonicalSearchRequest(request)}|v${store.version(merchant.id, "catalogue")}`;
        const now = services.now();
        const hit = cache.get(cacheKey, now);
        if (hit) return { status: 200, body: hit.body, headers: { Age: String(Math.floor((now - hit.storedAt) / 1000)) } };
        return pool.run({ kind: "quick_view", merchantId: merchant.id, request, now }).then(
          (result): Reply => {
            if (!result.ok) throw new Error(`worker task quick_view failed: ${result.code} ${result.message}`);
            // Not cached: the same keystroke finds more once the index is complete.
            if (result.warming !== undefined)
              return { status: 200, body: result.body, headers: { Age: "0", [PARTIAL_HEADER]: result.warming } };
            // Sales move the ranking a little: answers also expire by age, as the sales lists do.
            cache.set(cacheKey, result.body, services.now(), services.config.behaviourCacheTtlMs);
            return { status: 200, body: result.body, headers: { Age: "0" } };
          },
          (error: unknown) => {
            if (error instanceof PoolSaturatedError) throw new ApiError("overloaded");
            throw error;
          },
        );
      },
    },
  ];
}
