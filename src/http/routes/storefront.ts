import {
  QUICK_VIEW_SETTINGS,
  RECOMMENDED,
  SOURCES,
  STATIC_PRODUCTS,
  STOREFRONT_ENDPOINTS,
  TOP_SELLERS,
  TRENDING_PRODUCTS,
} from "../../core/api/endpoints.js";
import { listSources } from "../../core/api/sources.js";
import { hasStaticSelection } from "../../core/products/static-selection.js";
import { listOptionsFrom, staticSelectionFrom } from "../../core/products/query.js";
import { ApiError } from "../../errors.js";
import { merchantForKey } from "../auth.js";
import { jsonReply } from "../respond.js";
import type { Route } from "../router.js";
import type { Services } from "../services.js";
import { parseOrThrow, productEndpoint } from "./product-endpoint.js";

export function storefrontRoutes(services: Services): Route[] {
  const ranked = { honourExcludeServiceTag: true };
  return [
    productEndpoint(services, RECOMMENDED, (params, merchant) => ({
      task: {
        kind: "recommended",
        merchantId: merchant.id,
        inputs: {
          productIds: (params.platform_product_ids as number[] | undefined) ?? [],
          variantIds: (params.platform_variant_ids as number[] | undefined) ?? [],
          collectionId: (params.platform_collection_id as number | undefined) ?? null,
        },
        list: listOptionsFrom(params, "reduced", ranked),
        now: services.now(),
      },
      // Each order updates the model at once: the next request must see it.
      dependsOn: ["catalogue", "orders"],
      ttlMs: services.config.behaviourCacheTtlMs,
      cacheInfo: true,
    })),
    productEndpoint(services, TRENDING_PRODUCTS, (params, merchant) => {
      const list = listOptionsFrom(params, "reduced", ranked);
      // platform_product_ids are filtered from the result set.
      list.excludedIds = (params.platform_product_ids as number[] | undefined) ?? [];
      return {
        task: { kind: "trending", merchantId: merchant.id, list, now: services.now(), collectionId: null, windowDays: 0 },
        // Sales move every minute: these lists expire by age instead of on every order.
      dependsOn: ["catalogue"],
        ttlMs: services.config.behaviourCacheTtlMs,
      };
    }),
    productEndpoint(services, TOP_SELLERS, (params, merchant) => ({
      task: {
        kind: "top_sellers",
        merchantId: merchant.id,
        list: listOptionsFrom(params, "reduced", ranked),
        now: services.now(),
        collectionId: (params.platform_collection_id as number | undefined) ?? null,
        windowDays: params.window_days as number,
      },
      // Sales move every minute: these lists expire by age instead of on every order.
      dependsOn: ["catalogue"],
      ttlMs: services.config.behaviourCacheTtlMs,
    })),
    productEndpoint(services, STATIC_PRODUCTS, (params, merchant) => {
      const selection = staticSelectionFrom(params);
      if (!hasStaticSelection(selection)) {
        throw new ApiError(
          "invalid_params",
          "Missing required args. You must pass ids, handles, platform_product_ids or platform_collection_id.",
        );
      }
      return {
        task: { kind: "static_products", merchantId: merchant.id, selection, list: listOptionsFrom(params, "full") },
        dependsOn: ["catalogue"],
      };
    }),
    {
      method: "GET",
      pattern: SOURCES.path,
      cors: true,
      readsBody: false,
      errorStyle: SOURCES.errorStyle,
      handle(request) {
        const params = parseOrThrow(SOURCES, request.query);
        // The key is optional; a wrong one is still an error rather than silently ignored.
        if (params.key !== undefined) merchantForKey(services.store, params.key as string);
        const host = request.headers.host ?? `localhost:${services.config.port}`;
        return jsonReply(200, { data: listSources(STOREFRONT_ENDPOINTS, host) }, params.format === true);
      },
    },
    {
      method: "GET",
      pattern: QUICK_VIEW_SETTINGS.path,
      cors: true,
      readsBody: false,
      errorStyle: QUICK_VIEW_SETTINGS.errorStyle,
      handle: () =>
        jsonReply(404, { successful: false, message: "deprecated", data: [{ message: "This endpoint is deprecated" }] }),
    },
  ];
}
