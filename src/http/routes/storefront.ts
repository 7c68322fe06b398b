import {
  QUICK_VIEW_SETTINGS,
  RECOMMENDED,
  SIMILAR_PRODUCTS,
  SOURCES,
  STATIC_PRODUCTS,
  STOREFRONT_ENDPOINTS,
  PURCHASED,
  TOP_SELLERS,
  TRENDING_PRODUCTS,
  VIEWED,
  VIEWED_RELATED,
} from "../../core/api/endpoints.js";
import type { ParsedParams } from "../../core/params/parse.js";
import type { HistorySubject, RecommendationContext } from "../../core/products/query.js";
import type { Merchant } from "../../core/types.js";
import { recommendationDependencies } from "../../stores/recommendation-versions.js";
import { listSources } from "../../core/api/sources.js";
import { hasStaticSelection } from "../../core/products/static-selection.js";
import { listOptionsFrom, staticSelectionFrom } from "../../core/products/query.js";
import { ApiError } from "../../errors.js";
import { merchantForKey } from "../auth.js";

import { jsonReply } from "../respond.js";
import type { Route } from "../router.js";
import type { Services } from "../services.js";
import { parseQueryParams, requireSessionOrCustomer } from "../request.js";
import { productEndpoint, type ProductPlan } from "./product-endpoint.js";

/** context=similar and its alias pick the embedding model; anything else is the default (DESIGN §5). */
function recommendationContext(params: ParsedParams): RecommendationContext {
  return params.context === "similar" || params.context === "similar_products" ? "similar" : "bought_together";
}

/** The session and/or customer a viewed endpoint is about; one of them is required. */
function historySubject(params: ParsedParams): HistorySubject {
  const subject: HistorySubject = {
    uuid: (params.uuid as string | undefined) ?? null,
    customerId: (params.platform_customer_id as number | undefined) ?? null,
    verb: params.verb as HistorySubject["verb"],
  };
  requireSessionOrCustomer(subject.uuid, subject.customerId);
  return subject;
}

export function storefrontRoutes(services: Services): Route[] {
  const ranked = { honourExcludeServiceTag: true };
  const { store } = services;
  /** viewed takes no key: the session's own merchant answers (DESIGN §5). */
  const viewedMerchant = (params: ParsedParams): Merchant | null => {
    if (params.key !== undefined) return merchantForKey(store, params.key as string);
    const subject = historySubject(params);
    if (subject.uuid === null)
      throw new ApiError("invalid_params", "Missing required endpoint arg: key (needed with platform_customer_id alone)");
    const merchantId = store.merchantOfSession(subject.uuid);
    const merchant = merchantId === undefined ? undefined : store.merchant(merchantId);
    // An unknown session has viewed nothing yet: an empty list, not an error.
    return merchant ?? null;
  };
  /** The subject, with its acknowledged events the stored histories do not hold yet. */
  const subjectWithPending = (params: ParsedParams, merchant: Merchant) => {
    const subject = historySubject(params);
    return { subject, pending: services.pendingEvents.pendingFor(merchant.id, subject) };
  };
  const recommendationPlan = (params: ParsedParams, merchant: Merchant, context: RecommendationContext): ProductPlan => {
    const inputs = {
      productIds: (params.platform_product_ids as number[] | undefined) ?? [],
      variantIds: (params.platform_variant_ids as number[] | undefined) ?? [],
      collectionId: (params.platform_collection_id as number | undefined) ?? null,
    };
    const task = {
      kind: "recommended",
      merchantId: merchant.id,
      context,
      inputs,
      list: listOptionsFrom(params, "reduced", ranked),
      now: services.now(),
    } as const;
    const dependencies = recommendationDependencies(store, merchant.id, context, inputs);
    return { task, ...dependencies, ttlMs: services.config.behaviourCacheTtlMs, cacheInfo: true };
  };
  return [
    productEndpoint(services, RECOMMENDED, (params, merchant) => recommendationPlan(params, merchant, recommendationContext(params))),
    productEndpoint(services, SIMILAR_PRODUCTS, (params, merchant) => {
      if (params.platform_product_ids === undefined)
        throw new ApiError("invalid_params", "Missing required endpoint arg: platform_product_ids");
      return recommendationPlan(params, merchant, "similar");
    }),
    productEndpoint(
      services,
      VIEWED,
      (params, merchant) => ({
        task: {
          kind: "viewed",
          merchantId: merchant.id,
          ...subjectWithPending(params, merchant),
          list: { ...listOptionsFrom(params, "full"), filterOos: false },
          now: services.now(),
        },
        dependsOn: [],
        cacheable: false,
      }),
      { merchantOf: viewedMerchant },
    ),
    productEndpoint(services, VIEWED_RELATED, (params, merchant) => ({
      task: {
        kind: "viewed_related",
        merchantId: merchant.id,
        ...subjectWithPending(params, merchant),
        list: listOptionsFrom(params, "full", ranked),
        now: services.now(),
      },
      dependsOn: [],
      cacheable: false,
    })),
    productEndpoint(services, PURCHASED, (params, merchant) => {
      if (params.platform_customer_id === undefined)
        throw new ApiError("invalid_params", "Missing required endpoint arg: platform_customer_id");
      const list = listOptionsFrom(params, "full");
      list.restrictTo = (params.platform_product_ids as number[] | undefined) ?? null;
      return {
        task: { kind: "purchased", merchantId: merchant.id, customerId: params.platform_customer_id as number, list },
        dependsOn: ["catalogue", "orders", "customers"],
      };
    }),
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
      // The sources list names this service by the host the storefront called.
      readsHeaders: ["host"],
      errorStyle: SOURCES.errorStyle,
      handle(request) {
        const params = parseQueryParams(SOURCES, request.query);
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
      handle: () => jsonReply(404, { successful: false, message: "deprecated", data: [{ message: "This endpoint is deprecated" }] }),
    },
  ];
}
