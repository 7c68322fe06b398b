// Generated from /openapi.json by client/codegen/typescript-from-openapi.ts: do not edit.
// After the document changes, write it again: npx vitest run test/unit/client-types.test.ts --update

/** A product or variant metafield, returned when a metafield parameter selects it. */
export interface Metafield {
  id: number;
  namespace: string;
  key: string;
  /** The value as text (JSON values as their JSON text). */
  value: string;
  type: string;
  owner_id: number;
  owner_resource: "product" | "variant";
  /** Timestamp with a UTC offset, ISO 8601 style. */
  created_at: string;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  updated_at: string;
  /** Shape gid://<platform>/Metafield/<id>. */
  admin_graphql_api_id: string;
}

export interface Variant {
  id: number;
  /** The owning product. */
  product_id: number;
  title: string;
  /** Decimal amount with two places, in the market's currency when country_code selects one. */
  price: string;
  /** Decimal amount with two places. */
  compare_at_price: string | null;
  sku: string;
  /** 1-based. */
  position: number;
  /** deny or continue (sells when out of stock). */
  inventory_policy: string;
  fulfillment_service: string;
  /** The managing service's name; null when inventory is not tracked. */
  inventory_management: string | null;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  created_at: string;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  updated_at: string;
  taxable: boolean;
  barcode: string;
  grams: number;
  image_id: number | null;
  weight: number;
  weight_unit: string;
  inventory_item_id: number;
  /** May be negative or zero. */
  inventory_quantity: number;
  old_inventory_quantity: number;
  requires_shipping: boolean;
  /** Shape gid://<platform>/ProductVariant/<id>. */
  admin_graphql_api_id: string;
  /** Only with selling_plans=yes on static; kept as the platform sent them. */
  selling_plan_allocations?: unknown[];
  /** Present only when metafields are requested. */
  metafields?: Metafield[];
}

export interface Option {
  id: number;
  product_id: number;
  name: string;
  position: number;
  values: string[];
}

export interface Image {
  id: number;
  product_id: number;
  position: number;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  created_at: string;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  updated_at: string;
  alt: string | null;
  /** Pixels. */
  width: number;
  /** Pixels. */
  height: number;
  /** Image address. */
  src: string;
  /** Variants that use the image. */
  variant_ids: number[];
  /** Shape gid://<platform>/ProductImage/<id>. */
  admin_graphql_api_id: string;
}

/** A product with every field the spec shows (static, viewed, viewed-related). */
export interface Product {
  id: number;
  title: string;
  /** HTML description. */
  body_html: string;
  vendor: string;
  /** May be an empty string. */
  product_type: string;
  /** URL handle. */
  handle: string;
  /** active, draft or archived. */
  status: string;
  /** Comma-separated tag list (one string). */
  tags: string;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  created_at: string;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  updated_at: string;
  /** Null when unpublished. */
  published_at: string | null;
  template_suffix: string | null;
  published_scope: string;
  /** Shape gid://<platform>/Product/<id>. */
  admin_graphql_api_id: string;
  variants: Variant[];
  options: Option[];
  images: Image[];
  /** The primary image. */
  image: Image | null;
  /** Present only when metafields are requested. */
  metafields?: Metafield[];
}

export interface ReducedVariant {
  id: number;
  /** The owning product. */
  product_id: number;
  title: string;
  /** Decimal amount with two places, in the market's currency when country_code selects one. */
  price: string;
  sku: string;
  /** Decimal amount with two places. */
  compare_at_price: string | null;
  /** May be negative or zero. */
  inventory_quantity: number;
  option1: string | null;
  /** Present only when metafields are requested. */
  metafields?: Metafield[];
}

export interface ReducedOption {
  id: number;
  name: string;
  values: string[];
}

export interface ReducedImage {
  id: number;
  /** Image address. */
  src: string;
  width: number;
  height: number;
}

export interface ReducedPrimaryImage {
  id: number;
  /** Image address. */
  src: string;
}

