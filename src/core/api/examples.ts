// Examples for /openapi.json, rendered from one example product by the
// serializers the endpoints run, so each example is what an endpoint writes.
import { projectProduct } from "../products/projection.js";
import { toCollectionSuggestion, toSuggestion } from "../search/suggestion.js";
import type { Customer, Metafield, Product } from "../types.js";
import { EVENT_RECORDED, QUICK_VIEW_SETTINGS_GONE } from "./answers.js";
import type { AnswerDef, EndpointDef } from "./endpoints.js";
import { listSources } from "./sources.js";

const CREATED = "2026-03-02T09:30:00-05:00";
const UPDATED = "2026-05-14T16:12:45-04:00";
const DOMAIN = "shop.example.com";

const PRODUCT: Product = {
  id: 7100000015666,
  title: "Ember Copper LED Lantern",
  body_html: "<p>The Ember Copper LED Lantern is modern lines with a warm glow.</p>",
  vendor: "Northwind Outfitters",
  product_type: "Lantern",
  handle: "ember-copper-led-lantern",
  status: "active",
  tags: "copper, all-season, warm, ember, bestseller",
  created_at: CREATED,
  updated_at: UPDATED,
  published_at: CREATED,
  template_suffix: null,
  published_scope: "web",
  admin_graphql_api_id: "gid://platform/Product/7100000015666",
  variants: [
    {
      id: 41000000000804,
      product_id: 7100000015666,
      title: "Copper",
      price: "39.00",
      compare_at_price: "49.00",
      sku: "LAN-000412-COP",
      position: 1,
      inventory_policy: "deny",
      fulfillment_service: "manual",
      inventory_management: "platform",
      option1: "Copper",
      option2: null,
      option3: null,
      created_at: CREATED,
      updated_at: UPDATED,
      taxable: true,
      barcode: "840012340412",
      grams: 680,
      image_id: 52000000001201,
      weight: 1.5,
      weight_unit: "lb",
      inventory_item_id: 41000000000804,
      inventory_quantity: 14,
      old_inventory_quantity: 14,
      requires_shipping: true,
      admin_graphql_api_id: "gid://platform/ProductVariant/41000000000804",
      selling_plan_allocations: [],
    },
  ],
  options: [{ id: 71000000156661, product_id: 7100000015666, name: "Color", position: 1, values: ["Copper"] }],
  images: [
    {
      id: 52000000001201,
      product_id: 7100000015666,
      position: 1,
      created_at: CREATED,
      updated_at: UPDATED,
      alt: "Ember Copper LED Lantern in Copper",
      width: 800,
      height: 1000,
      src: "https://cdn.example.com/products/ember-copper-led-lantern-1.jpg",
      variant_ids: [41000000000804],
      admin_graphql_api_id: "gid://platform/ProductImage/52000000001201",
    },
  ],
  image: null,
};
PRODUCT.image = PRODUCT.images[0]!;

const REVIEWS: Metafield[] = [
  { key: "rating", value: '{"value":"4.6","scale_min":"1.0","scale_max":"5.0"}', type: "rating" },
  { key: "rating_count", value: "212", type: "number_integer" },
].map((field, i) => ({
  id: 63000000000101 + i,
  namespace: "reviews",
  ...field,
  owner_id: PRODUCT.id,
  owner_resource: "product",
  created_at: CREATED,
  updated_at: UPDATED,
  admin_graphql_api_id: `gid://platform/Metafield/${63000000000101 + i}`,
}));

const ADDRESS = {
  id: 8100000000301,
  customer_id: 6100000000017,
  first_name: "Ada",
  last_name: "Lovelace",
  company: null,
  address1: "12 Harbor Street",
  address2: "",
  city: "Portland",
  province: "Oregon",
  country: "United States",
  zip: "97201",
  phone: null,
  name: "Ada Lovelace",
  province_code: "OR",
  country_code: "US",
  country_name: "United States",
  default: true,
};

const CUSTOMER: Customer = {
  id: 6100000000017,
  email: "ada@example.com",
  accepts_marketing: true,
  created_at: CREATED,
  updated_at: UPDATED,
  accepts_marketing_updated_at: CREATED,
  first_name: "Ada",
  last_name: "Lovelace",
  orders_count: 3,
  state: "enabled",
  total_spent: "117.00",
  last_order_id: 9100000004242,
  last_order_name: "#1042",
  note: null,
  verified_email: true,
  multipass_identifier: null,
  tax_exempt: false,
  phone: null,
  tags: "",
  currency: "USD",
  marketing_opt_in_level: "single_opt_in",
  tax_exemptions: [],
  admin_graphql_api_id: "gid://platform/Customer/6100000000017",
  addresses: [ADDRESS],
  default_address: ADDRESS,
};

const NO_METAFIELDS = { product: null, variant: null };
const rendered = (projection: "full" | "reduced") =>
  projectProduct(PRODUCT, { projection, metafields: NO_METAFIELDS, sellingPlans: false, loadMetafields: () => [] });

/** The query an example search sent, echoed in its answer. */
export const EXAMPLE_SEARCH_QUERY = "ember lant";

/** An example of what `answer` is on success; `endpoints` lists the service's sources. */
export function answerExample(answer: AnswerDef, endpoints: readonly EndpointDef[]): unknown {
  switch (answer.kind) {
    case "products": {
      const product = rendered(answer.projection);
      if (answer.purchases)
        return { data: [{ ...product, metadata: { purchased_quantity: "2" } }], metadata: { platform_customer: CUSTOMER } };
      const cacheInfo = { cache_info: { cache_key: "kx0NfPzYUhB0tJ2mIyq7V1bq8Zb2Qm6d", cached_at_time: "never" } };
      return answer.cacheInfo ? { data: [product], metadata: cacheInfo } : { data: [product] };
    }
    case "event_receipt":
      return EVENT_RECORDED;
    case "sources":
      return {
        data: listSources(endpoints.filter((endpoint) => endpoint.isSource).slice(0, 1), { protocol: "https", host: "recs.example.com" }),
      };
    case "quick_view": {
      const collection = { id: 280000000003, title: "Ember Lighting", handle: "ember-lighting", product_ids: [PRODUCT.id] };
      return {
        successful: true,
        data: {
          productSuggestions: [toSuggestion(PRODUCT, DOMAIN, REVIEWS)],
          collections: [toCollectionSuggestion(collection, DOMAIN)],
          query: EXAMPLE_SEARCH_QUERY,
        },
        status: 200,
        errorMessage: null,
      };
    }
    case "deprecated_not_found":
      return QUICK_VIEW_SETTINGS_GONE;
  }
}
