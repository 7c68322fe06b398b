// Every query parameter the service understands, described once. The HTTP layer
// validates with these definitions and /api/v1/sources and /openapi.json are
// generated from them, so the documentation cannot drift from the behaviour.

/** The value each kind of parameter parses to. */
export interface KindValues {
  api_key: string;
  id_list: number[];
  handle_list: string[];
  id: number;
  limit: number;
  /** Allowed values yes / no. */
  flag: boolean;
  pretty: boolean;
  ns_key_list: string[];
  ns_list: string[];
  country_code: string;
  /** In cents. */
  decimal: number;
  days: number;
  uuid: string;
  email: string;
  handle: string;
  text: string;
  /** Whole numbers from 1, kept in order with repeats (they line up with another list). */
  quantity_list: number[];
  /** A cart as JSON: its lines. */
  cart: CartLine[];
}

/** One line of a shopper's cart: a product, a variant of it, or both. */
export interface CartLine {
  product_id: number | null;
  variant_id: number | null;
  quantity: number;
}

export type ParamKind = keyof KindValues;

/** A parameter; `N` and `K` keep its name and kind as types, so parsed parameters are typed per endpoint. */
export interface ParamDef<N extends string = string, K extends ParamKind = ParamKind> {
  name: N;
  kind: K;
  /** For text parameters with a closed set of values. */
  allowed?: readonly string[];
  required: boolean;
  /** Default as the spec states it, in string form; null when there is none. */
  default: string | null;
  description: string;
  example: string;
  /** Older spellings still accepted (deprecated); the name wins when both are sent. */
  aliases?: readonly string[];
}

/** An optional parameter without a default; a definition that differs spreads it and overrides (`{ ...param(…), required: true }`). */
function param<const N extends string, const K extends ParamKind>(name: N, kind: K, description: string, example: string) {
  return { name, kind, required: false, default: null, description, example } as const;
}

