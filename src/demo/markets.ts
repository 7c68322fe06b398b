// Markets: local price lists converted from the shop's USD prices.

import { formatCents } from "../core/money.js";
import type { Config } from "./options.js";
import { stream } from "./random.js";
import type { DemoMarket, DemoProduct, DemoVariantPrice } from "./shapes.js";

/**
 * Canada and the UK with local price lists for part of the catalogue, plus an
 * inactive Canadian market with different prices: code that ignores `active`
 * (or takes the last match) shows the wrong price.
 */
export function buildMarkets(cfg: Config, products: DemoProduct[]): DemoMarket[] {
  const rng = stream(cfg.seed, "markets");
  return [
    market(
      { id: 1, name: "Canada", active: true, countries: ["CA"], currency: "CAD", rate: 1.35 },
      products.filter(() => rng.chance(0.9)),
    ),
    market(
      { id: 2, name: "United Kingdom", active: true, countries: ["GB"], currency: "GBP", rate: 0.79 },
      products.filter(() => rng.chance(0.8)),
    ),
    // product_ids null: the whole catalogue, which also exercises that branch of ingest.
    market({ id: 3, name: "Canada Wholesale", active: false, countries: ["CA"], currency: "CAD", rate: 1.1 }, products, true),
  ];
}

interface MarketSpec extends Pick<DemoMarket, "id" | "name" | "active" | "countries" | "currency"> {
  /** Local price ≈ USD price × rate. */
  rate: number;
}

/** A market with a local price for every variant of every product it sells. */
function market(spec: MarketSpec, catalogue: DemoProduct[], wholeCatalogue = false): DemoMarket {
  const variantPrices: Record<string, DemoVariantPrice> = {};
  for (const product of catalogue) {
    for (const v of product.variants) {
      const price = convertCents(priceCents(v.price), spec.rate);
      const compare = v.compare_at_price === null ? null : convertCents(priceCents(v.compare_at_price), spec.rate);
      variantPrices[String(v.id)] = {
        price: formatCents(price),
        compare_at_price: compare !== null && compare > price ? formatCents(compare) : null,
      };
    }
  }
  const { id, name, active, countries, currency } = spec;
  return {
    id,
    name,
    active,
    countries,
    currency,
    product_ids: wholeCatalogue ? null : catalogue.map((p) => p.id),
    variant_prices: variantPrices,
  };
}

/**
 * Cents of a price the demo formatted itself. Not core's validating toCents: these need no
 * checks, and at benchmark sizes (millions of variants, three markets) its parsing costs seconds.
 */
function priceCents(price: string): number {
  return Math.round(Number(price) * 100);
}

/** Local retail endings: under 100 ends in .99, above rounds to a whole .00. */
function convertCents(cents: number, rate: number): number {
  const raw = cents * rate;
  if (raw >= 10_000) return Math.round(raw / 100) * 100;
  return Math.max(99, Math.ceil(raw / 100) * 100 - 1);
}
