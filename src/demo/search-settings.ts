// The demo shop's search merchandising, written as a merchant would send it to
// the admin API: one keyword group (searches for gifts get three products of
// the gifts collection pinned first, and a redirect to that collection) and two
// synonyms (a shopper's "sweatshirt" finds the hoodies; "sofa", "couch" and
// "settee" find each other). The start-up banner and the README show a curl
// line for each.
import { isProductAvailable, isProductPublished } from "../core/availability.js";
import type { MerchantId } from "../core/types.js";
import { writeSearchSettings } from "../ingest/search-settings.js";
import type { Store } from "../stores/store.js";

const GIFTS_HANDLE = "gifts-under-50";
const GIFT_GROUP_ID = "gifts";
const PINNED_GIFTS = 3;

/** Queries the banner shows, each answered by part of the settings: the keyword group, the one-way synonym, the two-way one with a typo. */
export const DEMO_SEARCH_QUERIES = ["gift", "sweatshirt", "cuoch"] as const;

/** Writes the demo's settings through the admin API's own path; none when the shop has no gifts collection to promote from. */
export async function seedDemoSearchSettings(store: Store, merchant: MerchantId): Promise<void> {
  const domain = store.catalogue.merchant(merchant)?.domain;
  const gifts = store.catalogue.collectionsOf(merchant).find((collection) => collection.handle === GIFTS_HANDLE);
  if (!domain || !gifts) return;
  const promoted = gifts.product_ids
    .filter((id) => {
      const product = store.catalogue.product(merchant, id);
      return product !== undefined && isProductAvailable(product) && isProductPublished(product);
    })
    .slice(0, PINNED_GIFTS);
  await writeSearchSettings(store, merchant, {
    keyword_groups: [
      {
        id: GIFT_GROUP_ID,
        queries: ["gift", "present"],
        match: "prefix",
        promoted,
        promote_mode: "pin",
        redirect: `https://${domain}/collections/${GIFTS_HANDLE}`,
      },
    ],
    synonyms: [
      { type: "one_way", root: "sweatshirt", synonyms: ["hoodie"] },
      { type: "two_way", synonyms: ["sofa", "couch", "settee"] },
    ],
  });
}

/** Whether the shop's search settings are the demo's (a data dir seeded before they existed has none, and a merchant may have changed them). */
export function hasDemoSearchSettings(store: Store, merchant: MerchantId): boolean {
  return store.searchSettings.get(merchant).settings.keyword_groups.some((group) => group.id === GIFT_GROUP_ID);
}
