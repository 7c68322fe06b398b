// The demo shop's records, as it posts them to the admin API. Most are the
// stored records of src/core/types.ts without the fields ingest fills in
// (parent ids, graphql ids, defaults), so they are derived from those types;
// a demo type of its own is kept only where the posted shape differs.

import type {
  Address,
  BehaviourEvent,
  Collection,
  Customer,
  Market,
  Merchant,
  Metafield,
  Order,
  OrderLine,
  Product,
  ProductImage,
  ProductOption,
  Variant,
  VariantPrice,
} from "../core/types.js";

export interface DemoOptions {
  /** PRNG seed (default 42); fractions are floored, any finite number works. */
  seed?: number;
  /** Catalogue size (default 3000). */
  products?: number;
  /** Customer accounts (default 2000); orders scale with it, ~0.075 per customer per day. */
  customers?: number;
  /** Length of the order/session window ending at `now` (default 90). */
  days?: number;
  /** End of the window (default: the current time). Pass it for reproducible output. */
  now?: Date;
  /** Browsing sessions; default 10 per customer (20,000 at the default size). */
  sessions?: number;
}

/** Posted inline with its product or variant, so the owner fields and timestamps come from ingest. */
export type DemoMetafield = Pick<Metafield, "id" | "namespace" | "key" | "value" | "type">;

/** Carries its metafields inline; the store keeps them apart, keyed by the variant ingest links them to. */
export interface DemoVariant extends Omit<
  Variant,
  | "product_id"
  | "fulfillment_service"
  | "inventory_item_id"
  | "old_inventory_quantity"
  | "admin_graphql_api_id"
  | "selling_plan_allocations"
> {
  metafields: DemoMetafield[];
}

export type DemoOption = Omit<ProductOption, "product_id">;

export type DemoImage = Omit<ProductImage, "product_id" | "admin_graphql_api_id">;

/** Nests the demo's own variants, options and images, and carries its metafields inline (the store keeps them apart). */
export interface DemoProduct extends Omit<Product, "admin_graphql_api_id" | "variants" | "options" | "images" | "image"> {
  variants: DemoVariant[];
  options: DemoOption[];
  images: DemoImage[];
  metafields: DemoMetafield[];
}

export type DemoCollection = Collection;

export type DemoAddress = Omit<Address, "customer_id" | "name">;

export interface DemoCustomer extends Omit<
  Customer,
  | "accepts_marketing_updated_at"
  | "orders_count"
  | "total_spent"
  | "last_order_id"
  | "last_order_name"
  | "multipass_identifier"
  | "marketing_opt_in_level"
  | "tax_exemptions"
  | "admin_graphql_api_id"
  | "addresses"
  | "default_address"
> {
  addresses: DemoAddress[];
}

export type DemoOrderLine = OrderLine;

/** The admin API names an order's customer as an object (`customer: { id }`); ingest stores just its id. */
export interface DemoOrder extends Omit<Order, "customer_id"> {
  customer: { id: number } | null;
}

export type DemoVariantPrice = VariantPrice;

export type DemoMarket = Market;

export interface DemoData {
  merchant: Pick<Merchant, "id" | "name" | "domain" | "currency">;
  products: DemoProduct[];
  collections: DemoCollection[];
  customers: DemoCustomer[];
  orders: DemoOrder[];
  markets: DemoMarket[];
  events: BehaviourEvent[];
}

/**
 * The latent structure the demo was generated from, by product id. Not part of
 * the shop; tests and evals use it to check that recommenders recover it.
 */
export interface DemoTruth {
  /** Groups of complementary products (same style, complementary types). */
  bundles: number[][];
  /** Products whose sales and views ramp up sharply over the last 14 days. */
  rising: number[];
}

/**
 * The demo shop with its two big lists generated on demand: everything but the
 * orders and events as arrays, those two as iterables that generate their
 * records as they are read. A consumer can import a shop whose orders and events
 * would not fit in the heap, holding only the catalogue, the customers and a
 * day or so of events at a time.
 */
export interface DemoStream extends Omit<DemoData, "orders" | "events"> {
  /** The same orders, in the same order, as generateDemo's `orders`. */
  orders: Iterable<DemoOrder>;
  /** The same events, in the same (time) order, as generateDemo's `events`. */
  events: Iterable<BehaviourEvent>;
  truth: DemoTruth;
}
