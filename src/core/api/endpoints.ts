import { METAFIELD_PARAMS, METAFIELD_SELECTION_PARAMS, P, PRICE_FILTER_PARAMS, type ParamDef } from "../params/definitions.js";
import type { Projection } from "../products/projection.js";

/**
 * How an endpoint reports a client error. The spec shows no single envelope:
 * most endpoints answer `{error: <message>}`, a few answer an empty object.
 */
export type ErrorStyle = "message" | "empty";

/** A list of products, as the endpoint's route renders it. */
export interface ProductsAnswer {
  kind: "products";
  projection: Projection;
  /** The answer carries metadata.cache_info. */
  cacheInfo: boolean;
  /** Each product carries metadata.purchased_quantity, the answer metadata.platform_customer. */
  purchases: boolean;
  /** The answer carries a custom source's metadata: the rules matched and where each product came from. */
  ruleMetadata: boolean;
}

/** What an endpoint answers on success: the route renders it, /openapi.json documents it. */
export type AnswerDef = ProductsAnswer | { kind: "event_receipt" | "sources" | "quick_view" | "deprecated_not_found" };

/** How /openapi.json groups the endpoints. */
export type EndpointTag = "Product lists" | "Shopper history" | "Events" | "Search" | "Sources";

/** A `:name` segment of an endpoint's path. */
export interface PathParamDef {
  name: string;
  description: string;
  example: string;
}

export interface EndpointDef<Defs extends readonly ParamDef[] = readonly ParamDef[], Answer extends AnswerDef = AnswerDef> {
  method: "GET" | "POST";
  path: string;
  /** One per `:name` segment of the path. */
  pathParams?: readonly PathParamDef[];
  /** The operation's name in /openapi.json, and the typed client's method. */
  operationId: string;
  tag: EndpointTag;
  /** Display name in /api/v1/sources. */
  name: string;
  description: string;
  params: Defs;
  answer: Answer;
  errorStyle: ErrorStyle;
  /** Listed by /api/v1/sources (a data source a storefront widget can be pointed at). */
  isSource: boolean;
  deprecated?: boolean;
}

/** An endpoint whose parameters and answer keep their types: parsed requests are typed from them, routes render the answer. */
function endpoint<const Defs extends readonly ParamDef[], const Answer extends AnswerDef>(
  def: EndpointDef<Defs, Answer>,
): EndpointDef<Defs, Answer> {
  return def;
}

const products = (projection: Projection, extras: Partial<Pick<ProductsAnswer, "cacheInfo" | "purchases" | "ruleMetadata">> = {}) =>
  ({ kind: "products", projection, cacheInfo: false, purchases: false, ruleMetadata: false, ...extras }) as const;

export const STATIC_PRODUCTS = endpoint({
  method: "GET",
  path: "/api/v1/products/static",
  operationId: "staticProducts",
  tag: "Product lists",
  name: "Static products",
  description:
    "Exactly the products the caller configures: by ids, handles or collection, in the order given, restricted by platform_product_ids and excluded_ids.",
  params: [
    P.key,
    P.ids,
    P.handles,
    {
      ...P.platform_product_ids,
      description:
        "Comma-separated product ids; restricts the result to these products (they are the selection when ids, handles and platform_collection_id are absent).",
    },
    P.platform_collection_id,
    P.excluded_ids,
    P.metafields,
    ...METAFIELD_SELECTION_PARAMS,
    P.filter_oos,
    P.filter_unpublished,
    P.bust_cache,
    P.limit,
    P.format,
    P.selling_plans,
    P.country_code,
  ],
  answer: products("full"),
  errorStyle: "message",
  isSource: true,
});

/** What trending and top sellers share after their own inputs, in the spec's order. */
const SALES_LIST_PARAMS = [...METAFIELD_PARAMS, P.bust_cache, P.limit, P.format, ...PRICE_FILTER_PARAMS, P.filter_oos, P.country_code];

