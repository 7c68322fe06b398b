// Validation of the non-product ingest objects: merchants, collections,
// customers, orders and markets. Each returns the stored shape with defaults filled.
import { gid } from "../gid.js";
import { RATE_CLASSES, type RateLimits } from "../rate-limit.js";
import type { Address, Collection, Customer, Market, Order, OrderLine, VariantPrice } from "../types.js";
import { toCents, formatCents } from "../money.js";
import { MAX_QUANTITY } from "../params/parse.js";
import { Fields, InvalidInput, isPlainObject, parseId, slugify } from "./fields.js";

const COUNTRY_CODE = /^[A-Z]{2}$/;
const CURRENCY_CODE = /^[A-Z]{3}$/;

export interface MerchantInput {
  id: string;
  name: string;
  domain: string;
  currency: string;
}

const MERCHANT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Whether `text` can be a merchant id: a path naming anything else names no merchant, without a store lookup. */
export function isMerchantId(text: string): boolean {
  return MERCHANT_ID.test(text);
}

export function normaliseMerchant(input: unknown, path = "merchant"): MerchantInput {
  const f = Fields.of(input, path);
  const id = f.nonEmptyString("id", 64);
  if (!isMerchantId(id)) f.fail("id", "must be lowercase letters, digits, - and _");
  const domain = f.nonEmptyString("domain", 255).toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(domain)) {
    f.fail("domain", "must be a host name like shop.example.com");
  }
  return { id, name: f.nonEmptyString("name", 255), domain, currency: currency(f, "currency", "USD") };
}

export function normaliseCollection(input: unknown, path: string): Collection {
  const f = Fields.of(input, path);
  const title = f.nonEmptyString("title", 255);
  return {
    id: f.id("id"),
    title,
    handle: f.has("handle") ? f.nonEmptyString("handle", 255) : slugify(title),
    product_ids: [...new Set(f.idList("product_ids"))],
  };
}

export function normaliseCustomer(input: unknown, path: string, now: string): Customer {
  const f = Fields.of(input, path);
  const id = f.id("id");
  const firstName = f.string("first_name", "");
  const lastName = f.string("last_name", "");
  const addresses = f.objects("addresses").map((a) => normaliseAddress(a, id, firstName, lastName));
  const createdAt = f.timestamp("created_at", now);
  const email = f.string("email", "", 320);
  if (email !== "" && !/^[^\s@]+@[^\s@]+$/.test(email)) f.fail("email", "must be an email address");
  return {
    id,
    email,
    accepts_marketing: f.boolean("accepts_marketing", false),
    created_at: createdAt,
    updated_at: f.timestamp("updated_at", now),
    accepts_marketing_updated_at: f.timestamp("accepts_marketing_updated_at", createdAt),
    first_name: firstName,
    last_name: lastName,
    orders_count: f.integer("orders_count", 0, 0),
    state: f.string("state", "enabled"),
    total_spent: f.nullableDecimal("total_spent") ?? "0.00",
    last_order_id: f.optionalId("last_order_id"),
    last_order_name: f.nullableString("last_order_name"),
    note: f.nullableString("note", 10_000),
    verified_email: f.boolean("verified_email", true),
    multipass_identifier: f.nullableString("multipass_identifier"),
    tax_exempt: f.boolean("tax_exempt", false),
    phone: f.nullableString("phone"),
    tags: f.string("tags", ""),
    currency: currency(f, "currency", "USD"),
    marketing_opt_in_level: f.nullableString("marketing_opt_in_level"),
    tax_exemptions: f.stringList("tax_exemptions"),
    admin_graphql_api_id: gid("Customer", id),
    addresses,
    default_address: addresses.find((a) => a.default) ?? addresses[0] ?? null,
  };
}

function normaliseAddress(a: Fields, customerId: number, firstName: string, lastName: string): Address {
  const first = a.string("first_name", firstName);
  const last = a.string("last_name", lastName);
  const countryCode = a.string("country_code", "").toUpperCase();
  if (countryCode !== "" && !COUNTRY_CODE.test(countryCode)) a.fail("country_code", "must be an ISO 3166-1 alpha-2 code");
  return {
    id: a.id("id"),
    customer_id: customerId,
    first_name: first,
    last_name: last,
    company: a.nullableString("company"),
    address1: a.string("address1", ""),
    address2: a.string("address2", ""),
    city: a.string("city", ""),
    province: a.string("province", ""),
    country: a.string("country", ""),
    zip: a.string("zip", ""),
    phone: a.nullableString("phone"),
    name: a.string("name", `${first} ${last}`.trim()),
    province_code: a.string("province_code", ""),
    country_code: countryCode,
    country_name: a.string("country_name", a.string("country", "")),
    default: a.boolean("default", false),
  };
}

/** How far past `now` an order may say it was placed: clocks differ, but not by more. */
const ORDER_CLOCK_SKEW_MS = 86_400_000;

