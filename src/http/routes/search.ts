// POST /api/v1/smart-search/search/quick-view: validated and authenticated on
// this thread, answered from the response cache when the same request (the
// same keystroke) was answered on the same catalogue, otherwise searched in the pool.
import { QUICK_VIEW_SEARCH } from "../../core/api/endpoints.js";
import { canonicalSearchRequest, parseQuickViewRequest } from "../../core/search/request.js";
import { merchantForKey } from "../auth.js";
import { cachedTask } from "../cached-task.js";
import type { Reply } from "../respond.js";
import type { Route } from "../router.js";
import type { Services } from "../services.js";

export function searchRoutes(services: Services): Route[] {
  const { store } = services;
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
        const request = parseQuickViewRequest(info.body, info.query);
        return cachedTask(services, {
          task: { kind: "quick_view", merchantId: merchant.id, request },
          cacheKey: `${merchant.id}|${QUICK_VIEW_SEARCH.path}|${canonicalSearchRequest(request)}|v${store.version(merchant.id, "catalogue")}`,
          // Sales move the ranking a little: answers also expire by age, as the sales lists do.
          ttlMs: services.config.behaviourCacheTtlMs,
        });
      },
    },
  ];
}
