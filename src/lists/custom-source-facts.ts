// What a custom source's conditions test, read from the store for one request:
// the input products, the cart, the customer and the country, each field as
// the distinct values rules compare (texts lower case, money in cents, prices
// the shop's own).
import { toCents } from "../core/money.js";
import type { Facts } from "../core/sources/compile.js";
import type { ConditionValue, FieldName } from "../core/sources/definition.js";
import type { CustomSourceTask } from "../core/sources/task.js";
import type { Product } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { collectionMemberships } from "./product-attributes.js";

/** A cart line with its product known (undefined: a variant the shop lacks). */
interface ResolvedLine {
  productId: number | undefined;
  variantId: number | null;
  quantity: number;
}

/** The request's products: the input products (given and of the given variants) and the cart's. */
export interface RequestProducts {
  inputs: number[];
  cart: number[];
  cartLines: ResolvedLine[];
}

const splitTags = (tags: string) =>
  tags
    .split(",")
    .map((tag) => tag.trim().toLowerCase())
    .filter((tag) => tag !== "");

class Values {
  private readonly byField = new Map<FieldName, Set<ConditionValue>>();

  add(field: FieldName, ...values: ConditionValue[]): void {
    let set = this.byField.get(field);
    if (!set) this.byField.set(field, (set = new Set()));
    for (const value of values) set.add(value);
  }

  facts(fields: readonly FieldName[]): Facts {
    return Object.fromEntries(fields.map((field) => [field, [...(this.byField.get(field) ?? [])]])) as Record<FieldName, ConditionValue[]>;
  }
}

export function requestProducts(store: Store, task: CustomSourceTask): RequestProducts {
  const { merchantId, inputs } = task;
  const inputIds = new Set(inputs.productIds);
  for (const variantId of inputs.variantIds) {
    const id = store.productIdByVariant(merchantId, variantId);
    if (id !== undefined) inputIds.add(id);
  }
  const lines: ResolvedLine[] = task.cart.map((line) => ({
    productId: line.product_id ?? store.productIdByVariant(merchantId, line.variant_id!),
    variantId: line.variant_id,
    quantity: line.quantity,
  }));
  // A storefront may send a line's product beside its variant: a product line is a line of its own only when no variant line has that product.
  const ofVariants = new Set(lines.filter((line) => line.variantId !== null).map((line) => line.productId));
  const cartLines = lines.filter((line) => line.variantId !== null || !ofVariants.has(line.productId));
  const cart = new Set(cartLines.flatMap((line) => (line.productId === undefined ? [] : [line.productId])));
  return { inputs: [...inputIds], cart: [...cart], cartLines };
}

/**
 * The facts of the request, for the fields the source's conditions name
 * (`fields`): the others are never read, so a source without customer
 * conditions reads no customer.
 */
export function readFacts(store: Store, task: CustomSourceTask, products: RequestProducts, fields: ReadonlySet<FieldName>): Facts {
  const { merchantId } = task;
  const values = new Values();
  const wants = (prefix: string) => [...fields].some((field) => field.startsWith(prefix));
  const productOf = new Map<number, Product | undefined>();
  const read = (id: number) => {
    if (!productOf.has(id)) productOf.set(id, store.product(merchantId, id));
    return productOf.get(id);
  };
  if (wants("product.")) {
    const memberships = fields.has("product.collection_ids") ? collectionMemberships(store, merchantId) : null;
    for (const id of products.inputs) {
      const product = read(id);
      if (!product) continue;
      values.add("product.tags", ...splitTags(product.tags));
      values.add("product.vendor", product.vendor.trim().toLowerCase());
      values.add("product.product_type", product.product_type.trim().toLowerCase());
      values.add("product.handle", product.handle.toLowerCase());
      values.add("product.title", product.title.trim().toLowerCase());
      values.add(
        "product.price",
        ...product.variants.map((variant) => toCents(variant.price)).filter((cents): cents is number => cents !== null),
      );
      if (memberships) values.add("product.collection_ids", ...(memberships.collectionsOf.get(id) ?? []));
    }
  }
  if (wants("cart.")) {
    let subtotal = 0;
    for (const line of products.cartLines) {
      const { productId } = line;
      if (productId !== undefined) values.add("cart.product_ids", productId);
      if (line.variantId !== null) values.add("cart.variant_ids", line.variantId);
      values.add("cart.quantities", line.quantity);
      const product = productId === undefined ? undefined : read(productId);
      if (!product) continue;
      values.add("cart.product_type", product.product_type.trim().toLowerCase());
      values.add("cart.tags", ...splitTags(product.tags));
      // A line without a variant is priced at the product's first.
      const variant = line.variantId === null ? product.variants[0] : product.variants.find((v) => v.id === line.variantId);
      subtotal += (toCents(variant?.price) ?? 0) * line.quantity;
    }
    values.add("cart.subtotal", subtotal);
  }
  if (wants("customer.") && task.customerId !== null) {
    const customer = store.customer(merchantId, task.customerId);
    if (customer) {
      values.add("customer.tags", ...splitTags(customer.tags));
      values.add("customer.orders_count", customer.orders_count);
      const spent = toCents(customer.total_spent);
      if (spent !== null) values.add("customer.total_spent", spent);
    }
  }
  if (task.list.countryCode !== null) values.add("country_code", task.list.countryCode.toLowerCase());
  return values.facts([...fields]);
}