/** `now`: the write's time (validateBatch's), as an ISO timestamp. */
export function normaliseOrder(input: unknown, path: string, now: string): Order {
  const f = Fields.of(input, path);
  const createdAt = f.timestamp("created_at");
  // The models weigh an order by how recent it is, exponentially: a date centuries ahead made its weight infinite.
  if (Date.parse(createdAt) > Date.parse(now) + ORDER_CLOCK_SKEW_MS) f.fail("created_at", "must not be more than a day in the future");
  const customer = f.optionalObject("customer");
  const lines = f.objects("line_items", true);
  if (lines.length === 0) f.fail("line_items", "must contain at least one line");
  const name = f.nullableString("name", 255);
  return {
    id: f.id("id"),
    ...(name === null || name === "" ? {} : { name }),
    created_at: createdAt,
    customer_id: customer ? customer.id("id") : null,
    line_items: lines.map(normaliseOrderLine),
    cancelled_at: f.nullableTimestamp("cancelled_at"),
  };
}

function normaliseOrderLine(line: Fields): OrderLine {
  return {
    product_id: line.id("product_id"),
    variant_id: line.optionalId("variant_id"),
    // Bounded as a cart's quantities are: sums of units and of spend stay exact integers.
    quantity: line.integer("quantity", 1, 1, MAX_QUANTITY),
    price: line.decimal("price"),
  };
}

export function normaliseMarket(input: unknown, path: string): Market {
  const f = Fields.of(input, path);
  const countries = f.stringList("countries").map((code, index) => {
    const upper = code.toUpperCase();
    if (!COUNTRY_CODE.test(upper)) throw new InvalidInput(`${f.at("countries")}[${index}]`, "must be an ISO 3166-1 alpha-2 code");
    return upper;
  });
  if (countries.length === 0) f.fail("countries", "must name at least one country");
  return {
    id: f.id("id"),
    name: f.nonEmptyString("name", 255),
    active: f.boolean("active", true),
    countries,
    currency: currency(f, "currency"),
    product_ids: f.raw("product_ids") === null || !f.has("product_ids") ? null : [...new Set(f.idList("product_ids"))],
    variant_prices: normaliseVariantPrices(f),
  };
}

/** A rate limit far past what one box answers, and whose default burst (twice it) stays an exact integer. */
const MAX_RATE = 1_000_000_000;

function normaliseVariantPrices(f: Fields): Record<string, VariantPrice> {
  const raw = f.raw("variant_prices");
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) f.fail("variant_prices", "must be an object keyed by variant id");
  const prices: Record<string, VariantPrice> = {};
  for (const [variantId, value] of Object.entries(raw)) {
    const path = `${f.at("variant_prices")}.${variantId}`;
    // An id past 2^53 would be read as its neighbour's, merging two entries.
    if (parseId(variantId) === null) throw new InvalidInput(path, "must be keyed by a variant id");
    const price = Fields.of(value, path);
    const compareAt = price.raw("compare_at_price");
    const compareCents = compareAt === undefined || compareAt === null ? null : toCents(compareAt);
    if (compareCents === null && compareAt !== undefined && compareAt !== null) {
      price.fail("compare_at_price", "must be a decimal amount");
    }
    prices[variantId] = {
      price: price.decimal("price"),
      compare_at_price: compareCents === null ? null : formatCents(compareCents),
    };
  }
  return prices;
}

function currency(f: Fields, name: string, fallback?: string): string {
  const code = f.string(name, fallback).toUpperCase();
  if (!CURRENCY_CODE.test(code)) f.fail(name, "must be an ISO 4217 currency code like USD");
  return code;
}

/**
 * A merchant's own rate limits, as the admin API takes them: per class,
 * `{per_second, burst?}` (burst defaults to twice the rate), or null for no
 * limit; a class left out follows the service's setting.
 */
export function normaliseRateLimits(input: unknown, path = "rate_limits"): Partial<RateLimits> {
  const f = Fields.of(input, path);
  // A misspelt class would otherwise be ignored without a word.
  for (const name of Object.keys(input as object)) {
    if (!(RATE_CLASSES as readonly string[]).includes(name)) f.fail(name, `is not a class of limits; use ${RATE_CLASSES.join(", ")}`);
  }
  const limits: Partial<RateLimits> = {};
  for (const rateClass of RATE_CLASSES) {
    if (!f.has(rateClass)) continue;
    if (f.raw(rateClass) === null) {
      limits[rateClass] = null;
      continue;
    }
    const limit = f.optionalObject(rateClass)!;
    const perSecond = limit.integer("per_second", 0, 1, MAX_RATE);
    if (perSecond < 1) limit.fail("per_second", "is required: a whole number of requests a second, at least 1");
    limits[rateClass] = { perSecond, burst: limit.integer("burst", perSecond * 2, 1, 2 * MAX_RATE) };
  }
  return limits;
}
