// A custom source's answer: the rules (compiled once per stored version of the
// source) matched against the request's facts, their products gathered in
// rule order through the common list filters, pins placed, the fallback when
// the rules fill nothing, and metadata saying where each product came from.
import { shownProductIds, productListBody } from "../core/products/render.js";
import { withListOptions, type ListOptions } from "../core/products/query.js";
import { compileSource, type CompiledRule, type CompiledSource } from "../core/sources/compile.js";
import type { FieldName, StoredSource } from "../core/sources/definition.js";
import { placePins, planAnswer, reorderByMarks } from "../core/sources/plan.js";
import type { CustomSourceTask } from "../core/sources/task.js";
import { referenceWarnings } from "../core/sources/validate.js";
import type { MerchantId } from "../core/types.js";
import type { TaskResult } from "../pool/protocol.js";
import { merchantCatalog } from "../stores/catalog.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";
import { readFacts, requestProducts, type RequestProducts } from "./custom-source-facts.js";
import { builtInCandidates, ruleCandidates } from "./rule-products.js";

/** Products of a rule that boost and bury reorder: the first this many it returns (five times the largest limit); the rest follow as they come. */
export const REORDERED_WINDOW = 250;

/** A source ready to run: its rules compiled, the fields they read, and its warnings as of a catalogue version. */
interface ReadySource {
  version: number;
  compiled: CompiledSource;
  fields: ReadonlySet<FieldName>;
  warnings: { catalogueVersion: number; list: string[] } | null;
}

const readyByStore = new PerStore<string, ReadySource>();

/** The stored source compiled, once per version and worker. */
export function readySource(store: Store, merchant: MerchantId, stored: StoredSource): ReadySource {
  const memo = readyByStore.of(store);
  const key = `${merchant}\u0000${stored.source.id}`;
  const known = memo.get(key);
  if (known && known.version === stored.version) return known;
  const fields = new Set(stored.source.rules.flatMap((rule) => rule.if?.conditions.map((condition) => condition.field) ?? []));
  const ready = { version: stored.version, compiled: compileSource(stored.source), fields, warnings: null };
  memo.set(key, ready);
  return ready;
}

/** The products and collections the source names that the shop lacks, read again when the catalogue changes. */
function warningsOf(store: Store, merchant: MerchantId, ready: ReadySource): string[] {
  const catalogueVersion = store.version(merchant, "catalogue");
  if (ready.warnings?.catalogueVersion !== catalogueVersion) {
    const list = referenceWarnings(ready.compiled.source, {
      product: (id) => store.productRender.eligibility(merchant, id) !== undefined || store.catalogue.product(merchant, id) !== undefined,
      collection: (id) => store.catalogue.collection(merchant, id) !== undefined,
    });
    ready.warnings = { catalogueVersion, list };
  }
  return ready.warnings.list;
}

/** What a custom source answers, before rendering. */
export interface CustomSourceEvaluation {
  /** The products to show, in order. */
  ids: number[];
  rulesMatched: number[];
  /** Per product shown: the rule that returned or pinned it, or the fallback's name. */
  sources: Map<number, number | string>;
  warnings: string[];
}

/** The products a collection lists, none for an unknown one. */
function collectionMembers(store: Store, merchant: MerchantId, collectionId: number): ReadonlySet<number> {
  return new Set(store.catalogue.collection(merchant, collectionId)?.product_ids);
}

/** A rule's candidates, its boosted products first and buried ones last (within REORDERED_WINDOW). */
function* reordered(store: Store, task: CustomSourceTask, rule: CompiledRule, candidates: Iterable<number>): Generator<number> {
  const { boost, bury } = rule.rule;
  if (boost.tags.length + boost.collection_ids.length + bury.tags.length + bury.collection_ids.length === 0) {
    yield* candidates;
    return;
  }
  const marked = (marks: typeof boost) => {
    const sets: { has(id: number): boolean }[] = [
      ...marks.tags.map((tag) => store.productAttributes.carriers(task.merchantId, "tags", tag)),
      ...marks.collection_ids.map((id) => collectionMembers(store, task.merchantId, id)),
    ];
    return (id: number) => sets.some((set) => set.has(id));
  };
  const window: number[] = [];
  const rest = candidates[Symbol.iterator]();
  for (let next = rest.next(); !next.done; next = rest.next()) {
    window.push(next.value);
    if (window.length >= REORDERED_WINDOW) break;
  }
  yield* reorderByMarks(window, marked(boost), marked(bury));
  for (let next = rest.next(); !next.done; next = rest.next()) yield next.value;
}

export function evaluateCustomSource(store: Store, task: CustomSourceTask, ready: ReadySource): CustomSourceEvaluation {
  const { merchantId, list } = task;
  const catalog = merchantCatalog(store, merchantId);
  const products: RequestProducts = requestProducts(store, task);
  const plan = planAnswer(ready.compiled, readFacts(store, task, products, ready.fields));
  const excludedCollections = plan.excludedCollections.map((id) => collectionMembers(store, merchantId, id));
  const excluded = (id: number) => plan.excludedProducts.has(id) || excludedCollections.some((members) => members.has(id));
  const sources = new Map<number, number | string>();

  const pinnable = plan.pins.filter((pin) => !excluded(pin.productId));
  const shownPins = new Set(
    shownProductIds(
      catalog,
      pinnable.map((pin) => pin.productId),
      withListOptions(list, { limit: pinnable.length }),
    ),
  );
  const pins = pinnable.filter((pin) => shownPins.has(pin.productId));
  for (const pin of pins) sources.set(pin.productId, pin.rule);

  /** Candidates in order, each remembered with where it came from the first time it is offered. */
  function* offered(candidates: Iterable<number>, origin: number | string): Generator<number> {
    for (const id of candidates) {
      if (excluded(id) || shownPins.has(id)) continue;
      if (!sources.has(id)) sources.set(id, origin);
      yield id;
    }
  }
  function* fromRules(): Generator<number> {
    for (const rule of plan.filling)
      yield* offered(reordered(store, task, rule, ruleCandidates(store, task, products, rule.rule.return)), rule.index);
  }
  let fill = shownProductIds(catalog, fromRules(), list);
  const { fallback } = ready.compiled.source;
  if (fill.length === 0 && pins.length === 0 && fallback !== null) {
    fill = shownProductIds(catalog, offered(builtInCandidates(store, task, products, fallback), fallback), list);
  }
  const ids = placePins(pins, fill, list.limit);
  return { ids, rulesMatched: plan.matched, sources, warnings: warningsOf(store, merchantId, ready) };
}

/** The answer's bytes: `{data, metadata: {rules_matched, sources, warnings?}}`. */
export function renderCustomSource(
  store: Store,
  merchantId: MerchantId,
  list: ListOptions,
  evaluation: CustomSourceEvaluation,
): Uint8Array {
  const { ids, rulesMatched, sources, warnings } = evaluation;
  const metadata = {
    rules_matched: rulesMatched,
    sources: Object.fromEntries(ids.map((id) => [String(id), sources.get(id)!])),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
  return productListBody(merchantCatalog(store, merchantId), ids, list, { answerFields: { metadata } });
}

export function customSource(store: Store, task: CustomSourceTask): TaskResult {
  const stored = store.customSources.get(task.merchantId, task.sourceId);
  if (!stored) return { ok: false, code: "source_not_found", message: `No source ${task.sourceId}` };
  const evaluation = evaluateCustomSource(store, task, readySource(store, task.merchantId, stored));
  return { ok: true, body: renderCustomSource(store, task.merchantId, task.list, evaluation) };
}
