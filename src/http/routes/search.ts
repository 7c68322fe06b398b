// POST /api/v1/smart-search/search/quick-view: validated and authenticated on
// this thread, answered from the response cache when the same request (the
// same keystroke) was answered on the same catalogue and search settings,
// otherwise searched in the pool.
import { QUICK_VIEW_SEARCH } from "../../core/api/endpoints.js";
import { canonicalSearchRequest, parseQuickViewRequest } from "../../core/search/request.js";
import { merchantForKey } from "../auth.js";
import { cachedTask } from "../cached-task.js";
import type { Reply } from "../respond.js";
import { merchantSubject } from "../rate-limiting.js";
import type { RequestInfo, Route } from "../router.js";
import type { Services } from "../services.js";

/** The key travels as a query parameter or a header. */
function keyOf(info: RequestInfo): string | undefined {
  return (info.query.get("Service-Api-Key") ?? info.headers["service-api-key"])?.trim() || undefined;
}

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
      // A search body is a few hundred bytes: no reason to read megabytes from anyone.
      maxBodyBytes: services.config.searchMaxBodyBytes,
      // The key is checked here, before the body is read.
      limit: { rateClass: "search", subjectOf: (info) => merchantSubject(merchantForKey(store, keyOf(info))) },
      handle(info): Reply | Promise<Reply> {
        const merchant = merchantForKey(store, keyOf(info));
        const request = parseQuickViewRequest(info.body, info.query);
        return cachedTask(services, {
          task: { kind: "quick_view", merchantId: merchant.id, request },
          // The merchant's search settings version too: a settings change shows on the next keystroke.
          cacheKey: `${merchant.id}|${QUICK_VIEW_SEARCH.path}|${canonicalSearchRequest(request)}|v${store.recentVersions.of(merchant.id, "catalogue")}|s${store.recentVersions.of(merchant.id, "search_settings")}`,
          // Sales move the ranking a little: answers also expire by age, as the sales lists do.
          ttlMs: services.config.behaviourCacheTtlMs,
          request: info,
        });
      },
    },
  ];
}
