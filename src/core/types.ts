// Domain records as aisle stores them: the platform's Admin REST shapes after
// ingest has validated them and filled every default, so readers never guess.
import type { RateLimits } from "./rate-limit.js";

export type MerchantId = string;

export interface Merchant {
  id: MerchantId;
  name: string;
  domain: string;
  currency: string;
  api_key: string;
  webhook_secret: string;
  created_at: string;
  /** This merchant's own request limits, where they differ from the service's (set through the admin API). */
  rate_limits?: Partial<RateLimits>;
}

export interface Metafield {
  id: number;
  namespace: string;
  key: string;
  value: string;
  type: string;
  owner_id: number;
  owner_resource: "product" | "variant";
  created_at: string;
  updated_at: string;
  admin_graphql_api_id: string;
}

export interface Variant {
  id: number;
  product_id: number;
  title: string;
  price: string;
  compare_at_price: string | null;
  sku: string;
  position: number;
  inventory_policy: string;
  fulfillment_service: string;
  inventory_management: string | null;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  created_at: string;
  updated_at: string;
  taxable: boolean;
  barcode: string;
  grams: number;
  image_id: number | null;
  weight: number;
  weight_unit: string;
  inventory_item_id: number;
  inventory_quantity: number;
  old_inventory_quantity: number;
  requires_shipping: boolean;
  admin_graphql_api_id: string;
  /** Kept as given by the platform; only shown with selling_plans=yes. */
  selling_plan_allocations: unknown[];
}

export interface ProductOption {
  id: number;
  product_id: number;
  name: string;
  position: number;
  values: string[];
}

export interface ProductImage {
  id: number;
  product_id: number;
  position: number;
  created_at: string;
  updated_at: string;
  alt: string | null;
  width: number;
  height: number;
  src: string;
  variant_ids: number[];
  admin_graphql_api_id: string;
}

/** A product as stored: every spec field except metafields, which live in their own db. */
export interface Product {
  id: number;
  title: string;
  body_html: string;
  vendor: string;
  product_type: string;
  handle: string;
  status: string;
  tags: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  template_suffix: string | null;
  published_scope: string;
  admin_graphql_api_id: string;
  variants: Variant[];
  options: ProductOption[];
  images: ProductImage[];
  image: ProductImage | null;
}

export interface Collection {
  id: number;
  title: string;
  handle: string;
  product_ids: number[];
}

/** What a collection shows of itself without its members. */
export type CollectionHeading = Pick<Collection, "id" | "title" | "handle">;

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
  country_code: string;
  country_name: string;
  default: boolean;
}

export interface Customer {
  id: number;
  email: string;
  accepts_marketing: boolean;
  created_at: string;
  updated_at: string;
  accepts_marketing_updated_at: string;
  first_name: string;
  last_name: string;
  orders_count: number;
  state: string;
  total_spent: string;
  last_order_id: number | null;
  last_order_name: string | null;
  note: string | null;
  verified_email: boolean;
  multipass_identifier: string | null;
  tax_exempt: boolean;
  phone: string | null;
  tags: string;
  currency: string;
  marketing_opt_in_level: string | null;
  tax_exemptions: string[];
  admin_graphql_api_id: string;
  addresses: Address[];
  default_address: Address | null;
}

export interface OrderLine {
  product_id: number;
  variant_id: number | null;
  quantity: number;
  price: string;
}

export interface Order {
  id: number;
  /** The platform's order name ("#1001"); absent when it sent none (and on orders stored before names were kept). */
  name?: string;
  created_at: string;
  customer_id: number | null;
  line_items: OrderLine[];
  cancelled_at: string | null;
}

export interface VariantPrice {
  price: string;
  compare_at_price: string | null;
}

/** A market as the admin API takes it: its settings and its variant price list. */
export interface Market {
  id: number;
  name: string;
  active: boolean;
  countries: string[];
  currency: string;
  /** null: the whole catalogue is sold in this market. */
  product_ids: number[] | null;
  variant_prices: Record<string, VariantPrice>;
}

/** A behaviour event as stored (subject-verb-noun with the product resolved). */
export interface BehaviourEvent {
  at: number;
  uuid: string | null;
  customer_id: number | null;
  verb: "viewed" | "added" | "removed";
  product_id: number;
  theme_id: string | null;
}

/** A market as stored: its price list lives apart, one entry per variant, read only for what is shown. */
export type MarketSettings = Omit<Market, "variant_prices">;
