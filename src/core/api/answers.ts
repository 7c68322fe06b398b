// The documents the storefront endpoints answer and take, as JSON Schemas held
// to the TypeScript types their serializers write (see schema.ts): what
// /openapi.json lists under components.schemas.
import type {
  FullProductJson,
  FullVariantJson,
  ReducedImageJson,
  ReducedOptionJson,
  ReducedPrimaryImageJson,
  ReducedProductJson,
  ReducedVariantJson,
} from "../products/projection.js";
import { MAX_LIMIT } from "../params/parse.js";
import { DEFAULT_SEARCH_LIMIT, MAX_IDS, MAX_QUERY_LENGTH } from "../search/request.js";
import type { CollectionSuggestion, Suggestion, SuggestionImage, VariantSuggestion } from "../search/suggestion.js";
import type { Address, Customer, Metafield, ProductImage, ProductOption } from "../types.js";
import {
  anyValue,
  array,
  boolean,
  integer,
  literal,
  nullable,
  number,
  object,
  objectIgnoringOthers,
  optional,
  record,
  SchemaComponents,
  string,
  union,
  type Fields,
} from "./schema.js";
import type { Source, SourceParameter } from "./sources.js";

export const components = new SchemaComponents();

// Field types the spec repeats.
const id = (description?: string) => integer({ minimum: 1, ...(description ? { description } : {}) });
const timestamp = (description = "Timestamp with a UTC offset, ISO 8601 style.") =>
  string({
    pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?[+-]\\d{2}:\\d{2}$",
    description,
    examples: ["2026-05-01T10:00:00-04:00"],
  });
const money = (description: string) => string({ pattern: "^-?\\d+\\.\\d{2}$", description, examples: ["29.95"] });
const gid = (kind: string) =>
  string({
    pattern: `^gid://[a-z]+/${kind}/\\d+$`,
    description: `Shape gid://<platform>/${kind}/<id>.`,
    examples: [`gid://platform/${kind}/1`],
  });

/** Present only when a metafield parameter asks for them. */
const requestedMetafields = () => optional(array(METAFIELD, { description: "Present only when metafields are requested." }));

export const METAFIELD = components.add(
  "Metafield",
  object<Metafield>(
    {
      id: id(),
      namespace: string(),
      key: string(),
      value: string({ description: "The value as text (JSON values as their JSON text)." }),
      type: string({ examples: ["single_line_text_field"] }),
      owner_id: id(),
      owner_resource: literal(["product", "variant"]),
      created_at: timestamp(),
      updated_at: timestamp(),
      admin_graphql_api_id: gid("Metafield"),
    },
    { description: "A product or variant metafield, returned when a metafield parameter selects it." },
  ),
);

const variantFields: Fields<FullVariantJson> = {
  id: id(),
  product_id: id("The owning product."),
  title: string(),
  price: money("Decimal amount with two places, in the market's currency when country_code selects one."),
  compare_at_price: nullable(money("Decimal amount with two places.")),
  sku: string(),
  position: integer({ minimum: 1, description: "1-based." }),
  inventory_policy: string({ description: "deny or continue (sells when out of stock)." }),
  fulfillment_service: string(),
  inventory_management: nullable(string({ description: "The managing service's name; null when inventory is not tracked." })),
  option1: nullable(string()),
  option2: nullable(string()),
  option3: nullable(string()),
  created_at: timestamp(),
  updated_at: timestamp(),
  taxable: boolean(),
  barcode: string(),
  grams: integer({ minimum: 0 }),
  image_id: nullable(id()),
  weight: number(),
  weight_unit: string({ examples: ["lb"] }),
  inventory_item_id: id(),
  inventory_quantity: integer({ description: "May be negative or zero." }),
  old_inventory_quantity: integer(),
  requires_shipping: boolean(),
  admin_graphql_api_id: gid("ProductVariant"),
  selling_plan_allocations: optional(
    array(anyValue(), { description: "Only with selling_plans=yes on static; kept as the platform sent them." }),
  ),
  metafields: requestedMetafields(),
};
export const VARIANT = components.add("Variant", object<FullVariantJson>(variantFields));

