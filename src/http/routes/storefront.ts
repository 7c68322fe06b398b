import {
  CUSTOM_SOURCE,
  QUICK_VIEW_SETTINGS,
  RECOMMENDED,
  SIMILAR_PRODUCTS,
  SOURCES,
  STATIC_PRODUCTS,
  STOREFRONT_ENDPOINTS,
  PURCHASED,
  type ProductsAnswer,
  TOP_SELLERS,
  TRENDING_PRODUCTS,
  VIEWED,
  VIEWED_RELATED,
} from "../../core/api/endpoints.js";
import type { HistorySubject, ListParams, RecommendationContext } from "../../core/products/query.js";
import type { Merchant } from "../../core/types.js";
import { recommendationDependencies } from "../../stores/recommendation-versions.js";
import { QUICK_VIEW_SETTINGS_GONE } from "../../core/api/answers.js";
import { listCustomSources, listSources, type ServiceAddress } from "../../core/api/sources.js";
import { hasStaticSelection } from "../../core/products/static-selection.js";
import { listOptionsFrom, staticSelectionFrom } from "../../core/products/query.js";
import { ApiError } from "../../errors.js";
import { merchantForKey } from "../auth.js";

import { jsonReply } from "../respond.js";
import type { RequestInfo, Route } from "../router.js";
import type { Services } from "../services.js";
import { parseQueryParams, requireSessionOrCustomer, requireSessionOrCustomerIn } from "../request.js";
import { merchantSources } from "./custom-source.js";
import { productEndpoint, type ProductPlan } from "./product-endpoint.js";

/** What the endpoints about a shopper's own history read. */
interface HistoryParams {
  key?: string | undefined;
  uuid?: string | undefined;
  platform_customer_id?: number | undefined;
  verb: HistorySubject["verb"];
}

/** What recommended and similar_products read besides the list options. */
interface RecommendationParams extends ListParams {
  platform_product_ids?: number[] | undefined;
  platform_variant_ids?: number[] | undefined;
  platform_collection_id?: number | undefined;
}

/**
 * context=similar and its alias pick the embedding model; any other value is
 * the default, bought together: an unknown context from an old theme still gets a list.
 */
function recommendationContext(context: string): RecommendationContext {
  return context === "similar" || context === "similar_products" ? "similar" : "bought_together";
}

/** The session and/or customer a viewed endpoint is about; one of them is required. */
function historySubject(params: HistoryParams): HistorySubject {
  const subject: HistorySubject = {
    uuid: params.uuid ?? null,
    customerId: params.platform_customer_id ?? null,
    verb: params.verb,
  };
  requireSessionOrCustomer(subject.uuid, subject.customerId);
  return subject;
}

/** A Host header worth repeating: a host name or address and an optional port, nothing else. */
const HOST = /^[a-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9a-f:.]{2,45}\](:\d{1,5})?$/i;