/** The subset of product fields trending, top sellers, recommended and similar products answer with. */
export interface ReducedProduct {
  id: number;
  title: string;
  /** HTML description. */
  body_html: string;
  vendor: string;
  /** May be an empty string. */
  product_type: string;
  /** URL handle. */
  handle: string;
  /** active, draft or archived. */
  status: string;
  /** Comma-separated tag list (one string). */
  tags: string;
  variants: ReducedVariant[];
  options: ReducedOption[];
  images: ReducedImage[];
  /** The primary image. */
  image: ReducedPrimaryImage | null;
  /** Present only when metafields are requested. */
  metafields?: Metafield[];
}

/** A product the customer bought, with how many. */
export interface PurchasedProduct {
  id: number;
  title: string;
  /** HTML description. */
  body_html: string;
  vendor: string;
  /** May be an empty string. */
  product_type: string;
  /** URL handle. */
  handle: string;
  /** active, draft or archived. */
  status: string;
  /** Comma-separated tag list (one string). */
  tags: string;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  created_at: string;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  updated_at: string;
  /** Null when unpublished. */
  published_at: string | null;
  template_suffix: string | null;
  published_scope: string;
  /** Shape gid://<platform>/Product/<id>. */
  admin_graphql_api_id: string;
  variants: Variant[];
  options: Option[];
  images: Image[];
  /** The primary image. */
  image: Image | null;
  /** Present only when metafields are requested. */
  metafields?: Metafield[];
  metadata: {
    /** Units of the product the customer bought, over orders not cancelled. */
    purchased_quantity: string;
  };
}

export interface Address {
  id: number;
  customer_id: number;
  first_name: string;
  last_name: string;
  company: string | null;
  address1: string;
  address2: string;
  city: string;
  province: string;
  country: string;
  zip: string;
  phone: string | null;
  name: string;
  province_code: string;
  /** ISO 3166-1 alpha-2. */
  country_code: string;
  country_name: string;
  default: boolean;
}

export interface Customer {
  id: number;
  email: string;
  accepts_marketing: boolean;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  created_at: string;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  updated_at: string;
  /** Timestamp with a UTC offset, ISO 8601 style. */
  accepts_marketing_updated_at: string;
  first_name: string;
  last_name: string;
  /** Orders not cancelled. */
  orders_count: number;
  state: string;
  /** Decimal amount over orders not cancelled. */
  total_spent: string;
  last_order_id: number | null;
  last_order_name: string | null;
  note: string | null;
  verified_email: boolean;
  multipass_identifier: string | null;
  tax_exempt: boolean;
  phone: string | null;
  tags: string;
  /** Currency code. */
  currency: string;
  marketing_opt_in_level: string | null;
  tax_exemptions: string[];
  /** Shape gid://<platform>/Customer/<id>. */
  admin_graphql_api_id: string;
  addresses: Address[];
  default_address: Address | null;
}

export interface CacheInfo {
  cache_info: {
    /** Opaque and stable for the same request on the same data. */
    cache_key: string;
    /** When the answer was computed (a timestamp), or never for an answer computed for this request. */
    cached_at_time: string;
  };
}

export interface ProductList {
  data: Product[];
}

export interface ReducedProductList {
  data: ReducedProduct[];
}

export interface RecommendedProductList {
  data: ReducedProduct[];
  metadata: CacheInfo;
}

export interface PurchasedProductList {
  data: PurchasedProduct[];
  metadata: {
    /** The customer; null when the shop does not know it. */
    platform_customer: Customer | null;
  };
}

export interface RuleMetadata {
  /** Indexes (from 0) of the rules whose conditions held, top to bottom, up to the first matched exit_if_matched. */
  rules_matched: number[];
  /** Per product id shown: the index of the rule that returned or pinned it, or the name of the built-in fallback source. */
  sources: Record<string, number | string>;
  /** Products and collections the rules name that the shop does not have, each with its place in the source. */
  warnings?: string[];
}

export interface CustomProductList {
  data: Product[];
  metadata: RuleMetadata;
}

export interface EventReceipt {
  /** Confirms the event is stored. */
  data: string;
}

export interface SourceParameter {
  name: string;
  required: boolean;
  default: string | null;
  description: string;
  example: string;
}

export interface Source {
  /** The endpoint path. */
  id: string;
  /** Display name. */
  name: string;
  description: string;
  protocol: "http" | "https";
  /** Host (and port) of the service. */
  host: string;
  path: string;
  query: SourceParameter[];
}

