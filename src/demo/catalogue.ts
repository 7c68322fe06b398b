// The catalogue: every product, and the flat per-product index the order and
// session simulators read instead of the products themselves.

import type { Rng } from "../core/random.js";
import { STYLES, TYPES, VENDORS } from "./catalogue-vocabulary.js";
import { HandleRegistry } from "./handles.js";
import { DAY_S, type Config } from "./options.js";
import { buildProduct, type ProductIds } from "./product.js";
import { at, IdSequence, stream, zipfWeights } from "./random.js";
import type { DemoProduct } from "./shapes.js";

/** How far back the catalogue reaches: products were created over two years. */
const CATALOGUE_AGE_DAYS = 730;

/**
 * What the order and session simulators need to know about each product, by
 * product index. Kept as flat typed arrays: the simulators read them millions of
 * times at benchmark sizes, and scattered objects cost a cache miss each. It
 * holds no product object, so a consumer that streams orders and events can let
 * the products go once it has imported them (at 1M products they are most of
 * the heap, and a heap near its limit spends its time collecting garbage).
 */
export interface Catalogue {
  /** Product ids. */
  ids: Float64Array;
  /** Each product's variant ids and prices, in variant order: what an order line copies. */
  variants: { ids: Float64Array; prices: readonly string[] }[];
  type: Uint8Array;
  style: Uint8Array;
  createdS: Float64Array;
  /** 1 when published and active: can be bought and browsed. */
  sellable: Uint8Array;
  outOfStock: Uint8Array;
  /** Zipf popularity weight (0 for unsellable products). */
  weight: Float64Array;
  /** Cumulative variant weights: middle sizes and first colours sell best. */
  variantCumulative: number[][];
}

export function buildCatalogue(cfg: Config): { products: DemoProduct[]; catalogue: Catalogue } {
  const rng = stream(cfg.seed, "catalogue");
  const ids: ProductIds = {
    product: new IdSequence(7_100_000_000_000, 40_000, rng),
    variant: new IdSequence(41_000_000_000_000, 500, rng),
    option: new IdSequence(9_300_000_000_000, 50, rng),
    image: new IdSequence(31_000_000_000_000, 5_000, rng),
    metafield: new IdSequence(24_000_000_000_000, 300, rng),
  };
  const createdTimes = productCreationTimes(cfg, rng);
  const weights = zipfWeights(cfg.products, 0.95, 8, rng);
  const maxWeight = weights.reduce((a, b) => Math.max(a, b), 0) || 1;
  const handles = new HandleRegistry();
  const skus = new Set<string>();
  const vendorWeights = VENDORS.map((list) => list.map((_, i) => 1 / (i + 2)));
  const typeShares = TYPES.map((t) => t.share);

  const n = cfg.products;
  const products: DemoProduct[] = [];
  const catalogue: Catalogue = {
    ids: new Float64Array(n),
    variants: [],
    type: new Uint8Array(n),
    style: new Uint8Array(n),
    createdS: Float64Array.from(createdTimes),
    sellable: new Uint8Array(n),
    outOfStock: new Uint8Array(n),
    weight: new Float64Array(n),
    variantCumulative: [],
  };
  for (let i = 0; i < n; i++) {
    const type = rng.weighted(typeShares);
    const spec = at(TYPES, type);
    const vendor = at(at(VENDORS, spec.dept), rng.weighted(at(vendorWeights, spec.dept)));
    const draft = rng.chance(0.03);
    const style = rng.int(0, STYLES.length - 1);
    const built = buildProduct({
      cfg,
      rng,
      ids,
      handles,
      skus,
      index: i,
      spec,
      vendor,
      draft,
      style,
      createdS: at(createdTimes, i),
      popularity: draft ? 0 : at(weights, i) / maxWeight,
    });
    products.push(built.product);
    catalogue.ids[i] = built.product.id;
    catalogue.variants.push({
      ids: Float64Array.from(built.product.variants, (v) => v.id),
      prices: built.product.variants.map((v) => v.price),
    });
    catalogue.type[i] = type;
    catalogue.style[i] = style;
    catalogue.sellable[i] = draft ? 0 : 1;
    catalogue.outOfStock[i] = built.outOfStock ? 1 : 0;
    catalogue.weight[i] = draft ? 0 : at(weights, i);
    catalogue.variantCumulative.push(built.variantCumulative);
  }
  return { products, catalogue };
}

/** Creation times spread over two years, sorted so ids increase with age like the platform's. */
function productCreationTimes(cfg: Config, rng: Rng): number[] {
  // Long windows push the catalogue further back so most products predate most orders.
  const oldest = cfg.nowS - Math.max(CATALOGUE_AGE_DAYS, cfg.days + 180) * DAY_S;
  const span = cfg.nowS - oldest - DAY_S;
  const times = new Float64Array(cfg.products);
  for (let i = 0; i < times.length; i++) times[i] = oldest + Math.floor(rng.next() * span);
  return Array.from(times.sort());
}
