import { gid } from "../gid.js";
import type { Metafield, Product, ProductImage, ProductOption, Variant } from "../types.js";
import { Fields, InvalidInput, slugify } from "./fields.js";

const BODY_HTML_MAX = 512 * 1024;
const METAFIELD_VALUE_MAX = 64 * 1024;
const MAX_VARIANTS = 2_048;

export interface NormalisedProduct {
  product: Product;
  /** Product and variant metafields, stored apart so plain product reads stay small. */
  metafields: Metafield[];
}

/** Validates one Admin REST product and fills every default the spec shows. */
export function normaliseProduct(input: unknown, path: string, now: string): NormalisedProduct {
  const f = Fields.of(input, path);
  const id = f.id("id");
  const title = f.nonEmptyString("title");
  const createdAt = f.timestamp("created_at", now);
  const updatedAt = f.timestamp("updated_at", now);
  const handle = f.has("handle") ? f.nonEmptyString("handle", 255) : slugify(title);
  if (!/^[a-z0-9][a-z0-9-_]*$/i.test(handle)) f.fail("handle", "must be a URL handle of letters, digits, - and _");

  const variantFields = f.objects("variants", true);
  if (variantFields.length === 0) f.fail("variants", "must contain at least one variant");
  if (variantFields.length > MAX_VARIANTS) f.fail("variants", `must contain at most ${MAX_VARIANTS} variants`);

  const metafields: Metafield[] = f.objects("metafields").map((m) => normaliseMetafield(m, "product", id, now));
  const variants = variantFields.map((v, index) => {
    metafields.push(...v.objects("metafields").map((m) => normaliseMetafield(m, "variant", v.id("id"), now)));
    return normaliseVariant(v, id, index, now);
  });
  rejectDuplicates(
    variants.map((v) => v.id),
    `${path}.variants`,
    "variant id",
  );

  const images = f
    .objects("images")
    .map((image, index) => normaliseImage(image, id, index, now))
    .sort((a, b) => a.position - b.position);
  const options = normaliseOptions(f, id, variants);

  const product: Product = {
    id,
    title,
    body_html: f.string("body_html", "", BODY_HTML_MAX),
    vendor: f.string("vendor", ""),
    product_type: f.string("product_type", ""),
    handle,
    status: normaliseStatus(f),
    tags: normaliseTags(f),
    created_at: createdAt,
    updated_at: updatedAt,
    published_at: f.has("published_at") ? f.nullableTimestamp("published_at") : createdAt,
    template_suffix: f.nullableString("template_suffix"),
    published_scope: f.string("published_scope", "web"),
    admin_graphql_api_id: gid("Product", id),
    variants,
    options,
    images,
    image: images[0] ?? null,
  };
  return { product, metafields };
}

function normaliseStatus(f: Fields): string {
  const status = f.string("status", "active");
  if (!["active", "draft", "archived"].includes(status)) f.fail("status", "must be active, draft or archived");
  return status;
}

/** The spec's tags are one comma-separated string; arrays from other exports are joined. */
function normaliseTags(f: Fields): string {
  const raw = f.raw("tags");
  const list = Array.isArray(raw) ? f.stringList("tags") : f.string("tags", "", 10_000).split(",");
  return list
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "")
    .join(", ");
}