export const TRENDING_PRODUCTS = endpoint({
  method: "GET",
  path: "/api/v1/products/trending_products",
  operationId: "trendingProducts",
  tag: "Product lists",
  name: "Trending products",
  description:
    "Products whose sales are rising: recent units (and add-to-cart events) against each product's own earlier rate, with a minimum volume; topped up with best sellers so the list is never short.",
  params: [
    P.key,
    { ...P.platform_product_ids, description: "Comma-separated product ids to filter from the result set (they are never returned)." },
    ...SALES_LIST_PARAMS,
  ],
  // The spec shows an empty object as trending's 400 body.
  answer: products("reduced"),
  errorStyle: "empty",
  isSource: true,
});

export const RECOMMENDED = endpoint({
  method: "GET",
  path: "/api/v1/products/recommended",
  operationId: "recommendedProducts",
  tag: "Product lists",
  name: "Recommended products",
  description:
    "AI recommendations for the products being looked at or bought: products bought together with them, falling back to trending and best sellers so the list is never short. Products tagged exclude_service are never recommended.",
  params: [
    P.key,
    { ...P.platform_product_ids, description: "Comma-separated product ids the recommendations are for (one or many)." },
    {
      ...P.platform_collection_id,
      description:
        "Products of this collection are returned: ranked by the inputs' model when platform_product_ids or platform_variant_ids are given, by the collection's sales otherwise.",
    },
    P.platform_variant_ids,
    ...METAFIELD_PARAMS,
    P.bust_cache,
    P.format,
    P.limit,
    ...PRICE_FILTER_PARAMS,
    P.filter_oos,
    P.context,
    P.country_code,
  ],
  answer: products("reduced", { cacheInfo: true }),
  errorStyle: "message",
  isSource: true,
});

export const TOP_SELLERS = endpoint({
  method: "GET",
  path: "/api/v1/products/top_sellers",
  operationId: "topSellers",
  tag: "Product lists",
  name: "Top sellers",
  description: "Best sellers by units sold over a trailing window, optionally within one collection.",
  params: [
    P.key,
    { ...P.platform_collection_id, description: "Only products of this collection are ranked." },
    P.window_days,
    ...SALES_LIST_PARAMS,
  ],
  answer: products("reduced"),
  errorStyle: "message",
  isSource: true,
});

export const SIMILAR_PRODUCTS = endpoint({
  method: "GET",
  path: "/api/v1/products/similar_products",
  operationId: "similarProducts",
  tag: "Product lists",
  name: "Similar products",
  description:
    "Products most like the given ones, from the shop's own embedding model (product text, fine-tuned on what is bought and viewed together); the same model as recommended with context=similar. Falls back to trending and best sellers so the list is never short.",
  params: [
    P.key,
    { ...P.platform_product_ids, required: true, description: "Comma-separated product ids to find similar products for." },
    ...SALES_LIST_PARAMS,
  ],
  answer: products("reduced", { cacheInfo: true }),
  errorStyle: "message",
  isSource: true,
});

/** Whose history the shopper-history lists read (a known customer, a session, or both), and which events of it. */
const SHOPPER_PARAMS = [
  P.platform_customer_id,
  { ...P.uuid, description: "Session id; at least one of platform_customer_id and uuid is required." },
  P.subject,
  P.verb,
] as const;

export const VIEWED_RELATED = endpoint({
  method: "GET",
  path: "/api/v1/products/viewed-related",
  operationId: "viewedRelatedProducts",
  tag: "Shopper history",
  name: "Related to viewed products",
  description:
    "Products related to what a session or customer viewed (sent to /api/v1/analytics/event with the same uuid): sessions that viewed the same products, blended with what is bought together; the viewed products themselves are left out.",
  params: [P.key, ...SHOPPER_PARAMS, P.metafields, ...METAFIELD_SELECTION_PARAMS, P.limit, P.format, P.country_code],
  answer: products("full"),
  errorStyle: "message",
  isSource: true,
});