export const OPTION = components.add(
  "Option",
  object<ProductOption>({ id: id(), product_id: id(), name: string(), position: integer({ minimum: 1 }), values: array(string()) }),
);

export const IMAGE = components.add(
  "Image",
  object<ProductImage>({
    id: id(),
    product_id: id(),
    position: integer({ minimum: 1 }),
    created_at: timestamp(),
    updated_at: timestamp(),
    alt: nullable(string()),
    width: integer({ minimum: 0, description: "Pixels." }),
    height: integer({ minimum: 0, description: "Pixels." }),
    src: string({ description: "Image address." }),
    variant_ids: array(id(), { description: "Variants that use the image." }),
    admin_graphql_api_id: gid("ProductImage"),
  }),
);

const productFields: Fields<FullProductJson> = {
  id: id(),
  title: string(),
  body_html: string({ description: "HTML description." }),
  vendor: string(),
  product_type: string({ description: "May be an empty string." }),
  handle: string({ description: "URL handle." }),
  status: string({ description: "active, draft or archived." }),
  tags: string({ description: "Comma-separated tag list (one string)." }),
  created_at: timestamp(),
  updated_at: timestamp(),
  published_at: nullable(timestamp("Null when unpublished.")),
  template_suffix: nullable(string()),
  published_scope: string({ examples: ["web"] }),
  admin_graphql_api_id: gid("Product"),
  variants: array(VARIANT),
  options: array(OPTION),
  images: array(IMAGE),
  image: nullable(IMAGE, { description: "The primary image." }),
  metafields: requestedMetafields(),
};
export const PRODUCT = components.add(
  "Product",
  object<FullProductJson>(productFields, { description: "A product with every field the spec shows (static, viewed, viewed-related)." }),
);

export const REDUCED_VARIANT = components.add(
  "ReducedVariant",
  object<ReducedVariantJson>({
    id: variantFields.id,
    product_id: variantFields.product_id,
    title: variantFields.title,
    price: variantFields.price,
    sku: variantFields.sku,
    compare_at_price: variantFields.compare_at_price,
    inventory_quantity: variantFields.inventory_quantity,
    option1: variantFields.option1,
    metafields: requestedMetafields(),
  }),
);
const REDUCED_OPTION = components.add("ReducedOption", object<ReducedOptionJson>({ id: id(), name: string(), values: array(string()) }));
const REDUCED_IMAGE = components.add(
  "ReducedImage",
  object<ReducedImageJson>({
    id: id(),
    src: string({ description: "Image address." }),
    width: integer({ minimum: 0 }),
    height: integer({ minimum: 0 }),
  }),
);
const REDUCED_PRIMARY_IMAGE = components.add(
  "ReducedPrimaryImage",
  object<ReducedPrimaryImageJson>({ id: id(), src: string({ description: "Image address." }) }),
);

export const REDUCED_PRODUCT = components.add(
  "ReducedProduct",
  object<ReducedProductJson>(
    {
      id: productFields.id,
      title: productFields.title,
      body_html: productFields.body_html,
      vendor: productFields.vendor,
      product_type: productFields.product_type,
      handle: productFields.handle,
      status: productFields.status,
      tags: productFields.tags,
      variants: array(REDUCED_VARIANT),
      options: array(REDUCED_OPTION),
      images: array(REDUCED_IMAGE),
      image: nullable(REDUCED_PRIMARY_IMAGE, { description: "The primary image." }),
      metafields: requestedMetafields(),
    },
    { description: "The subset of product fields trending, top sellers, recommended and similar products answer with." },
  ),
);

export type PurchasedProductJson = FullProductJson & { metadata: { purchased_quantity: string } };