export interface SourceList {
  data: Source[];
}

export interface SuggestionImage {
  alt: string;
  url: string;
}

export interface VariantSuggestion {
  id: string;
  name: string;
  /** Storefront address. */
  url: string;
  /** In the market's currency. */
  price: number;
  /** 0 when there is none. */
  compareAtPrice: number;
  images: SuggestionImage[];
  canPurchase: boolean;
}

export interface Suggestion {
  id: string;
  name: string;
  /** Storefront address of the product. */
  url: string;
  /** Of the cheapest variant that can be bought (of all when none can). */
  price: number;
  /** 0 when there is none. */
  compareAtPrice: number;
  images: SuggestionImage[];
  canPurchase: boolean;
  variants: VariantSuggestion[];
  ratings: {
    /** From the product metafield reviews.rating; 0 when absent. */
    average: number;
    /** From reviews.rating_count; 0 when absent. */
    count: number;
  };
}

export interface CollectionSuggestion {
  id: string;
  title: string;
  handle: string;
  url: string;
}

export interface QuickViewResult {
  successful: boolean;
  data: {
    productSuggestions: Suggestion[];
    /** Up to 5 collections whose titles contain every query word as a word prefix. */
    collections: CollectionSuggestion[];
    /** The query exactly as sent: a client drops answers to older keystrokes by it. */
    query: string;
    /** Where the merchant sends this query (a keyword group's redirect: an http(s) address or a storefront path): a search box may jump there. Absent when no matched group has one. */
    redirect?: string;
  };
  /** Mirrors the HTTP status. */
  status: number;
  /** null on success. */
  errorMessage: string | null;
}

/** A quick-view search. Unknown fields are ignored. */
export interface QuickViewRequest {
  /** The search text; required here unless sent as the query parameter query. An empty string answers no suggestions. */
  query?: string;
  /** Maximum number of product suggestions, 1 to 50 (default 10). */
  limit?: number | string;
  /** Market prices and catalogue, as on the product lists. */
  country_code?: string;
  filters?: {
    collections?: (number | string)[];
    /** Never show out-of-stock products (default: after every available one). */
    hideOutOfStock?: boolean;
  };
  exclude?: {
    productIds?: (number | string)[];
    collections?: {
      collectionId: number | string;
      /** Leave the collection's products out too. */
      hideProducts?: boolean;
    }[];
  };
}

/** A client error with its message. */
export interface ErrorMessage {
  error: string;
}

/** The spec's empty error object; the message is in the X-Aisle-Error header. */
export type EmptyError = Record<string, never>;

export interface DeprecatedEndpoint {
  successful: false;
  message: string;
  data: {
    message: string;
  }[];
}

/** The query parameters of GET /api/v1/products/recommended (Recommended products). */
export interface RecommendedProductsParams {
  /** Comma-separated product ids the recommendations are for (one or many). */
  platform_product_ids?: readonly number[];
  /** Products of this collection are returned: ranked by the inputs' model when platform_product_ids or platform_variant_ids are given, by the collection's sales otherwise. */
  platform_collection_id?: number;
  /** Comma-separated variant ids; their products are the input. */
  platform_variant_ids?: readonly number[];
  /** yes: products are returned with a metafields property. */
  metafields?: "yes" | "no";
  /** yes: variants are returned with a metafields property. */
  variant_metafields?: "yes" | "no";
  /** Comma-separated product metafields of the form namespace.key to return. */
  metafield_ns_key?: readonly string[];
  /** Comma-separated variant metafields of the form namespace.key to return. */
  variant_metafield_ns_key?: readonly string[];
  /** Comma-separated product metafield namespaces; all metafields in them are returned. */
  metafield_ns?: readonly string[];
  /** Comma-separated variant metafield namespaces; all metafields in them are returned. */
  variant_metafield_ns?: readonly string[];
  /** yes: the cached response is discarded and a new one is computed. */
  bust_cache?: "yes" | "no";
  /** pretty: human-readable response formatting. */
  format?: "pretty";
  /** Maximum number of products returned (1 to 50). */
  limit?: number;
  /** Only products with a variant priced at or below this amount (less than or equal, as the spec defines it). */
  any_variant_price_less_than?: string;
  /** Only products with a variant priced at or below this amount. */
  any_variant_price_less_than_or_equal_to?: string;
  /** Only products with a variant at exactly this price. */
  any_variant_price_equal_to?: string;
  /** Only products with a variant priced above this amount. */
  variant_price_greater_than?: string;
  /** Only products with a variant priced at or above this amount. */
  variant_price_greater_than_or_equal_to?: string;
  /** yes: variants that fail the price conditions are removed from each returned product. */
  unset_variants?: "yes" | "no";
  /** Out-of-stock products are excluded; set to no to include them. A product is in stock when any variant has stock, allows overselling or is not inventory-managed. */
  filter_oos?: "yes" | "no";
  /** default: products bought together with the inputs. similar (alias similar_products): products most like the inputs, from the shop's embedding model (as /api/v1/products/similar_products); until that model is trained for the shop, products most like the inputs by their text. Other values fall back to default. */
  context?: string;
  /** ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling. */
  country_code?: string;
}