export const VIEWED = endpoint({
  method: "GET",
  path: "/api/v1/products/viewed",
  operationId: "viewedProducts",
  tag: "Shopper history",
  name: "Recently viewed",
  description:
    "The products a session or customer viewed (events sent to /api/v1/analytics/event), most recent first, without repeats. Without key, the merchant is found from the session uuid.",
  params: [
    { ...P.key, required: false, description: "Public API key; optional when uuid is given, required with platform_customer_id alone." },
    ...SHOPPER_PARAMS,
    P.metafields,
    P.limit,
    P.format,
    P.country_code,
  ],
  answer: products("full"),
  errorStyle: "message",
  isSource: true,
});

export const PURCHASED = endpoint({
  method: "GET",
  path: "/api/v1/products/purchased",
  operationId: "purchasedProducts",
  tag: "Shopper history",
  name: "Purchased by the customer",
  description:
    "The products a known customer bought, most recently bought first, each with metadata.purchased_quantity; the customer is returned as metadata.platform_customer.",
  params: [
    P.key,
    { ...P.platform_customer_id, description: "The customer (required)." },
    { ...P.platform_product_ids, description: "Comma-separated product ids; only these products are returned." },
    P.metafields,
    ...METAFIELD_SELECTION_PARAMS,
    P.bust_cache,
    P.limit,
    P.format,
    P.filter_oos,
    P.country_code,
  ],
  answer: products("full", { purchases: true }),
  errorStyle: "message",
  isSource: true,
});

export const CUSTOM_SOURCE = endpoint({
  method: "GET",
  path: "/api/v1/custom/id/:source_id",
  pathParams: [
    {
      name: "source_id",
      description: "The id of one of the merchant's custom sources (as /api/v1/sources lists them).",
      example: "complete-the-look",
    },
  ],
  operationId: "customSource",
  tag: "Product lists",
  name: "Custom source",
  description:
    "A list the merchant built from rules: each rule whose conditions hold for the request (input products, cart, customer, country) adds its products, top to bottom, until limit is filled; pins, boosts, burials and exclusions of the matched rules apply; the source's fallback answers when the rules fill nothing. Products tagged exclude_service and unpublished products are never shown. metadata.rules_matched lists the matched rules, metadata.sources where each product came from (a rule's index, or the fallback's name), metadata.warnings the products and collections the rules name that the shop does not have.",
  params: [
    P.key,
    { ...P.platform_product_ids, description: "Comma-separated ids of the input products (the product page's product, for example)." },
    { ...P.platform_variant_ids, description: "Comma-separated variant ids; their products are input products too." },
    { ...P.platform_collection_id, description: "The collection recommended and top sellers rules rank within." },
    {
      ...P.platform_customer_id,
      description: "The shopper, when known: customer conditions and the purchased, viewed and viewed-related sources read it.",
    },
    { ...P.uuid, description: "Session id, as sent with the events: the viewed and viewed-related sources read it." },
    P.cart_product_ids,
    P.cart_variant_ids,
    P.cart_quantities,
    P.cart,
    P.country_code,
    P.limit,
    P.format,
    P.filter_oos,
    ...METAFIELD_PARAMS,
    ...PRICE_FILTER_PARAMS,
    P.bust_cache,
  ],
  answer: products("full", { ruleMetadata: true }),
  errorStyle: "message",
  // /api/v1/sources lists each of the merchant's custom sources in its place.
  isSource: false,
});

