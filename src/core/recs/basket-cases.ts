// Bought-together cases carved from a shop's own orders, in time order: the
// most recent share of the baskets is held out, and each held-out basket
// keeps only the products the earlier baskets had (nothing can recommend a
// product nobody bought). A basket with two or more left predicts its last
// product from its first ones (at most QUERY_ITEMS), as a shopper's cart would
// ask for the rest of the order. A shop's bought-together training validates
// on these cases; the Online Retail protocol builds its cases the same way.
/** A basket as a training reads it: its distinct products in line order, and when it was bought (epoch ms). */
export interface DatedBasket {
  items: number[];
  at: number;
}

export interface BasketCase {
  query: number[];
  target: number;
}

/** At most this many of a basket's first products make a case's query. */
export const QUERY_ITEMS = 5;

/** Holds out the last `share` (0 … 1) of `baskets` (oldest first) as cases. */
export function carveBasketCases(baskets: readonly DatedBasket[], share: number): { train: DatedBasket[]; cases: BasketCase[] } {
  const cut = baskets.length - Math.round(share * baskets.length);
  const train = baskets.slice(0, cut);
  const known = new Set<number>();
  for (const basket of train) for (const item of basket.items) known.add(item);
  const cases: BasketCase[] = [];
  for (const basket of baskets.slice(cut)) {
    const items = basket.items.filter((item) => known.has(item));
    if (items.length < 2) continue;
    cases.push({ query: items.slice(0, Math.min(QUERY_ITEMS, items.length - 1)), target: items[items.length - 1]! });
  }
  return { train, cases };
}
