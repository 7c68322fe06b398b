// The demo shop's custom sources, written as a merchant would send them to the
// admin API: they exercise cart, customer and product rules, pins and boosts,
// built-in sources and fallbacks, and the start-up banner and the README show
// a curl line for each.
import type { MerchantId } from "../core/types.js";
import { writeSources } from "../ingest/custom-sources.js";
import type { Store } from "../stores/store.js";

export const DEMO_SOURCES = [
  {
    id: "complete-the-look",
    name: "Complete the look",
    description: "A T-shirt in the cart: hoodies to wear over it, best sellers first; then what is bought with the cart.",
    rules: [
      {
        if: { conditions: [{ field: "cart.product_type", operator: "contains_any", values: ["T-Shirt"] }] },
        return: { kind: "product_types", product_types: ["Hoodie"] },
        boost: { tags: ["bestseller"] },
      },
      { return: { kind: "source", source: "recommended" } },
    ],
    fallback: "trending",
  },
  {
    id: "gifts-under-30",
    name: "Gifts under 30",
    description: "Giftable products, best sellers first and new ones next; ask with any_variant_price_less_than=30.00 for the price.",
    rules: [{ return: { kind: "tags", tags: ["gift"] }, boost: { tags: ["bestseller", "new"] }, bury: { tags: ["sale"] } }],
    fallback: "top_sellers",
  },
  {
    id: "buy-it-again",
    name: "Buy it again",
    description: "What a returning customer bought before, most recent first; best sellers for everyone else.",
    rules: [
      {
        if: { conditions: [{ field: "customer.orders_count", operator: "greater_than", values: [0] }] },
        return: { kind: "source", source: "purchased" },
        exit_if_matched: true,
      },
    ],
    fallback: "top_sellers",
  },
] as const;

/** Writes the demo's sources through the admin API's own path. */
export async function seedDemoSources(store: Store, merchant: MerchantId): Promise<void> {
  await writeSources(store, merchant, DEMO_SOURCES);
}
