// The request rotations of every product endpoint, built from a merchant's own
// data (real ids, sessions, customers, titles), so a load run asks for what a
// storefront would. Shared by the load runs on the demo and the scale curve.
import {
  ANALYTICS_EVENT,
  PURCHASED,
  QUICK_VIEW_SEARCH,
  RECOMMENDED,
  SIMILAR_PRODUCTS,
  STATIC_PRODUCTS,
  TOP_SELLERS,
  TRENDING_PRODUCTS,
  VIEWED,
  VIEWED_RELATED,
} from "../../src/core/api/endpoints.js";
import type { Store } from "../../src/stores/store.js";
import type { BudgetName } from "../report/budgets.js";
import { count } from "../report/format.js";
import {
  customersWithOrders,
  inputSets,
  listedIds,
  prng,
  recommendationInputs,
  titleKeystrokes,
  titleQueries,
  viewSessions,
} from "../shared/inputs.js";

export interface Rotation {
  /** Row label in the report. */
  name: string;
  /** Request lines, "POST /…" or a GET path; the client cycles through them. */
  paths: string[];
  /** The p99 budget the scenario is judged against. */
  budget: BudgetName;
  /** The throughput budget, as a ratio to raw uWS answering the same bytes (absent: not judged). */
  throughputBudget?: BudgetName;
}

export interface EndpointRotations {
  staticMiss: Rotation;
  recommendedMiss: Rotation;
  similarContextMiss: Rotation;
  similarProductsMiss: Rotation;
  trendingMiss: Rotation;
  topSellersMiss: Rotation;
  viewed: Rotation;
  viewedRelated: Rotation;
  purchased: Rotation;
  quickView: Rotation;
}

const STATIC_ID_SETS = 64;
const RECOMMENDED_SETS = 128;
const TOP_SELLER_COLLECTIONS = 10;
const SESSIONS = 256;
const CUSTOMERS = 256;
/** Titles whose first two words are typed; repeated prefixes are answered from the cache, as for real shoppers. */
const TYPED_TITLES = 300;

/** Five listed ids for the static endpoint, as a query value: set 0 is the cache-hit URL's, the misses take sets 1, 2, … */
export function staticIdSet(listed: readonly number[], set: number): string {
  return Array.from({ length: 5 }, (_, j) => listed[(set * 5 + j) % listed.length]!).join(",");
}

/**
 * Every product endpoint's cache-miss rotation: cacheable lists with
 * bust_cache=yes (recomputed in the pool every time), the session lists as
 * they are (never cached), quick-view as typed (repeats hit the cache).
 */
