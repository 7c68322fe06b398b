// Quick-view search as a worker runs it: rank over the stored index (or reuse
// a ranking of the same query) by the merchant's search settings, then build
// the spec's result for the few products shown.
import { jsonBytes } from "../core/json.js";
import { MAX_LIMIT } from "../core/params/parse.js";
import { marketForCountry, withMarketPrices } from "../core/products/market.js";
import { DEFAULT_RANKING, planQuery } from "../core/search/query-plan.js";
import { rankProducts } from "../core/search/ranker.js";
import type { QuickViewRequest, QuickViewTask } from "../core/search/request.js";
import { toCollectionSuggestion, toSuggestion, type Suggestion } from "../core/search/suggestion.js";
import type { MarketSettings, MerchantId } from "../core/types.js";
import type { TaskResult } from "../pool/protocol.js";
import { collectionHeading, merchantCatalog } from "../stores/catalog.js";
import type { SearchIndexView } from "../stores/search-index-view.js";
import type { Store } from "../stores/store.js";
import { collectionIndexOf } from "./collection-index.js";
import { merchandisingFor, withPins, type SearchMerchandising } from "./merchandising.js";
import { rankingCacheOf } from "./ranking-cache.js";

/**
 * Where meaning-based candidates come from when words alone find fewer
 * products than asked for ("couch" → sofas): product ids, best first. The
 * embedding model provides one; without it, search is lexical only.
 */
export type SemanticCandidates = (merchantId: MerchantId, query: string, k: number) => Promise<number[]>;

export interface QuickViewDependencies {
  semantic: SemanticCandidates | null;
}

export const NO_SEMANTIC_FALLBACK: QuickViewDependencies = { semantic: null };

/** Collections shown beside the products. */
const COLLECTION_SUGGESTIONS = 5;

const marketCatalogues = new WeakMap<MarketSettings, Set<number>>();

/** Whether a product may appear in this request: market catalogue, collection filter, the request's and the merchant's exclusions. */
function eligibility(
  store: Store,
  merchant: MerchantId,
  request: QuickViewRequest,
  market: MarketSettings | null,
  merchandising: SearchMerchandising | null,
): ((id: number) => boolean) | undefined {
  const checks: ((id: number) => boolean)[] = [];
  if (merchandising) {
    const excluded = merchandising.excluded();
    checks.push((id) => !excluded(id));
  }
  if (market !== null && market.product_ids !== null) {
    let catalogue = marketCatalogues.get(market);
    if (!catalogue) {
      catalogue = new Set(market.product_ids);
      marketCatalogues.set(market, catalogue);
    }
    const inMarket = catalogue;
    checks.push((id) => inMarket.has(id));
  }
  if (request.collectionIds !== null) {
    const allowed = new Set(request.collectionIds.flatMap((id) => store.catalogue.collection(merchant, id)?.product_ids ?? []));
    checks.push((id) => allowed.has(id));
  }
  const hidden = new Set(request.excludeProductIds);
  for (const { collectionId, hideProducts } of request.excludeCollections) {
    if (hideProducts) for (const id of store.catalogue.collection(merchant, collectionId)?.product_ids ?? []) hidden.add(id);
  }
  if (hidden.size > 0) checks.push((id) => !hidden.has(id));
  if (checks.length === 0) return undefined;
  return (id) => checks.every((check) => check(id));
}

/**
 * Product ids for a request, best first, at most k: the ranking the endpoint
 * shows and `aisle eval search` measures. Rankings are reused per query,
 * eligibility, catalogue, rankings and search settings, so repeated keystroke
 * prefixes cost a lookup. A query holding an excluded term finds nothing;
 * pinned products the request may show come first.
 */
export function searchProductIds(
  store: Store,
  index: SearchIndexView,
  request: QuickViewRequest,
  k: number,
  merchandising: SearchMerchandising | null = merchandisingFor(store, index.merchant, request.query),
): number[] {
  if (merchandising?.rules.blocked) return [];
  const { plan, cacheKey, cacheable, eligible } = rankingContext(store, index, request, k, merchandising);
  const cache = rankingCacheOf(store, index.merchant);
  const cached = cacheable ? cache.get(cacheKey) : undefined;
  if (cached) return cached;
  const allowed = eligible();
  const outOfStock = request.hideOutOfStock ? "hide" : "last";
  let ranked = rankProducts(index, plan, { k, eligible: allowed, outOfStock, boosted: merchandising?.rules.boosted });
  const pinned = merchandising?.rules.pinned ?? [];
  if (pinned.length > 0) ranked = withPins(pinned, ranked, k, pinnable(store, index, request, allowed));
  if (cacheable) cache.set(cacheKey, ranked);
  return ranked;
}

/** Whether a product the ranker did not rank may still be shown: searchable (published), eligible, and in stock when asked. */
function showable(index: SearchIndexView, request: QuickViewRequest, eligible: ((id: number) => boolean) | undefined) {
  return (id: number): boolean => {
    if (eligible && !eligible(id)) return false;
    const { indexed, available } = index.searchable(id);
    return indexed && (available || !request.hideOutOfStock);
  };
}