export const P = {
  key: { ...param("key", "api_key", "Public API key of the merchant.", "<API_KEY>"), required: true },
  platform_product_ids: param("platform_product_ids", "id_list", "Comma-separated product ids.", "7100000000001,7100000000002"),
  ids: param(
    "ids",
    "id_list",
    "Comma-separated product ids to return, in this order. When omitted, platform_product_ids is used instead.",
    "7100000000001,7100000000002",
  ),
  handles: param(
    "handles",
    "handle_list",
    "Comma-separated product handles to return. When omitted, platform_product_ids is used instead.",
    "merino-trail-hoodie,canvas-camp-mug",
  ),
  platform_collection_id: param("platform_collection_id", "id", "Products of this collection are returned.", "9100000000001"),
  excluded_ids: param("excluded_ids", "id_list", "Comma-separated product ids left out of the result.", "7100000000003"),
  metafields: param("metafields", "flag", "yes: products are returned with a metafields property.", "yes"),
  variant_metafields: param("variant_metafields", "flag", "yes: variants are returned with a metafields property.", "yes"),
  metafield_ns_key: param(
    "metafield_ns_key",
    "ns_key_list",
    "Comma-separated product metafields of the form namespace.key to return.",
    "reviews.rating,reviews.rating_count",
  ),
  variant_metafield_ns_key: param(
    "variant_metafield_ns_key",
    "ns_key_list",
    "Comma-separated variant metafields of the form namespace.key to return.",
    "custom.fabric_weight",
  ),
  metafield_ns: param(
    "metafield_ns",
    "ns_list",
    "Comma-separated product metafield namespaces; all metafields in them are returned.",
    "reviews",
  ),
  variant_metafield_ns: param(
    "variant_metafield_ns",
    "ns_list",
    "Comma-separated variant metafield namespaces; all metafields in them are returned.",
    "custom",
  ),
  bust_cache: param("bust_cache", "flag", "yes: the cached response is discarded and a new one is computed.", "yes"),
  limit: { ...param("limit", "limit", "Maximum number of products returned (1 to 50).", "5"), default: "5" },
  format: param("format", "pretty", "pretty: human-readable response formatting.", "pretty"),
  filter_oos: {
    ...param(
      "filter_oos",
      "flag",
      "Out-of-stock products are excluded; set to no to include them. A product is in stock when any variant has stock, allows overselling or is not inventory-managed.",
      "no",
    ),
    default: "yes",
  },
  filter_unpublished: param("filter_unpublished", "flag", "yes: unpublished products are excluded.", "yes"),
  selling_plans: param("selling_plans", "flag", "yes: variants get a selling_plan_allocations property.", "yes"),
  country_code: {
    ...param(
      "country_code",
      "country_code",
      "ISO 3166-1 alpha-2 code of a market region. Variant prices come from the first active market that contains the country and only products in its catalogue are returned. A code no active market contains returns the shop's default prices and catalogue. Also accepted as presentment_prices, its deprecated spelling.",
      "CA",
    ),
    aliases: ["presentment_prices"],
  },
  platform_variant_ids: param(
    "platform_variant_ids",
    "id_list",
    "Comma-separated variant ids; their products are the input.",
    "41000000000011",
  ),
  context: {
    ...param(
      "context",
      "text",
      "default: products bought together with the inputs. similar (alias similar_products): products most like the inputs, from the shop's embedding model (as /api/v1/products/similar_products); until that model is trained for the shop, products most like the inputs by their text. Other values fall back to default.",
      "default",
    ),
    default: "default",
  },
  platform_customer_id: param("platform_customer_id", "id", "Id of a known customer of the shop.", "6100000000001"),
  uuid: param(
    "uuid",
    "uuid",
    "Session id created and kept by the storefront (UUID format); the same one the events were sent with.",
    "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e",
  ),
  subject: { ...param("subject", "text", "Event subject.", "user"), allowed: ["user"], default: "user" },
  verb: { ...param("verb", "text", "Event action.", "viewed"), allowed: ["viewed", "added", "removed"], default: "viewed" },
  noun: { ...param("noun", "text", "Event object.", "product"), allowed: ["product"], default: "product" },
  platform_product_handle: {
    ...param(
      "platform_product_handle",
      "handle",
      "Handle of the product the event is about; required when noun is product.",
      "merino-trail-hoodie",
    ),
    required: true,
  },
  subject_email: param("subject_email", "email", "Email of the subject; links the event to a known customer.", "ada@example.com"),
  theme_id: param("theme_id", "text", "Theme the event came from.", "128374619"),
  window_days: { ...param("window_days", "days", "Trailing window of sales, in days (1 to 365).", "30"), default: "90" },
  any_variant_price_less_than: param(
    "any_variant_price_less_than",
    "decimal",
    "Only products with a variant priced at or below this amount (less than or equal, as the spec defines it).",
    "50.00",
  ),
  any_variant_price_less_than_or_equal_to: param(
    "any_variant_price_less_than_or_equal_to",
    "decimal",
    "Only products with a variant priced at or below this amount.",
    "50.00",
  ),
  any_variant_price_equal_to: param(
    "any_variant_price_equal_to",
    "decimal",
    "Only products with a variant at exactly this price.",
    "19.99",
  ),
  variant_price_greater_than: param(
    "variant_price_greater_than",
    "decimal",
    "Only products with a variant priced above this amount.",
    "10.00",
  ),
  variant_price_greater_than_or_equal_to: param(
    "variant_price_greater_than_or_equal_to",
    "decimal",
    "Only products with a variant priced at or above this amount.",
    "10.00",
  ),
  unset_variants: param(
    "unset_variants",
    "flag",
    "yes: variants that fail the price conditions are removed from each returned product.",
    "yes",
  ),
  cart_product_ids: param("cart_product_ids", "id_list", "Comma-separated ids of the products in the shopper's cart.", "7100000000001"),
  cart_variant_ids: param("cart_variant_ids", "id_list", "Comma-separated ids of the variants in the shopper's cart.", "41000000000011"),
  cart_quantities: param(
    "cart_quantities",
    "quantity_list",
    "Comma-separated quantity of each cart line, in the order of cart_variant_ids (of cart_product_ids when no variant ids are given); 1 each when left out.",
    "2",
  ),
  cart: param(
    "cart",
    "cart",
    'The cart as one JSON parameter, in the shape of the storefront\'s cart: {"items": [{"product_id", "variant_id", "quantity"}]} (each line needs a product_id or a variant_id); replaces cart_product_ids, cart_variant_ids and cart_quantities.',
    '{"items":[{"variant_id":41000000000011,"quantity":2}]}',
  ),
} as const satisfies Record<string, ParamDef>;

/**
 * The price conditions. Together they describe one range: a product matches
 * when at least one variant satisfies all the given conditions.
 */
export const PRICE_FILTER_PARAMS = [
  P.any_variant_price_less_than,
  P.any_variant_price_less_than_or_equal_to,
  P.any_variant_price_equal_to,
  P.variant_price_greater_than,
  P.variant_price_greater_than_or_equal_to,
  P.unset_variants,
] as const;

/** Which metafields, of products and of variants, an answer carries: by namespace and key, or whole namespaces; in spec order. */
export const METAFIELD_SELECTION_PARAMS = [P.metafield_ns_key, P.variant_metafield_ns_key, P.metafield_ns, P.variant_metafield_ns] as const;

/** Every metafield parameter, in spec order: whether products and variants carry metafields, then which. */
export const METAFIELD_PARAMS = [P.metafields, P.variant_metafields, ...METAFIELD_SELECTION_PARAMS] as const;