export const PURCHASED_PRODUCT = components.add(
  "PurchasedProduct",
  object<PurchasedProductJson>(
    {
      ...productFields,
      metadata: object<PurchasedProductJson["metadata"]>({
        purchased_quantity: string({
          pattern: "^\\d+$",
          description: "Units of the product the customer bought, over orders not cancelled.",
        }),
      }),
    },
    { description: "A product the customer bought, with how many." },
  ),
);

export const ADDRESS = components.add(
  "Address",
  object<Address>({
    id: id(),
    customer_id: id(),
    first_name: string(),
    last_name: string(),
    company: nullable(string()),
    address1: string(),
    address2: string(),
    city: string(),
    province: string(),
    country: string(),
    zip: string(),
    phone: nullable(string()),
    name: string(),
    province_code: string(),
    country_code: string({ description: "ISO 3166-1 alpha-2." }),
    country_name: string(),
    default: boolean(),
  }),
);

export const CUSTOMER = components.add(
  "Customer",
  object<Customer>({
    id: id(),
    email: string(),
    accepts_marketing: boolean(),
    created_at: timestamp(),
    updated_at: timestamp(),
    accepts_marketing_updated_at: timestamp(),
    first_name: string(),
    last_name: string(),
    orders_count: integer({ minimum: 0, description: "Orders not cancelled." }),
    state: string(),
    total_spent: money("Decimal amount over orders not cancelled."),
    last_order_id: nullable(id()),
    last_order_name: nullable(string()),
    note: nullable(string()),
    verified_email: boolean(),
    multipass_identifier: nullable(string()),
    tax_exempt: boolean(),
    phone: nullable(string()),
    tags: string(),
    currency: string({ description: "Currency code." }),
    marketing_opt_in_level: nullable(string()),
    tax_exemptions: array(string()),
    admin_graphql_api_id: gid("Customer"),
    addresses: array(ADDRESS),
    default_address: nullable(ADDRESS),
  }),
);

/** What recommended and similar products add to their answer. */
export interface CacheInfoJson {
  cache_info: { cache_key: string; cached_at_time: string };
}

const CACHE_INFO = components.add(
  "CacheInfo",
  object<CacheInfoJson>({
    cache_info: object<CacheInfoJson["cache_info"]>({
      cache_key: string({ description: "Opaque and stable for the same request on the same data." }),
      cached_at_time: string({
        description: "When the answer was computed (a timestamp), or never for an answer computed for this request.",
      }),
    }),
  }),
);

export interface ProductListJson<P> {
  data: P[];
}

export const PRODUCT_LIST = components.add("ProductList", object<ProductListJson<FullProductJson>>({ data: array(PRODUCT) }));
export const REDUCED_PRODUCT_LIST = components.add(
  "ReducedProductList",
  object<ProductListJson<ReducedProductJson>>({ data: array(REDUCED_PRODUCT) }),
);
export const RECOMMENDED_PRODUCT_LIST = components.add(
  "RecommendedProductList",
  object<ProductListJson<ReducedProductJson> & { metadata: CacheInfoJson }>({ data: array(REDUCED_PRODUCT), metadata: CACHE_INFO }),
);
export const PURCHASED_PRODUCT_LIST = components.add(
  "PurchasedProductList",
  object<ProductListJson<PurchasedProductJson> & { metadata: { platform_customer: Customer | null } }>({
    data: array(PURCHASED_PRODUCT),
    metadata: object<{ platform_customer: Customer | null }>({
      platform_customer: nullable(CUSTOMER, { description: "The customer; null when the shop does not know it." }),
    }),
  }),
);

/** What a custom source adds to its answer. */
export interface RuleMetadataJson {
  rules_matched: number[];
  sources: Record<string, number | string>;
  warnings?: string[];
}

