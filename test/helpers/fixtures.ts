// Small admin-REST objects for tests, with just enough variety to exercise the rules.
import { formatTimestamp } from "../../src/core/timestamps.js";

export interface VariantSpec {
  id: number;
  price?: string;
  compare_at_price?: string | null;
  sku?: string;
  barcode?: string;
  inventory_quantity?: number;
  inventory_policy?: "deny" | "continue";
  inventory_management?: string | null;
  option1?: string;
  metafields?: unknown[];
  selling_plan_allocations?: unknown[];
}

export function variant(spec: VariantSpec): Record<string, unknown> {
  return {
    title: spec.option1 ?? "Default Title",
    price: "10.00",
    sku: `SKU-${spec.id}`,
    inventory_quantity: 5,
    inventory_policy: "deny",
    inventory_management: "platform",
    option1: spec.option1 ?? "Default Title",
    ...spec,
  };
}

export function product(id: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    title: `Product ${id}`,
    body_html: `<p>Product ${id}</p>`,
    vendor: "Acme",
    product_type: "Mug",
    handle: `product-${id}`,
    tags: "ceramic, kitchen",
    created_at: "2026-01-02T10:00:00-05:00",
    updated_at: "2026-01-03T10:00:00-05:00",
    published_at: "2026-01-02T10:00:00-05:00",
    variants: [variant({ id: id * 10 + 1 })],
    options: [{ id: id * 10, name: "Title", position: 1, values: ["Default Title"] }],
    images: [{ id: id * 100, src: `https://cdn.example.com/${id}.jpg`, width: 800, height: 600, alt: null }],
    ...overrides,
  };
}

/**
 * The fields a product in the spec's format starts with, in the spec's order:
 * the full product and the reduced one of the sales lists both open with them.
 */
export const PRODUCT_LEADING_FIELDS = ["id", "title", "body_html", "vendor", "product_type", "handle", "status", "tags"];

/** An order placed a day ago of `quantity` (one) each of `productIds`, by the variant product() gives each of them. */
export function basketOrder(id: number, productIds: number[], quantity = 1): Record<string, unknown> {
  return {
    id,
    created_at: formatTimestamp(new Date(Date.now() - 86_400_000)),
    customer: null,
    line_items: productIds.map((productId) => ({ product_id: productId, variant_id: productId * 10 + 1, quantity, price: "10.00" })),
    cancelled_at: null,
  };
}