export function storefrontRoutes(services: Services): Route[] {
  const ranked = { ranked: true };
  const { store } = services;
  /**
   * The configured public URL; else what the caller used, over plain HTTP (aisle serves no TLS
   * itself): a proxy in front that terminates TLS is what AISLE_PUBLIC_URL is for.
   */
  const serviceAddress = (request: RequestInfo): ServiceAddress => {
    const { publicUrl, port } = services.config;
    if (publicUrl) return { protocol: publicUrl.protocol === "https:" ? "https" : "http", host: publicUrl.host };
    const host = request.headers.host ?? "";
    return { protocol: "http", host: HOST.test(host) ? host : `localhost:${port}` };
  };
  /** viewed may come without a key (a theme that knows only the session): the session's own merchant answers. */
  const viewedMerchant = (params: HistoryParams): Merchant | null => {
    if (params.key !== undefined) return merchantForKey(store, params.key);
    const subject = historySubject(params);
    if (subject.uuid === null)
      throw new ApiError("invalid_params", "Missing required endpoint arg: key (needed with platform_customer_id alone)");
    const merchantIds = store.events.merchantsOfSession(subject.uuid);
    // A uuid more than one shop has logged: which shop's products to show only the key can say.
    if (merchantIds.length > 1)
      throw new ApiError("invalid_params", "Missing required endpoint arg: key (this session is known to more than one shop)");
    // An unknown session has viewed nothing yet: an empty list, not an error.
    return merchantIds.length === 1 ? (store.catalogue.merchant(merchantIds[0]!) ?? null) : null;
  };
  /** The subject, with its acknowledged events the stored histories do not hold yet. */
  const subjectWithPending = (params: HistoryParams, merchant: Merchant) => {
    const subject = historySubject(params);
    return { subject, pending: services.pendingEvents.pendingFor(merchant.id, subject) };
  };
  const recommendationPlan = (
    params: RecommendationParams,
    merchant: Merchant,
    context: RecommendationContext,
    answer: ProductsAnswer,
  ): ProductPlan => {
    const inputs = {
      productIds: params.platform_product_ids ?? [],
      variantIds: params.platform_variant_ids ?? [],
      collectionId: params.platform_collection_id ?? null,
    };
    const task = {
      kind: "recommended",
      merchantId: merchant.id,
      context,
      inputs,
      list: listOptionsFrom(params, answer.projection, ranked),
    } as const;
    const dependencies = recommendationDependencies(store, merchant.id, context, inputs);
    return { task, ...dependencies, ttlMs: services.config.behaviourCacheTtlMs, cacheInfo: answer.cacheInfo };
  };
  return [
    productEndpoint(services, RECOMMENDED, (params, merchant) =>
      recommendationPlan(params, merchant, recommendationContext(params.context), RECOMMENDED.answer),
    ),
    productEndpoint(services, SIMILAR_PRODUCTS, (params, merchant) =>
      recommendationPlan(params, merchant, "similar", SIMILAR_PRODUCTS.answer),
    ),
    productEndpoint(
      services,
      VIEWED,
      (params, merchant) => {
        const list = listOptionsFrom(params, VIEWED.answer.projection);
        // viewed takes no filter_oos: what a shopper viewed is shown in stock or not.
        list.filterOos = false;
        return {
          task: { kind: "viewed", merchantId: merchant.id, ...subjectWithPending(params, merchant), list },
          dependsOn: [],
          cacheable: false,
        };
      },
      // The spec's errors table gives its uuid-or-customer message whenever both are absent, as for events.
      { merchantOf: viewedMerchant, beforeParsing: requireSessionOrCustomerIn },
    ),
    productEndpoint(services, VIEWED_RELATED, (params, merchant) => ({
      task: {
        kind: "viewed_related",
        merchantId: merchant.id,
        ...subjectWithPending(params, merchant),
        list: listOptionsFrom(params, VIEWED_RELATED.answer.projection, ranked),
      },
      dependsOn: [],
      cacheable: false,
    })),
    productEndpoint(
      services,
      PURCHASED,
      (params, merchant) => {
        const customerId = params.platform_customer_id;
        if (customerId === undefined) throw new ApiError("invalid_params", "Missing required endpoint arg: platform_customer_id");
        const list = listOptionsFrom(params, PURCHASED.answer.projection);
        list.restrictTo = params.platform_product_ids ?? null;
        return {
          task: { kind: "purchased", merchantId: merchant.id, customerId, list },
          dependsOn: ["catalogue", "orders", "customers"],
        };
      },
      // It answers a customer's record: its own, lower limit.
      { rateClass: "customer_reads" },
    ),
    productEndpoint(services, TRENDING_PRODUCTS, (params, merchant) => {
      const list = listOptionsFrom(params, TRENDING_PRODUCTS.answer.projection, ranked);
      // platform_product_ids are filtered from the result set.
      list.excludedIds = params.platform_product_ids ?? [];
      return {
        task: { kind: "trending", merchantId: merchant.id, list, collectionId: null, windowDays: 0 },
        // The stored rankings change with each refresh (at most every AISLE_RANKING_REFRESH_S), not with each order.
        dependsOn: ["catalogue", "rankings"],
        ttlMs: services.config.behaviourCacheTtlMs,
      };
    }),
    productEndpoint(services, TOP_SELLERS, (params, merchant) => {
      // A window other than the default is stored once asked for, and kept while requests keep asking.
      void store.rankings.askForWindow(merchant.id, params.window_days, services.now());
      return {
        task: {
          kind: "top_sellers",
          merchantId: merchant.id,
          list: listOptionsFrom(params, TOP_SELLERS.answer.projection, ranked),
          collectionId: params.platform_collection_id ?? null,
          windowDays: params.window_days,
        },
        // The stored rankings change with each refresh (at most every AISLE_RANKING_REFRESH_S), not with each order.
        dependsOn: ["catalogue", "rankings"],
        ttlMs: services.config.behaviourCacheTtlMs,
      };
    }),
    productEndpoint(services, STATIC_PRODUCTS, (params, merchant) => {
      const selection = staticSelectionFrom(params);
      if (!hasStaticSelection(selection)) {
        throw new ApiError(
          "invalid_params",
          "Missing required args. You must pass ids, handles, platform_product_ids or platform_collection_id.",
        );
      }
      return {
        task: {
          kind: "static_products",
          merchantId: merchant.id,
          selection,
          list: listOptionsFrom(params, STATIC_PRODUCTS.answer.projection),
        },
        dependsOn: ["catalogue"],
      };
    }),
    {
      method: "GET",
      pattern: SOURCES.path,
      cors: true,
      readsBody: false,
      // Without a configured public URL, the sources name this service by the host the storefront called.
      readsHeaders: ["host"],
      errorStyle: SOURCES.errorStyle,
      handle(request) {
        const params = parseQueryParams(SOURCES, request.query);
        // The key is optional; a wrong one is still an error rather than silently ignored.
        const merchant = params.key === undefined ? null : merchantForKey(services.store, params.key);
        const address = serviceAddress(request);
        const custom = merchant === null ? [] : [...merchantSources(store, merchant.id).byId.values()].map(({ source }) => source);
        const data = [...listSources(STOREFRONT_ENDPOINTS, address), ...listCustomSources(CUSTOM_SOURCE, custom, address)];
        return jsonReply(200, { data }, params.format === true);
      },
    },
    {
      method: "GET",
      pattern: QUICK_VIEW_SETTINGS.path,
      cors: true,
      readsBody: false,
      errorStyle: QUICK_VIEW_SETTINGS.errorStyle,
      handle: () => jsonReply(404, QUICK_VIEW_SETTINGS_GONE),
    },
  ];
}