export function endpointRotations(store: Store, merchantId: string, apiKey: string): EndpointRotations {
  const listed = listedIds(store, merchantId);
  if (listed.length < 5) throw new Error(`${merchantId} has only ${listed.length} listed products`);
  const { withNeighbours } = recommendationInputs(store, merchantId);
  if (withNeighbours.length < 3) throw new Error(`only ${withNeighbours.length} ${merchantId} products have a bought-together list`);
  const sessions = [...viewSessions(store, merchantId, 5).keys()].slice(0, SESSIONS);
  if (sessions.length === 0) throw new Error(`${merchantId} has no view sessions`);
  const customers = customersWithOrders(store, merchantId, CUSTOMERS);
  if (customers.length === 0) throw new Error(`${merchantId} has no customer with an order`);
  const collections = store.catalogue.collectionsOf(merchantId).map((c) => c.id);
  const typed = titleKeystrokes(store, merchantId, TYPED_TITLES);

  const recommendedSets = inputSets(withNeighbours, RECOMMENDED_SETS, (k) => 1 + (k % 3), 21);
  const similarIds = inputSets(listed, RECOMMENDED_SETS, () => 1, 23).map(([id]) => id!);
  const key = `key=${apiKey}`;
  return {
    staticMiss: {
      name: `static cache miss (bust_cache, ${STATIC_ID_SETS} id sets)`,
      paths: Array.from(
        { length: STATIC_ID_SETS },
        (_, set) => `${STATIC_PRODUCTS.path}?${key}&ids=${staticIdSet(listed, set + 1)}&bust_cache=yes`,
      ),
      budget: "staticMissP99",
      throughputBudget: "cacheMissThroughput",
    },
    recommendedMiss: {
      name: `recommended cache miss (bust_cache, ${recommendedSets.length} id sets)`,
      paths: recommendedSets.map((ids) => `${RECOMMENDED.path}?${key}&platform_product_ids=${ids.join(",")}&bust_cache=yes`),
      budget: "recommendedMissP99",
      throughputBudget: "cacheMissThroughput",
    },
    similarContextMiss: {
      name: `recommended context=similar cache miss (bust_cache, ${similarIds.length} products)`,
      paths: similarIds.map((id) => `${RECOMMENDED.path}?${key}&context=similar&platform_product_ids=${id}&bust_cache=yes`),
      budget: "similarMissP99",
      throughputBudget: "cacheMissThroughput",
    },
    similarProductsMiss: {
      name: `similar_products cache miss (bust_cache, ${similarIds.length} products)`,
      paths: similarIds.map((id) => `${SIMILAR_PRODUCTS.path}?${key}&platform_product_ids=${id}&bust_cache=yes`),
      budget: "similarMissP99",
      throughputBudget: "cacheMissThroughput",
    },
    trendingMiss: {
      name: "trending_products cache miss (bust_cache)",
      paths: [`${TRENDING_PRODUCTS.path}?${key}&bust_cache=yes`],
      budget: "trendingMissP99",
      throughputBudget: "cacheMissThroughput",
    },
    topSellersMiss: (() => {
      // Top sellers as widgets ask for them: the whole shop and single collections, default and 30-day windows.
      const paths = [null, ...collections.slice(0, TOP_SELLER_COLLECTIONS)].flatMap((collection) =>
        ["", "&window_days=30"].map(
          (window) =>
            `${TOP_SELLERS.path}?${key}${collection === null ? "" : `&platform_collection_id=${collection}`}${window}&bust_cache=yes`,
        ),
      );
      return {
        name: `top_sellers cache miss (bust_cache, ${paths.length} URLs)`,
        paths,
        budget: "topSellersMissP99" as const,
        throughputBudget: "cacheMissThroughput" as const,
      };
    })(),
    viewed: {
      name: `viewed (never cached, ${sessions.length} sessions)`,
      paths: sessions.map((uuid) => `${VIEWED.path}?${key}&uuid=${uuid}`),
      budget: "viewedMissP99",
    },
    viewedRelated: {
      name: `viewed-related (never cached, ${sessions.length} sessions)`,
      paths: sessions.map((uuid) => `${VIEWED_RELATED.path}?${key}&uuid=${uuid}`),
      budget: "viewedRelatedMissP99",
    },
    purchased: {
      name: `purchased (bust_cache, ${customers.length} customers)`,
      paths: customers.map((customer) => `${PURCHASED.path}?${key}&platform_customer_id=${customer}&bust_cache=yes`),
      budget: "purchasedMissP99",
      throughputBudget: "cacheMissThroughput",
    },
    quickView: {
      name: `quick-view keystrokes (${count(typed.length)}, ${count(new Set(typed).size)} distinct)`,
      paths: typed.map((query) => `POST ${quickViewPath(apiKey, query)}`),
      budget: "quickViewHttpP99",
    },
  };
}

function quickViewPath(apiKey: string, query: string): string {
  return `${QUICK_VIEW_SEARCH.path}?Service-Api-Key=${apiKey}&query=${encodeURIComponent(query)}`;
}

/** Requests of one storefront page view: 1 event, 2 widgets, 4 keystrokes. */
export const PAGE_VIEW_REQUESTS = 7;

/**
 * `pages` storefront page views, each PAGE_VIEW_REQUESTS requests in the order
 * a browser sends them: the view event, the two widgets of a product page
 * (bought-together for the product, related to the session's views), then
 * four keystrokes in the search box. Sessions are the merchant's own, products
 * its listed ones; nothing busts the cache, so widgets are hits or misses as
 * they would be.
 */
export function pageMixPaths(store: Store, merchantId: string, apiKey: string, pages: number): string[] {
  const listed = listedIds(store, merchantId);
  const sessions = [...viewSessions(store, merchantId, 5).keys()];
  const queries = titleQueries(store, merchantId, pages);
  const random = prng(61);
  const lines: string[] = [];
  for (let page = 0; page < pages; page++) {
    const uuid = sessions[page % sessions.length]!;
    const product = store.catalogue.product(merchantId, listed[Math.floor(random() * listed.length)]!)!;
    const query = queries[page % queries.length]!;
    lines.push(
      `POST ${ANALYTICS_EVENT.path}?key=${apiKey}&verb=viewed&uuid=${uuid}&platform_product_handle=${encodeURIComponent(product.handle)}`,
      `${RECOMMENDED.path}?key=${apiKey}&platform_product_ids=${product.id}`,
      `${VIEWED_RELATED.path}?key=${apiKey}&uuid=${uuid}`,
      ...[1, 2, 3, 4].map((length) => `POST ${quickViewPath(apiKey, query.slice(0, length))}`),
    );
  }
  return lines;
}