function normaliseVariant(v: Fields, productId: number, index: number, now: string): Variant {
  const id = v.id("id");
  const quantity = v.integer("inventory_quantity", 0);
  const policy = v.string("inventory_policy", "deny");
  if (policy !== "deny" && policy !== "continue") v.fail("inventory_policy", "must be deny or continue");
  return {
    id,
    product_id: productId,
    title: v.string("title", "Default Title"),
    price: v.decimal("price"),
    compare_at_price: v.nullableDecimal("compare_at_price"),
    sku: v.string("sku", "", 255),
    position: v.integer("position", index + 1, 1),
    inventory_policy: policy,
    fulfillment_service: v.string("fulfillment_service", "manual"),
    inventory_management: v.has("inventory_management") ? v.nullableString("inventory_management") : "platform",
    option1: v.nullableString("option1"),
    option2: v.nullableString("option2"),
    option3: v.nullableString("option3"),
    created_at: v.timestamp("created_at", now),
    updated_at: v.timestamp("updated_at", now),
    taxable: v.boolean("taxable", true),
    barcode: v.string("barcode", "", 255),
    grams: v.integer("grams", 0, 0),
    image_id: v.optionalId("image_id"),
    weight: v.number("weight", 0),
    weight_unit: v.string("weight_unit", "lb"),
    inventory_item_id: v.optionalId("inventory_item_id") ?? id,
    inventory_quantity: quantity,
    old_inventory_quantity: v.integer("old_inventory_quantity", quantity),
    requires_shipping: v.boolean("requires_shipping", true),
    admin_graphql_api_id: gid("ProductVariant", id),
    selling_plan_allocations: v.array("selling_plan_allocations"),
  };
}

function normaliseImage(image: Fields, productId: number, index: number, now: string): ProductImage {
  const id = image.id("id");
  const src = image.nonEmptyString("src", 2_048);
  if (!/^https?:\/\//.test(src)) image.fail("src", "must be an http(s) address");
  return {
    id,
    product_id: productId,
    position: image.integer("position", index + 1, 1),
    created_at: image.timestamp("created_at", now),
    updated_at: image.timestamp("updated_at", now),
    alt: image.nullableString("alt"),
    width: image.integer("width", 0, 0),
    height: image.integer("height", 0, 0),
    src,
    variant_ids: image.idList("variant_ids"),
    admin_graphql_api_id: gid("ProductImage", id),
  };
}

/**
 * Options as given, or — like the platform does for single-variant products —
 * one "Title" option built from the variants' option1 values.
 */
function normaliseOptions(f: Fields, productId: number, variants: Variant[]): ProductOption[] {
  const given = f.objects("options");
  if (given.length > 3) f.fail("options", "must contain at most 3 options");
  if (given.length === 0) {
    const values = [...new Set(variants.map((v) => v.option1 ?? v.title))];
    return [{ id: productId, product_id: productId, name: "Title", position: 1, values }];
  }
  return given.map((o, index) => ({
    id: o.optionalId("id") ?? optionIdFrom(o, productId, index),
    product_id: productId,
    name: o.nonEmptyString("name", 255),
    position: o.integer("position", index + 1, 1),
    values: o.stringList("values"),
  }));
}

/** An option's id when none is given: made from the product's, while that stays an exact integer. */
function optionIdFrom(o: Fields, productId: number, index: number): number {
  const id = productId * 10 + index + 1;
  if (!Number.isSafeInteger(id)) o.fail("id", "is required with a product id this large (one made from it would pass 2^53)");
  return id;
}

function normaliseMetafield(m: Fields, ownerResource: Metafield["owner_resource"], ownerId: number, now: string): Metafield {
  const id = m.id("id");
  const raw = m.raw("value");
  let value: string;
  if (typeof raw === "string") value = raw;
  else if (typeof raw === "number" || typeof raw === "boolean") value = String(raw);
  else if (raw !== undefined && raw !== null && typeof raw === "object") value = JSON.stringify(raw);
  else m.fail("value", "is required");
  if (value.length > METAFIELD_VALUE_MAX) m.fail("value", `must be at most ${METAFIELD_VALUE_MAX} characters`);
  return {
    id,
    namespace: m.nonEmptyString("namespace", 255),
    key: m.nonEmptyString("key", 255),
    value,
    type: m.string("type", "single_line_text_field", 255),
    owner_id: ownerId,
    owner_resource: ownerResource,
    created_at: m.timestamp("created_at", now),
    updated_at: m.timestamp("updated_at", now),
    admin_graphql_api_id: gid("Metafield", id),
  };
}

export function rejectDuplicates(ids: number[], path: string, what: string): void {
  const seen = new Set<number>();
  for (const id of ids) {
    if (seen.has(id)) throw new InvalidInput(path, `${what} ${id} appears more than once`);
    seen.add(id);
  }
}