export const RULE_METADATA = components.add(
  "RuleMetadata",
  object<RuleMetadataJson>({
    rules_matched: array(integer({ minimum: 0 }), {
      description: "Indexes (from 0) of the rules whose conditions held, top to bottom, up to the first matched exit_if_matched.",
    }),
    sources: record(union(integer({ minimum: 0 }), string()), {
      description: "Per product id shown: the index of the rule that returned or pinned it, or the name of the built-in fallback source.",
    }),
    warnings: optional(
      array(string(), {
        description: "Products and collections the rules name that the shop does not have, each with its place in the source.",
        examples: [["rules[1].return.product_ids[0]: no product 7100000099999"]],
      }),
    ),
  }),
);

export const CUSTOM_PRODUCT_LIST = components.add(
  "CustomProductList",
  object<ProductListJson<FullProductJson> & { metadata: RuleMetadataJson }>({ data: array(PRODUCT), metadata: RULE_METADATA }),
);

/** What the event endpoint answers once an event is stored. */
export const EVENT_RECORDED: { data: string } = { data: "Event recorded" };

export const EVENT_RECEIPT = components.add(
  "EventReceipt",
  object<{ data: string }>({ data: string({ description: "Confirms the event is stored.", examples: ["Event recorded"] }) }),
);

const SOURCE_PARAMETER = components.add(
  "SourceParameter",
  object<SourceParameter>({
    name: string(),
    required: boolean(),
    default: nullable(string()),
    description: string(),
    example: string(),
  }),
);

export const SOURCE = components.add(
  "Source",
  object<Source>({
    id: string({ description: "The endpoint path." }),
    name: string({ description: "Display name." }),
    description: string(),
    protocol: literal(["http", "https"]),
    host: string({ description: "Host (and port) of the service." }),
    path: string(),
    query: array(SOURCE_PARAMETER),
  }),
);

export const SOURCE_LIST = components.add("SourceList", object<{ data: Source[] }>({ data: array(SOURCE) }));

const SUGGESTION_IMAGE = components.add("SuggestionImage", object<SuggestionImage>({ alt: string(), url: string() }));

const variantSuggestionFields: Fields<VariantSuggestion> = {
  id: string({ pattern: "^\\d+$" }),
  name: string(),
  url: string({ description: "Storefront address." }),
  price: number({ description: "In the market's currency." }),
  compareAtPrice: number({ description: "0 when there is none." }),
  images: array(SUGGESTION_IMAGE),
  canPurchase: boolean(),
};
const VARIANT_SUGGESTION = components.add("VariantSuggestion", object<VariantSuggestion>(variantSuggestionFields));

export const SUGGESTION = components.add(
  "Suggestion",
  object<Suggestion>({
    ...variantSuggestionFields,
    url: string({ description: "Storefront address of the product." }),
    price: number({ description: "Of the cheapest variant that can be bought (of all when none can)." }),
    variants: array(VARIANT_SUGGESTION),
    ratings: object<Suggestion["ratings"]>({
      average: number({ description: "From the product metafield reviews.rating; 0 when absent." }),
      count: integer({ minimum: 0, description: "From reviews.rating_count; 0 when absent." }),
    }),
  }),
);

const COLLECTION_SUGGESTION = components.add(
  "CollectionSuggestion",
  object<CollectionSuggestion>({ id: string({ pattern: "^\\d+$" }), title: string(), handle: string(), url: string() }),
);

export interface QuickViewAnswer {
  successful: boolean;
  data: { productSuggestions: Suggestion[]; collections: CollectionSuggestion[]; query: string; redirect?: string };
  status: number;
  errorMessage: string | null;
}

export const QUICK_VIEW_RESULT = components.add(
  "QuickViewResult",
  object<QuickViewAnswer>({
    successful: boolean(),
    data: object<QuickViewAnswer["data"]>({
      productSuggestions: array(SUGGESTION),
      collections: array(COLLECTION_SUGGESTION, {
        description: "Up to 5 collections whose titles contain every query word as a word prefix.",
      }),
      query: string({ description: "The query exactly as sent: a client drops answers to older keystrokes by it." }),
      redirect: optional(
        string({
          description:
            "Where the merchant sends this query (a keyword group's redirect: an http(s) address or a storefront path): a search box may jump there. Absent when no matched group has one.",
        }),
      ),
    }),
    status: integer({ description: "Mirrors the HTTP status." }),
    errorMessage: nullable(string({ description: "null on success." })),
  }),
);