/** The query parameters of GET /api/v1/products/similar_products (Similar products). */
export interface SimilarProductsParams {
  /** Comma-separated product ids to find similar products for (required). */
  platform_product_ids?: readonly number[];
  /** yes: products are returned with a metafields property. */
  metafields?: "yes" | "no";
  /** yes: variants are returned with a metafields property. */
  variant_metafields?: "yes" | "no";
  /** Comma-separated product metafields of the form namespace.key to return. */
  metafield_ns_key?: readonly string[];
  /** Comma-separated variant metafields of the form namespace.key to return. */
  variant_metafield_ns_key?: readonly string[];
  /** Comma-separated product metafield namespaces; all metafields in them are returned. */
  metafield_ns?: readonly string[];
  /** Comma-separated variant metafield namespaces; all metafields in them are returned. */
  variant_metafield_ns?: readonly string[];
  /** yes: the cached response is discarded and a new one is computed. */
  bust_cache?: "yes" | "no";
  /** Maximum number of products returned (1 to 50). */
  limit?: number;
  /** pretty: human-readable response formatting. */
  format?: "pretty";
  /** Only products with a variant priced at or below this amount (less than or equal, as the spec defines it). */
  any_variant_price_less_than?: string;
  /** Only products with a variant priced at or below this amount. */
  any_variant_price_less_than_or_equal_to?: string;
  /** Only products with a variant at exactly this price. */
  any_variant_price_equal_to?: string;
  /** Only products with a variant priced above this amount. */
  variant_price_greater_than?: string;
  /** Only products with a variant priced at or above this amount. */
  variant_price_greater_than_or_equal_to?: string;
  /** yes: variants that fail the price conditions are removed from each returned product. */
  unset_variants?: "yes" | "no";
  /** Out-of-stock products are excluded; set to no to include them. A product is in stock when any variant has stock, allows overselling or is not inventory-managed. */
  filter_oos?: "yes" | "no";
  /** ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling. */
  country_code?: string;
}

/** The query parameters of GET /api/v1/products/trending_products (Trending products). */
export interface TrendingProductsParams {
  /** Comma-separated product ids to filter from the result set (they are never returned). */
  platform_product_ids?: readonly number[];
  /** yes: products are returned with a metafields property. */
  metafields?: "yes" | "no";
  /** yes: variants are returned with a metafields property. */
  variant_metafields?: "yes" | "no";
  /** Comma-separated product metafields of the form namespace.key to return. */
  metafield_ns_key?: readonly string[];
  /** Comma-separated variant metafields of the form namespace.key to return. */
  variant_metafield_ns_key?: readonly string[];
  /** Comma-separated product metafield namespaces; all metafields in them are returned. */
  metafield_ns?: readonly string[];
  /** Comma-separated variant metafield namespaces; all metafields in them are returned. */
  variant_metafield_ns?: readonly string[];
  /** yes: the cached response is discarded and a new one is computed. */
  bust_cache?: "yes" | "no";
  /** Maximum number of products returned (1 to 50). */
  limit?: number;
  /** pretty: human-readable response formatting. */
  format?: "pretty";
  /** Only products with a variant priced at or below this amount (less than or equal, as the spec defines it). */
  any_variant_price_less_than?: string;
  /** Only products with a variant priced at or below this amount. */
  any_variant_price_less_than_or_equal_to?: string;
  /** Only products with a variant at exactly this price. */
  any_variant_price_equal_to?: string;
  /** Only products with a variant priced above this amount. */
  variant_price_greater_than?: string;
  /** Only products with a variant priced at or above this amount. */
  variant_price_greater_than_or_equal_to?: string;
  /** yes: variants that fail the price conditions are removed from each returned product. */
  unset_variants?: "yes" | "no";
  /** Out-of-stock products are excluded; set to no to include them. A product is in stock when any variant has stock, allows overselling or is not inventory-managed. */
  filter_oos?: "yes" | "no";
  /** ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling. */
  country_code?: string;
}

