// Collections: one per product type, plus the thematic ones a merchant would curate.

import { TYPES } from "./catalogue-vocabulary.js";
import type { Catalogue } from "./catalogue.js";
import { slug } from "./handles.js";
import { DAY_S, type Config } from "./options.js";
import { IdSequence, stream } from "./random.js";
import type { DemoCollection, DemoProduct } from "./shapes.js";

/** One collection per type plus thematic ones a merchant would curate (20 in all). */
export function buildCollections(cfg: Config, products: readonly DemoProduct[], catalogue: Catalogue): DemoCollection[] {
  const rng = stream(cfg.seed, "collections");
  const ids = new IdSequence(280_000_000_000, 100_000, rng);
  const { sellable, createdS } = catalogue;
  const where = (keep: (p: DemoProduct, i: number) => boolean): number[] => products.filter(keep).map((p) => p.id);
  const forSale = (i: number): boolean => sellable[i] === 1;
  const hasTag = (p: DemoProduct, tag: string): boolean => `, ${p.tags}, `.includes(`, ${tag}, `);
  const minPrice = (p: DemoProduct): number => p.variants.reduce((min, v) => Math.min(min, Number(v.price)), Infinity);

  const collection = (title: string, productIds: number[]): DemoCollection => ({
    id: ids.take(),
    title,
    handle: slug(title),
    product_ids: productIds,
  });
  // Products are generated oldest first, so newest first is reverse index order.
  const newest = products.filter((_, i) => forSale(i)).reverse();
  const recentCount = products.filter((_, i) => forSale(i) && (createdS[i] ?? 0) >= cfg.nowS - 30 * DAY_S).length;

  return [
    ...TYPES.map((spec) =>
      collection(
        spec.plural,
        where((p) => p.product_type === spec.name),
      ),
    ),
    collection(
      "Summer Essentials",
      where((p, i) => forSale(i) && hasTag(p, "summer")),
    ),
    collection(
      "Winter Warmers",
      where((p, i) => forSale(i) && hasTag(p, "winter")),
    ),
    collection(
      "Gifts Under $50",
      where((p, i) => forSale(i) && hasTag(p, "gift") && minPrice(p) < 50),
    ),
    collection(
      "New Arrivals",
      newest.slice(0, Math.max(12, recentCount)).map((p) => p.id),
    ),
    collection(
      "Sale",
      where((p, i) => forSale(i) && hasTag(p, "sale")),
    ),
  ];
}
