// Orders: baskets drawn from the shopper's structure, a day at a time, in time order.

import type { Rng } from "../core/random.js";
import type { Catalogue } from "./catalogue.js";
import { DAY_S, iso, type Config } from "./options.js";
import { at, firstAbove, IdSequence, stream } from "./random.js";
import type { DemoOrder, DemoOrderLine } from "./shapes.js";
import {
  existed,
  pickComplement,
  pickForCustomer,
  pickPopular,
  pickRisingProduct,
  pickSimilar,
  timesByDay,
  type Shopper,
} from "./shopper.js";

const MAX_LINES = 5;

/** ~150 orders a day per 2,000 customers, 1–5 lines, ids increasing with time; generated a day at a time. */
export function* generateOrders(cfg: Config, s: Shopper): Generator<DemoOrder, void, undefined> {
  const rng = stream(cfg.seed, "orders");
  const ids = new IdSequence(5_600_000_000_000, 5_000, rng);
  for (const times of timesByDay(cfg, s, rng, Math.round(cfg.customers * 0.075 * cfg.days))) {
    for (const tS of times) {
      const guest = rng.chance(0.15);
      const customer = guest ? -1 : s.customers.activity.sample(rng);
      const items = composeBasket(s, rng, tS, customer);
      if (items.length === 0) continue;
      // Field by field in this order: each draws from rng in turn.
      yield {
        id: ids.take(),
        created_at: iso(tS),
        customer: customer < 0 ? null : { id: s.customers.ids[customer]! },
        line_items: items.map((p) => orderLine(rng, s.catalogue, p)),
        cancelled_at: rng.chance(0.02) ? iso(Math.min(cfg.nowS, tS + rng.int(600, 2 * DAY_S))) : null,
      };
    }
  }
}

/**
 * What goes in one basket. ~45% of orders are (part of) a bundle; the rest start
 * from a popular product (leaning to the customer's department) and sometimes add
 * a complement, a similar item or another popular item.
 */
function composeBasket(s: Shopper, rng: Rng, tS: number, customer: number): number[] {
  const items: number[] = [];
  const add = (p: number): void => {
    if (p >= 0 && items.length < MAX_LINES && !items.includes(p) && existed(s, p, tS)) items.push(p);
  };
  add(pickRisingProduct(s, rng, tS));
  if (s.bundles.length > 0 && rng.chance(0.45)) {
    const members = rng.shuffle([...at(s.bundles, s.bundleSampler.sample(rng))]);
    const take = rng.int(2, members.length);
    members.slice(0, take).forEach(add);
    if (rng.chance(0.2)) add(pickPopular(s, rng, tS));
  } else {
    const seed = pickForCustomer(s, rng, tS, customer);
    add(seed);
    const extras = at([0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3], rng.int(0, 11));
    for (let e = 0; e < extras && seed >= 0; e++) {
      const r = rng.next();
      add(r < 0.4 ? pickComplement(s, rng, seed, tS) : r < 0.65 ? pickSimilar(s, rng, seed, tS) : pickPopular(s, rng, tS));
    }
  }
  if (items.length === 0) add(pickPopular(s, rng, tS));
  return items;
}

function orderLine(rng: Rng, catalogue: Catalogue, p: number): DemoOrderLine {
  const variants = at(catalogue.variants, p);
  const v = pickVariant(rng, at(catalogue.variantCumulative, p));
  const r = rng.next();
  return {
    product_id: catalogue.ids[p]!,
    variant_id: variants.ids[v]!,
    quantity: r < 0.85 ? 1 : r < 0.95 ? 2 : rng.int(3, 4),
    price: at(variants.prices, v),
  };
}

/** A variant index by weight (middle sizes and first colours sell best). */
function pickVariant(rng: Rng, totals: number[]): number {
  const found = firstAbove(totals, rng.next() * (totals[totals.length - 1] ?? 0));
  return found < 0 ? 0 : found;
}
