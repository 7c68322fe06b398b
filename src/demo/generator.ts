// Deterministic generator of a realistic demo shop ("Demo Outfitters").
//
// Everything is synthesised from a seeded PRNG: the same (seed, counts, now) always
// yields byte-identical JSON, so tests, benchmarks and evals can share fixtures
// without shipping a dataset. The shop is built to have the structure that
// recommendation and list features feed on: Zipf-skewed popularity, latent
// "bundles" of complementary products bought and browsed together, a handful of
// rising products, and the awkward cases (sold out, drafts, untracked stock,
// inactive markets) that storefront code must handle.
//
// Only Node built-ins; no Math.random or Date.now inside.
//
// This module is the public entry point; each part of the shop is built in its
// own module, from its own random stream.

import { buildCatalogue } from "./catalogue.js";
import { buildCollections } from "./collections.js";
import { buildCustomers } from "./customers.js";
import { buildMarkets } from "./markets.js";
import { resolveOptions } from "./options.js";
import { generateOrders } from "./orders.js";
import { generateEvents } from "./sessions.js";
import type { DemoData, DemoOptions, DemoStream, DemoTruth } from "./shapes.js";
import { buildShopper } from "./shopper.js";

export type {
  DemoAddress,
  DemoCollection,
  DemoCustomer,
  DemoData,
  DemoImage,
  DemoMarket,
  DemoMetafield,
  DemoOption,
  DemoOptions,
  DemoOrder,
  DemoOrderLine,
  DemoProduct,
  DemoStream,
  DemoTruth,
  DemoVariant,
  DemoVariantPrice,
} from "./shapes.js";

/** The demo shop for these options; identical (seed, sizes, now) give byte-identical JSON. */
export function generateDemo(options: DemoOptions = {}): DemoData {
  return generateDemoWithTruth(options).data;
}

/** As generateDemo, plus the latent bundles and rising products it was drawn from. */
export function generateDemoWithTruth(options: DemoOptions = {}): { data: DemoData; truth: DemoTruth } {
  const { merchant, products, collections, customers, orders, markets, events, truth } = generateDemoStream(options);
  // Key order is part of the JSON: keep it as it always was.
  const data: DemoData = { merchant, products, collections, customers, orders: [...orders], markets, events: [...events] };
  return { data, truth };
}

/**
 * As generateDemoWithTruth, with orders and events generated lazily as they
 * are read. Each pass over `orders` or `events` generates them afresh from the
 * seed (every part of the shop draws from its own random stream, and nothing
 * the passes share is mutated), so they can be read in any interleaving, or
 * again, with identical results.
 */
export function generateDemoStream(options: DemoOptions = {}): DemoStream {
  const cfg = resolveOptions(options);
  const { products, catalogue } = buildCatalogue(cfg);
  const customers = buildCustomers(cfg);
  // The shopper, which the orders and events read, holds no product or customer object.
  const shopper = buildShopper(cfg, catalogue, customers.pool);
  const ids = (indices: number[]): number[] => indices.map((i) => catalogue.ids[i]!);
  return {
    merchant: { id: "demo", name: "Demo Outfitters", domain: "demo-outfitters.example", currency: "USD" },
    products,
    collections: buildCollections(cfg, products, catalogue),
    customers: customers.records,
    orders: { [Symbol.iterator]: () => generateOrders(cfg, shopper) },
    markets: buildMarkets(cfg, products),
    events: { [Symbol.iterator]: () => generateEvents(cfg, shopper) },
    truth: { bundles: shopper.bundles.map(ids), rising: ids(shopper.rising) },
  };
}
