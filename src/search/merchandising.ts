// A merchant's search merchandising as a worker applies it: the settings
// compiled once per version of them, kept for the merchants searched most
// recently, and per search the rules its query matches and the products it
// may not show.
import { compileSearchSettings, type CompiledSearchSettings, type QueryRules } from "../core/search/merchandising/compile.js";
import type { SynonymTable } from "../core/search/merchandising/synonyms.js";
import type { MerchantId } from "../core/types.js";
import { RecentMap } from "../stores/recent-map.js";
import type { Store } from "../stores/store.js";

/** Merchants whose compiled settings a worker keeps (a large record compiles in about a millisecond). */
const COMPILED_MERCHANTS = 256;

interface Compiled {
  version: number;
  /** null: the settings set nothing. */
  settings: CompiledSearchSettings | null;
  /** The products of the excluded collections, read once per catalogue version. */
  collectionProducts: { catalogueVersion: number; ids: ReadonlySet<number> } | null;
}

const compiledByStore = new WeakMap<Store, RecentMap<MerchantId, Compiled>>();

function compiledFor(store: Store, merchant: MerchantId): Compiled {
  let memo = compiledByStore.get(store);
  if (!memo) compiledByStore.set(store, (memo = new RecentMap(COMPILED_MERCHANTS)));
  const known = memo.get(merchant);
  // The version alone is a small read; the record is read only when it moved.
  if (known && known.version === store.searchSettings.versions.of(merchant)) return known;
  const { settings, version } = store.searchSettings.get(merchant);
  const compiled: Compiled = { version, settings: compileSearchSettings(settings), collectionProducts: null };
  memo.set(merchant, compiled);
  return compiled;
}

/** What merchandising does to one search. */
export interface SearchMerchandising {
  rules: QueryRules;
  synonyms: SynonymTable | null;
  /** Never suggested beside the products. */
  excludedCollections: ReadonlySet<number>;
  /** Products the search may not show: hidden for the query, or excluded by id, collection or tag. Built when a ranking needs it. */
  excluded(): (productId: number) => boolean;
}

/** The merchandising of a merchant's search for `query`; null when the merchant's settings set nothing. */
export function merchandisingFor(store: Store, merchant: MerchantId, query: string): SearchMerchandising | null {
  const compiled = compiledFor(store, merchant);
  const { settings } = compiled;
  if (settings === null) return null;
  const rules = settings.rulesFor(query);
  return {
    rules,
    synonyms: settings.synonyms,
    excludedCollections: settings.excludedCollections,
    excluded: () => {
      const inCollections = excludedCollectionProducts(store, merchant, compiled, settings);
      const tagged = settings.excludedTags.map((tag) => store.productAttributes.carriers(merchant, "tags", tag));
      const { hidden } = rules;
      const { excludedProducts } = settings;
      return (id) => hidden.has(id) || excludedProducts.has(id) || inCollections.has(id) || tagged.some((carriers) => carriers.has(id));
    },
  };
}

function excludedCollectionProducts(
  store: Store,
  merchant: MerchantId,
  compiled: Compiled,
  settings: CompiledSearchSettings,
): ReadonlySet<number> {
  const catalogueVersion = store.version(merchant, "catalogue");
  if (compiled.collectionProducts?.catalogueVersion !== catalogueVersion) {
    const ids = new Set<number>();
    for (const collectionId of settings.excludedCollections) {
      for (const id of store.catalogue.collection(merchant, collectionId)?.product_ids ?? []) ids.add(id);
    }
    compiled.collectionProducts = { catalogueVersion, ids };
  }
  return compiled.collectionProducts.ids;
}

/** The pinned products `shows` lets through, in their order, then the ranking without them: `k` in all. */
export function withPins(pinned: readonly number[], ranked: readonly number[], k: number, shows: (productId: number) => boolean): number[] {
  const pins = pinned.filter(shows).slice(0, k);
  const pinnedSet = new Set(pins);
  return [...pins, ...ranked.filter((id) => !pinnedSet.has(id))].slice(0, k);
}