/** A quick-view search as a client sends it. */
export interface QuickViewRequestBody {
  query?: string;
  limit?: number | string;
  country_code?: string;
  filters?: { collections?: (number | string)[]; hideOutOfStock?: boolean };
  exclude?: { productIds?: (number | string)[]; collections?: { collectionId: number | string; hideProducts?: boolean }[] };
}

/** Ids travel as numbers or as strings of digits. */
const idValue = () => union(integer({ minimum: 1 }), string({ pattern: "^[1-9]\\d{0,15}$" }));
const idValues = () => array(idValue(), { maxItems: MAX_IDS });

/** Held to the limits of quick-view's own parser (src/core/search/request.ts). */
export const QUICK_VIEW_REQUEST = components.add(
  "QuickViewRequest",
  objectIgnoringOthers<QuickViewRequestBody>(
    {
      query: optional(
        string({
          maxLength: MAX_QUERY_LENGTH,
          description: "The search text; required here unless sent as the query parameter query. An empty string answers no suggestions.",
          examples: ["ember lant"],
        }),
      ),
      limit: optional(
        union(integer({ minimum: 1, maximum: MAX_LIMIT }), string({ pattern: "^\\d{1,4}$" }), {
          description: `Maximum number of product suggestions, 1 to ${MAX_LIMIT} (default ${DEFAULT_SEARCH_LIMIT}).`,
        }),
      ),
      country_code: optional(string({ pattern: "^[A-Za-z]{2}$", description: "Market prices and catalogue, as on the product lists." })),
      filters: optional(
        objectIgnoringOthers<NonNullable<QuickViewRequestBody["filters"]>>({
          collections: optional(idValues()),
          hideOutOfStock: optional(boolean({ description: "Never show out-of-stock products (default: after every available one)." })),
        }),
      ),
      exclude: optional(
        objectIgnoringOthers<NonNullable<QuickViewRequestBody["exclude"]>>({
          productIds: optional(idValues()),
          collections: optional(
            array(
              objectIgnoringOthers<{ collectionId: number | string; hideProducts?: boolean }>({
                collectionId: idValue(),
                hideProducts: optional(boolean({ description: "Leave the collection's products out too." })),
              }),
              { maxItems: MAX_IDS },
            ),
          ),
        }),
      ),
    },
    { description: "A quick-view search. Unknown fields are ignored." },
  ),
);

// Errors: the spec shows no single envelope.

export const ERROR_MESSAGE = components.add(
  "ErrorMessage",
  object<{ error: string }>({ error: string({ examples: ["Invalid key"] }) }, { description: "A client error with its message." }),
);

export const EMPTY_ERROR = components.add(
  "EmptyError",
  object<Record<string, never>>({}, { description: "The spec's empty error object; the message is in the X-Aisle-Error header." }),
);

export interface DeprecatedEndpointJson {
  successful: false;
  message: string;
  data: { message: string }[];
}

export const DEPRECATED_ENDPOINT = components.add(
  "DeprecatedEndpoint",
  object<DeprecatedEndpointJson>({
    successful: literal([false]),
    message: string({ examples: ["deprecated"] }),
    data: array(object<{ message: string }>({ message: string({ examples: ["This endpoint is deprecated"] }) })),
  }),
);

/** The deprecated quick-view settings endpoint's one answer (404). */
export const QUICK_VIEW_SETTINGS_GONE: DeprecatedEndpointJson = {
  successful: false,
  message: "deprecated",
  data: [{ message: "This endpoint is deprecated" }],
};