export const ANALYTICS_EVENT = endpoint({
  method: "POST",
  path: "/api/v1/analytics/event",
  operationId: "logEvent",
  tag: "Events",
  name: "Analytics event (deprecated)",
  description:
    "Logs a customer event (user viewed / added / removed a product), parameters in the query string. Answers once the event is stored.",
  params: [
    { ...P.key, description: "The key to use the API." },
    P.subject,
    { ...P.verb, required: true, default: null },
    P.noun,
    P.platform_product_handle,
    P.subject_email,
    P.theme_id,
    { ...P.uuid, description: "Session id created and kept by the client (UUID format)." },
    { ...P.platform_customer_id, description: "The customer, when known; at least one of uuid and platform_customer_id is required." },
  ],
  answer: { kind: "event_receipt" },
  errorStyle: "message",
  isSource: false,
  deprecated: true,
});

export const SOURCES = endpoint({
  method: "GET",
  path: "/api/v1/sources",
  operationId: "listSources",
  tag: "Sources",
  name: "Sources",
  description: "Every data source available to the merchant account, with its parameters, for filling a drop-down of endpoints.",
  params: [{ ...P.key, required: false, description: "Public API key; with it, the merchant's own sources are listed too." }, P.format],
  answer: { kind: "sources" },
  errorStyle: "message",
  isSource: false,
});

export const QUICK_VIEW_SETTINGS = endpoint({
  method: "GET",
  path: "/api/v1/smart-search/settings/quick-view",
  operationId: "quickViewSettings",
  tag: "Search",
  name: "Quick-view settings (deprecated)",
  description: "Deprecated: always answers 404.",
  params: [{ ...P.key, required: false }],
  answer: { kind: "deprecated_not_found" },
  errorStyle: "message",
  isSource: false,
  deprecated: true,
});

export const QUICK_VIEW_SEARCH = endpoint({
  method: "POST",
  path: "/api/v1/smart-search/search/quick-view",
  operationId: "quickViewSearch",
  tag: "Search",
  name: "Quick-view search",
  description:
    "Search as you type: product suggestions and matching collections for a search box. JSON body {query, limit?, country_code?, " +
    "filters?: {collections?: [id], hideOutOfStock?: boolean}, exclude?: {productIds?: [id], collections?: [{collectionId, hideProducts?}]}}; " +
    "query, limit and country_code may also be sent in the query string. The last word matches as a prefix, typos are forgiven " +
    "(one edit from 4 characters, two from 8; never in numbers), SKUs and barcodes match exactly; out-of-stock products come after " +
    "every available one, or never with filters.hideOutOfStock. data.query echoes the query exactly, so a client can drop answers " +
    "to older keystrokes. The merchant's search settings (admin API, /admin/v1/merchants/{merchant}/search-settings) apply: " +
    "keyword groups pin or boost products, hide others and may answer data.redirect; excluded terms answer nothing; excluded " +
    "products, collections and tags are never shown; synonyms find each other.",
  params: [
    { ...P.key, name: "Service-Api-Key", description: "Public API key of the merchant, as a query parameter or a Service-Api-Key header." },
    {
      name: "query",
      kind: "text",
      required: false,
      default: null,
      description: "The search text (the body's query wins when both are sent).",
      example: "cordless dri",
    },
    { ...P.limit, default: "10", description: "Maximum number of product suggestions (1 to 50)." },
    P.country_code,
    P.format,
  ],
  // The spec shows an empty object as the 400 body of quick-view search.
  answer: { kind: "quick_view" },
  errorStyle: "empty",
  isSource: false,
});

/** Every storefront-facing endpoint, in the order /api/v1/sources lists them. */
export const STOREFRONT_ENDPOINTS: readonly EndpointDef[] = [
  RECOMMENDED,
  SIMILAR_PRODUCTS,
  TRENDING_PRODUCTS,
  TOP_SELLERS,
  STATIC_PRODUCTS,
  VIEWED_RELATED,
  VIEWED,
  PURCHASED,
  CUSTOM_SOURCE,
  ANALYTICS_EVENT,
  SOURCES,
  QUICK_VIEW_SETTINGS,
  QUICK_VIEW_SEARCH,
];