/** The query parameters of GET /api/v1/products/top_sellers (Top sellers). */
export interface TopSellersParams {
  /** Only products of this collection are ranked. */
  platform_collection_id?: number;
  /** Trailing window of sales, in days (1 to 365). */
  window_days?: number;
  /** yes: products are returned with a metafields property. */
  metafields?: "yes" | "no";
  /** yes: variants are returned with a metafields property. */
  variant_metafields?: "yes" | "no";
  /** Comma-separated product metafields of the form namespace.key to return. */
  metafield_ns_key?: readonly string[];
  /** Comma-separated variant metafields of the form namespace.key to return. */
  variant_metafield_ns_key?: readonly string[];
  /** Comma-separated product metafield namespaces; all metafields in them are returned. */
  metafield_ns?: readonly string[];
  /** Comma-separated variant metafield namespaces; all metafields in them are returned. */
  variant_metafield_ns?: readonly string[];
  /** yes: the cached response is discarded and a new one is computed. */
  bust_cache?: "yes" | "no";
  /** Maximum number of products returned (1 to 50). */
  limit?: number;
  /** pretty: human-readable response formatting. */
  format?: "pretty";
  /** Only products with a variant priced at or below this amount (less than or equal, as the spec defines it). */
  any_variant_price_less_than?: string;
  /** Only products with a variant priced at or below this amount. */
  any_variant_price_less_than_or_equal_to?: string;
  /** Only products with a variant at exactly this price. */
  any_variant_price_equal_to?: string;
  /** Only products with a variant priced above this amount. */
  variant_price_greater_than?: string;
  /** Only products with a variant priced at or above this amount. */
  variant_price_greater_than_or_equal_to?: string;
  /** yes: variants that fail the price conditions are removed from each returned product. */
  unset_variants?: "yes" | "no";
  /** Out-of-stock products are excluded; set to no to include them. A product is in stock when any variant has stock, allows overselling or is not inventory-managed. */
  filter_oos?: "yes" | "no";
  /** ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling. */
  country_code?: string;
}

/** The query parameters of GET /api/v1/products/static (Static products). */
export interface StaticProductsParams {
  /** Comma-separated product ids to return, in this order. When omitted, platform_product_ids is used instead. */
  ids?: readonly number[];
  /** Comma-separated product handles to return. When omitted, platform_product_ids is used instead. */
  handles?: readonly string[];
  /** Comma-separated product ids; restricts the result to these products (they are the selection when ids, handles and platform_collection_id are absent). */
  platform_product_ids?: readonly number[];
  /** Products of this collection are returned. */
  platform_collection_id?: number;
  /** Comma-separated product ids left out of the result. */
  excluded_ids?: readonly number[];
  /** yes: products are returned with a metafields property. */
  metafields?: "yes" | "no";
  /** Comma-separated product metafields of the form namespace.key to return. */
  metafield_ns_key?: readonly string[];
  /** Comma-separated variant metafields of the form namespace.key to return. */
  variant_metafield_ns_key?: readonly string[];
  /** Comma-separated product metafield namespaces; all metafields in them are returned. */
  metafield_ns?: readonly string[];
  /** Comma-separated variant metafield namespaces; all metafields in them are returned. */
  variant_metafield_ns?: readonly string[];
  /** Out-of-stock products are excluded; set to no to include them. A product is in stock when any variant has stock, allows overselling or is not inventory-managed. */
  filter_oos?: "yes" | "no";
  /** yes: unpublished products are excluded. */
  filter_unpublished?: "yes" | "no";
  /** yes: the cached response is discarded and a new one is computed. */
  bust_cache?: "yes" | "no";
  /** Maximum number of products returned (1 to 50). */
  limit?: number;
  /** pretty: human-readable response formatting. */
  format?: "pretty";
  /** yes: variants get a selling_plan_allocations property. */
  selling_plans?: "yes" | "no";
  /** ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling. */
  country_code?: string;
}