/** A pinned product must also not be tagged exclude_service: the merchant's lists never show those. */
function pinnable(store: Store, index: SearchIndexView, request: QuickViewRequest, eligible: ((id: number) => boolean) | undefined) {
  const catalog = merchantCatalog(store, index.merchant);
  const shows = showable(index, request, eligible);
  return (id: number): boolean => shows(id) && catalog.eligibility(id)?.excludeService === false;
}

/** What a ranking depends on (its cache key) and, lazily, who may appear in it. */
function rankingContext(
  store: Store,
  index: SearchIndexView,
  request: QuickViewRequest,
  k: number,
  merchandising: SearchMerchandising | null,
) {
  const catalog = merchantCatalog(store, index.merchant);
  const market = marketForCountry(catalog.markets(), request.countryCode);
  const plan = planQuery(index, request.query, DEFAULT_RANKING, merchandising?.synonyms ?? null);
  const cacheKey = JSON.stringify([
    plan.key,
    plan.code,
    k,
    market?.id ?? null,
    request.collectionIds,
    request.excludeProductIds,
    request.excludeCollections,
    request.hideOutOfStock,
    // Queries of the same stems may match other keyword groups ("gift" and "gifts").
    merchandising?.rules.key ?? null,
  ]);
  return {
    plan,
    cacheKey,
    // Only page-sized rankings are kept: deep ones (evaluations) would crowd out keystrokes.
    cacheable: k <= MAX_LIMIT,
    eligible: () => eligibility(store, index.merchant, request, market, merchandising),
  };
}

/**
 * The lexical ranking, topped up by meaning when words find fewer than k
 * products ("couch" → sofas). The topped-up list is cached beside the lexical
 * one, so a repeated keystroke does not embed the query again.
 */
export async function searchWithFallback(
  store: Store,
  index: SearchIndexView,
  request: QuickViewRequest,
  k: number,
  deps: QuickViewDependencies,
  merchandising: SearchMerchandising | null = merchandisingFor(store, index.merchant, request.query),
): Promise<number[]> {
  const ranked = searchProductIds(store, index, request, k, merchandising);
  if (ranked.length >= k || deps.semantic === null || request.query.trim() === "" || merchandising?.rules.blocked) return ranked;
  const { cacheKey, cacheable, eligible: eligibleFor } = rankingContext(store, index, request, k, merchandising);
  const key = `meaning|${cacheKey}`;
  // Taken before the model is awaited: the topped-up list goes with the catalogue it was ranked on.
  const cache = rankingCacheOf(store, index.merchant);
  const cached = cacheable ? cache.get(key) : undefined;
  if (cached) return cached;
  const shows = showable(index, request, eligibleFor());
  const topped = [...ranked];
  const seen = new Set(ranked);
  for (const id of await deps.semantic(index.merchant, request.query, k + ranked.length)) {
    if (topped.length >= k) break;
    // Held to the ranker's rules: searchable, eligible, and in stock when asked.
    if (seen.has(id) || !shows(id)) continue;
    seen.add(id);
    topped.push(id);
  }
  if (cacheable) cache.set(key, topped);
  return topped;
}

export async function quickView(
  store: Store,
  task: QuickViewTask,
  deps: QuickViewDependencies = NO_SEMANTIC_FALLBACK,
): Promise<TaskResult> {
  const merchant = store.catalogue.merchant(task.merchantId);
  if (!merchant) return { ok: false, code: "merchant_not_found", message: `no merchant ${task.merchantId}` };
  const { request } = task;
  const index = store.searchIndex.view(merchant.id);
  const catalog = merchantCatalog(store, merchant.id);
  const market = marketForCountry(catalog.markets(), request.countryCode);
  const merchandising = merchandisingFor(store, merchant.id, request.query);

  const productSuggestions: Suggestion[] = [];
  for (const id of await searchWithFallback(store, index, request, request.limit, deps, merchandising)) {
    const stored = catalog.product(id);
    if (!stored) continue;
    const product = withMarketPrices(stored, market, catalog.marketPrice.bind(catalog));
    productSuggestions.push(toSuggestion(product, merchant.domain, catalog.metafields("product", id)));
  }

  const excludedCollections = new Set(request.excludeCollections.map((entry) => entry.collectionId));
  for (const id of merchandising?.excludedCollections ?? []) excludedCollections.add(id);
  const collections = [];
  // A query holding an excluded term answers nothing at all.
  const collectionIds = merchandising?.rules.blocked
    ? []
    : collectionIndexOf(store, merchant.id).search(request.query, COLLECTION_SUGGESTIONS + excludedCollections.size);
  for (const id of collectionIds) {
    if (collections.length >= COLLECTION_SUGGESTIONS || excludedCollections.has(id)) continue;
    const heading = collectionHeading(store, merchant.id, id);
    if (heading) collections.push(toCollectionSuggestion(heading, merchant.domain));
  }

  const redirect = merchandising?.rules.redirect ?? null;
  const body = {
    successful: true,
    // data.redirect only when a keyword group of the query has one: a search box may jump there.
    data: { productSuggestions, collections, query: request.query, ...(redirect === null ? {} : { redirect }) },
    status: 200,
    errorMessage: null,
  };
  return { ok: true, body: jsonBytes(body, request.pretty) };
}
