// What a custom source's conditions test, read from the store for one request:
// the input products, the cart, the customer and the country, each field as
// the distinct values rules compare (texts lower case, money in cents, prices
// the shop's own).
import { toCents } from "../core/money.js";
import type { Facts } from "../core/sources/compile.js";
import type { ConditionValue, FieldName } from "../core/sources/definition.js";
import { splitTags, type ProductTexts } from "../core/sources/product-texts.js";
import type { CustomSourceTask } from "../core/sources/task.js";
import { merchantCatalog } from "../stores/catalog.js";
import type { Store } from "../stores/store.js";

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

/** A line's unit price in cents: its variant's, or the product's first variant's when the line names no variant. */
function unitPrice(prices: Float64Array | undefined, texts: ProductTexts, variantId: number | null): number {
  const index = variantId === null ? 0 : texts.variantIds.indexOf(variantId);
  const cents = index < 0 ? undefined : prices?.[index];
  return cents === undefined || Number.isNaN(cents) ? 0 : cents;
}

export function requestProducts(store: Store, task: CustomSourceTask): RequestProducts {
  const { merchantId, inputs } = task;
  const inputIds = new Set(inputs.productIds);
  for (const variantId of inputs.variantIds) {
    const id = store.catalogue.productIdByVariant(merchantId, variantId);
    if (id !== undefined) inputIds.add(id);
  }
  const lines: ResolvedLine[] = task.cart.map((line) => ({
    productId: line.product_id ?? store.catalogue.productIdByVariant(merchantId, line.variant_id!),
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
  // Texts from the stored attributes and prices from the eligibility records: no product is decoded.
  const attributes = store.productAttributes;
  const catalog = merchantCatalog(store, merchantId);
  if (wants("product.")) {
    const collections = fields.has("product.collection_ids");
    for (const id of products.inputs) {
      const texts = attributes.textsOf(merchantId, id);
      if (!texts) continue;
      values.add("product.tags", ...texts.tags);
      values.add("product.vendor", texts.vendor);
      values.add("product.product_type", texts.type);
      values.add("product.handle", texts.handle);
      values.add("product.title", texts.title);
      values.add("product.price", ...[...(catalog.eligibility(id)?.cents ?? [])].filter((cents) => !Number.isNaN(cents)));
      if (collections) values.add("product.collection_ids", ...attributes.collectionsOf(merchantId, id));
    }
  }
  if (wants("cart.")) {
    let subtotal = 0;
    for (const line of products.cartLines) {
      const { productId } = line;
      if (productId !== undefined) values.add("cart.product_ids", productId);
      if (line.variantId !== null) values.add("cart.variant_ids", line.variantId);
      values.add("cart.quantities", line.quantity);
      const texts = productId === undefined ? undefined : attributes.textsOf(merchantId, productId);
      if (!texts) continue;
      values.add("cart.product_type", texts.type);
      values.add("cart.tags", ...texts.tags);
      subtotal += unitPrice(catalog.eligibility(productId!)?.cents, texts, line.variantId) * line.quantity;
    }
    values.add("cart.subtotal", subtotal);
  }
  if (wants("customer.") && task.customerId !== null) {
    const customer = store.catalogue.customer(merchantId, task.customerId);
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