/** The query parameters of GET /api/v1/products/viewed-related (Related to viewed products). */
export interface ViewedRelatedProductsParams {
  /** Id of a known customer of the shop. */
  platform_customer_id?: number;
  /** Session id; at least one of platform_customer_id and uuid is required. */
  uuid?: string;
  /** Event subject. */
  subject?: "user";
  /** Event action. */
  verb?: "viewed" | "added" | "removed";
  /** yes: products are returned with a metafields property. */
  metafields?: "yes" | "no";
  /** Comma-separated product metafields of the form namespace.key to return. */
  metafield_ns_key?: readonly string[];
  /** Comma-separated variant metafields of the form namespace.key to return. */
  variant_metafield_ns_key?: readonly string[];
  /** Comma-separated product metafield namespaces; all metafields in them are returned. */
  metafield_ns?: readonly string[];
  /** Comma-separated variant metafield namespaces; all metafields in them are returned. */
  variant_metafield_ns?: readonly string[];
  /** Maximum number of products returned (1 to 50). */
  limit?: number;
  /** pretty: human-readable response formatting. */
  format?: "pretty";
  /** ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling. */
  country_code?: string;
}

/** The query parameters of GET /api/v1/products/viewed (Recently viewed). */
export interface ViewedProductsParams {
  /** Id of a known customer of the shop. */
  platform_customer_id?: number;
  /** Session id; at least one of platform_customer_id and uuid is required. */
  uuid?: string;
  /** Event subject. */
  subject?: "user";
  /** Event action. */
  verb?: "viewed" | "added" | "removed";
  /** yes: products are returned with a metafields property. */
  metafields?: "yes" | "no";
  /** Maximum number of products returned (1 to 50). */
  limit?: number;
  /** pretty: human-readable response formatting. */
  format?: "pretty";
  /** ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling. */
  country_code?: string;
}

/** The query parameters of GET /api/v1/products/purchased (Purchased by the customer). */
export interface PurchasedProductsParams {
  /** The customer (required). */
  platform_customer_id?: number;
  /** Comma-separated product ids; only these products are returned. */
  platform_product_ids?: readonly number[];
  /** yes: products are returned with a metafields property. */
  metafields?: "yes" | "no";
  /** Comma-separated product metafields of the form namespace.key to return. */
  metafield_ns_key?: readonly string[];
  /** Comma-separated variant metafields of the form namespace.key to return. */
  variant_metafield_ns_key?: readonly string[];
  /** Comma-separated product metafield namespaces; all metafields in them are returned. */
  metafield_ns?: readonly string[];
  /** Comma-separated variant metafield namespaces; all metafields in them are returned. */
  variant_metafield_ns?: readonly string[];
  /** yes: the cached response is discarded and a new one is computed. */
  bust_cache?: "yes" | "no";
  /** Maximum number of products returned (1 to 50). */
  limit?: number;
  /** pretty: human-readable response formatting. */
  format?: "pretty";
  /** Out-of-stock products are excluded; set to no to include them. A product is in stock when any variant has stock, allows overselling or is not inventory-managed. */
  filter_oos?: "yes" | "no";
  /** ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling. */
  country_code?: string;
}

