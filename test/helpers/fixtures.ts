// Small admin-REST objects for tests, with just enough variety to exercise the rules.

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