/** The query parameters of GET /api/v1/custom/id/{source_id} (Custom source). */
export interface CustomSourceParams {
  /** The id of one of the merchant's custom sources (as /api/v1/sources lists them). */
  source_id: string;
  /** Comma-separated ids of the input products (the product page's product, for example). */
  platform_product_ids?: readonly number[];
  /** Comma-separated variant ids; their products are input products too. */
  platform_variant_ids?: readonly number[];
  /** The collection recommended and top sellers rules rank within. */
  platform_collection_id?: number;
  /** The shopper, when known: customer conditions and the purchased, viewed and viewed-related sources read it. */
  platform_customer_id?: number;
  /** Session id, as sent with the events: the viewed and viewed-related sources read it. */
  uuid?: string;
  /** Comma-separated ids of the products in the shopper's cart. */
  cart_product_ids?: readonly number[];
  /** Comma-separated ids of the variants in the shopper's cart. */
  cart_variant_ids?: readonly number[];
  /** Comma-separated quantity of each cart line, in the order of cart_variant_ids (of cart_product_ids when no variant ids are given); 1 each when left out. */
  cart_quantities?: readonly number[];
  /** The cart as one JSON parameter, in the shape of the storefront's cart: {"items": [{"product_id", "variant_id", "quantity"}]} (each line needs a product_id or a variant_id); replaces cart_product_ids, cart_variant_ids and cart_quantities. */
  cart?: string;
  /** ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling. */
  country_code?: string;
  /** Maximum number of products returned (1 to 50). */
  limit?: number;
  /** pretty: human-readable response formatting. */
  format?: "pretty";
  /** Out-of-stock products are excluded; set to no to include them. A product is in stock when any variant has stock, allows overselling or is not inventory-managed. */
  filter_oos?: "yes" | "no";
  /** yes: products are returned with a metafields property. */
  metafields?: "yes" | "no";
  /** yes: variants are returned with a metafields property. */
  variant_metafields?: "yes" | "no";
  /** Comma-separated product metafields of the form namespace.key to return. */
  metafield_ns_key?: readonly string[];
  /** Comma-separated variant metafields of the form namespace.key to return. */
  variant_metafield_ns_key?: readonly string[];
  /** Comma-separated product metafield namespaces; all metafields in them are returned. */
  metafield_ns?: readonly string[];
  /** Comma-separated variant metafield namespaces; all metafields in them are returned. */
  variant_metafield_ns?: readonly string[];
  /** Only products with a variant priced at or below this amount (less than or equal, as the spec defines it). */
  any_variant_price_less_than?: string;
  /** Only products with a variant priced at or below this amount. */
  any_variant_price_less_than_or_equal_to?: string;
  /** Only products with a variant at exactly this price. */
  any_variant_price_equal_to?: string;
  /** Only products with a variant priced above this amount. */
  variant_price_greater_than?: string;
  /** Only products with a variant priced at or above this amount. */
  variant_price_greater_than_or_equal_to?: string;
  /** yes: variants that fail the price conditions are removed from each returned product. */
  unset_variants?: "yes" | "no";
  /** yes: the cached response is discarded and a new one is computed. */
  bust_cache?: "yes" | "no";
}

/** The query parameters of POST /api/v1/analytics/event (Analytics event (deprecated)). */
export interface LogEventParams {
  /** Event subject. */
  subject?: "user";
  /** Event action. */
  verb: "viewed" | "added" | "removed";
  /** Event object. */
  noun?: "product";
  /** Handle of the product the event is about; required when noun is product. */
  platform_product_handle: string;
  /** Email of the subject; links the event to a known customer. */
  subject_email?: string;
  /** Theme the event came from. */
  theme_id?: string;
  /** Session id created and kept by the client (UUID format). */
  uuid?: string;
  /** The customer, when known; at least one of uuid and platform_customer_id is required. */
  platform_customer_id?: number;
}

/** The query parameters of GET /api/v1/sources (Sources). */
export interface ListSourcesParams {
  /** pretty: human-readable response formatting. */
  format?: "pretty";
}

/** The query parameters of GET /api/v1/smart-search/settings/quick-view (Quick-view settings (deprecated)). */
export type QuickViewSettingsParams = Record<string, never>;

/** The query parameters of POST /api/v1/smart-search/search/quick-view (Quick-view search). */
export interface QuickViewSearchParams {
  /** The search text (the body's query wins when both are sent). */
  query?: string;
  /** Maximum number of product suggestions (1 to 50). */
  limit?: number;
  /** ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling. */
  country_code?: string;
  /** pretty: human-readable response formatting. */
  format?: "pretty";
}

/** Each operation's query parameters, request body (undefined: none) and success answer (never: it always fails). */
export interface Operations {
  /** GET /api/v1/products/recommended: Recommended products */
  recommendedProducts: { params: RecommendedProductsParams; body: undefined; answer: RecommendedProductList };
  /** GET /api/v1/products/similar_products: Similar products */
  similarProducts: { params: SimilarProductsParams; body: undefined; answer: RecommendedProductList };
  /** GET /api/v1/products/trending_products: Trending products */
  trendingProducts: { params: TrendingProductsParams; body: undefined; answer: ReducedProductList };
  /** GET /api/v1/products/top_sellers: Top sellers */
  topSellers: { params: TopSellersParams; body: undefined; answer: ReducedProductList };
  /** GET /api/v1/products/static: Static products */
  staticProducts: { params: StaticProductsParams; body: undefined; answer: ProductList };
  /** GET /api/v1/products/viewed-related: Related to viewed products */
  viewedRelatedProducts: { params: ViewedRelatedProductsParams; body: undefined; answer: ProductList };
  /** GET /api/v1/products/viewed: Recently viewed */
  viewedProducts: { params: ViewedProductsParams; body: undefined; answer: ProductList };
  /** GET /api/v1/products/purchased: Purchased by the customer */
  purchasedProducts: { params: PurchasedProductsParams; body: undefined; answer: PurchasedProductList };
  /** GET /api/v1/custom/id/{source_id}: Custom source */
  customSource: { params: CustomSourceParams; body: undefined; answer: CustomProductList };
  /** POST /api/v1/analytics/event: Analytics event (deprecated) */
  logEvent: { params: LogEventParams; body: undefined; answer: EventReceipt };
  /** GET /api/v1/sources: Sources */
  listSources: { params: ListSourcesParams; body: undefined; answer: SourceList };
  /** GET /api/v1/smart-search/settings/quick-view: Quick-view settings (deprecated) */
  quickViewSettings: { params: QuickViewSettingsParams; body: undefined; answer: never };
  /** POST /api/v1/smart-search/search/quick-view: Quick-view search */
  quickViewSearch: { params: QuickViewSearchParams; body: QuickViewRequest; answer: QuickViewResult };
}

/** How each operation is called: its method and path, the query parameter that carries the key, whether it sends a body. */
export interface OperationInfo {
  method: "GET" | "POST";
  path: string;
  key: { name: string; required: boolean } | null;
  body: boolean;
}

export const OPERATIONS = {
  recommendedProducts: { method: "GET", path: "/api/v1/products/recommended", key: { name: "key", required: true }, body: false },
  similarProducts: { method: "GET", path: "/api/v1/products/similar_products", key: { name: "key", required: true }, body: false },
  trendingProducts: { method: "GET", path: "/api/v1/products/trending_products", key: { name: "key", required: true }, body: false },
  topSellers: { method: "GET", path: "/api/v1/products/top_sellers", key: { name: "key", required: true }, body: false },
  staticProducts: { method: "GET", path: "/api/v1/products/static", key: { name: "key", required: true }, body: false },
  viewedRelatedProducts: { method: "GET", path: "/api/v1/products/viewed-related", key: { name: "key", required: true }, body: false },
  viewedProducts: { method: "GET", path: "/api/v1/products/viewed", key: { name: "key", required: false }, body: false },
  purchasedProducts: { method: "GET", path: "/api/v1/products/purchased", key: { name: "key", required: true }, body: false },
  customSource: { method: "GET", path: "/api/v1/custom/id/{source_id}", key: { name: "key", required: true }, body: false },
  logEvent: { method: "POST", path: "/api/v1/analytics/event", key: { name: "key", required: true }, body: false },
  listSources: { method: "GET", path: "/api/v1/sources", key: { name: "key", required: false }, body: false },
  quickViewSettings: {
    method: "GET",
    path: "/api/v1/smart-search/settings/quick-view",
    key: { name: "key", required: false },
    body: false,
  },
  quickViewSearch: {
    method: "POST",
    path: "/api/v1/smart-search/search/quick-view",
    key: { name: "Service-Api-Key", required: true },
    body: true,
  },
} as const satisfies Record<keyof Operations, OperationInfo>;
