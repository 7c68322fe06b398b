// Trains a shop's bought-together model on its own orders: EASE (closed form)
// over every product the orders hold, plus each product's text neighbours
// (text-neighbours.ts), blended with the co-purchase lists. Nothing is taken
// from elsewhere: the most recent share of the orders is held out
// (carveBasketCases), EASE and the co-purchase lists are fitted on the earlier
// ones, and the penalty λ, the text neighbours' weight and the blend are
// chosen on the held-out cases, scored through the endpoint's own blend
// (blendBoughtTogether). The chosen λ is then fitted on all the orders, and
// each product keeps its best `neighbours` weights of EASE plus text.
//
// Bounds: a shop of more than `maxProducts` products keeps today's lists. The
// one matrix is 8·products² bytes (128 MB at 4,000) and each fit takes
// products³/2 multiply-adds, 16 pivots per pass over the matrix (Online
// Retail's 3,743 products: about 10 s of one core of a busy two-core machine;
// the demo shop's whole training, 13–18 s); the search
// fits at most `lambdas.length` penalties plus the final fit, usually four or
// five in all. The text neighbours score every pair of products, for the
// validation's products and again for all when they are kept: about 1 s each
// at 3,600 products. There is no sampling: the same orders always give the
// same model.
import { carveBasketCases, type BasketCase, type DatedBasket } from "../core/recs/basket-cases.js";
import { basketOf, basketUnit, copurchaseLists, type Basket, type WeightedIds } from "../core/recs/copurchase.js";
import { denseBaskets, easeBytes, easeWeights, topOfRow } from "../core/recs/ease.js";
import { blendBoughtTogether, typicalTopWeight, type FbtBlend } from "../core/recs/fbt-blend.js";
import { walkGrid } from "../core/recs/grid-walk.js";
import { hitRank } from "../core/recs/next-item-figures.js";
import { addWeighted, textNeighbourLists, type ProductVector } from "../core/recs/text-neighbours.js";
import type { MerchantId } from "../core/types.js";
import type { FbtFigures, FbtManifest, FbtSettings } from "../stores/fbt-model.js";
import type { Store } from "../stores/store.js";

export interface FbtTrainOptions {
  /** Shops with more products keep today's co-purchase lists. */
  maxProducts: number;
  /** Share of the orders held out for validation, the most recent. */
  validationShare: number;
  /** Below this many validation cases settings cannot be told apart: the shop keeps today's lists. */
  minValidationCases: number;
  /** EASE penalties tried, ascending: the search walks from the middle one towards the better neighbour (walkGrid). */
  lambdas: readonly number[];
  /** Weights of the text neighbours tried for each penalty besides 0 (EASE alone), on EASE's scale. */
  textWeights: readonly number[];
  /** Co-purchase shares tried for each penalty (1: today's lists alone). */
  copurchaseWeights: readonly number[];
  /** Weights kept per product. */
  neighbours: number;
  /** Asked every few hundred pivots of a fit: true stops the training (FbtTrainCancelled), having written nothing. */
  stop?: () => boolean;
}

export const DEFAULT_FBT_TRAIN_OPTIONS: FbtTrainOptions = {
  maxProducts: 4_000,
  validationShare: 0.1,
  minValidationCases: 200,
  lambdas: [12.5, 25, 50, 100, 200, 400, 800],
  textWeights: [0.05, 0.1, 0.2, 0.4],
  copurchaseWeights: [0, 0.2, 0.35, 0.5, 0.65, 0.8, 1],
  neighbours: 100,
};

/** A basket's products beyond this many are left out of EASE's counts: they bound a fit's counting to orders × 200². */
const MAX_EASE_BASKET_ITEMS = 200;
/** Top-K of the validation figures: the widget's usual size, as the evaluation protocol scores it. */
const K = 10;

export class FbtTrainCancelled extends Error {
  constructor() {
    super("the bought-together training was cancelled (the service is stopping)");
    this.name = "FbtTrainCancelled";
  }
}

/** What a training writes: the manifest (settings, figures, costs) and each covered product's list (EASE with its text neighbours). */
export interface FbtTraining {
  manifest: Omit<FbtManifest, "format" | "generation">;
  lists: Map<number, WeightedIds>;
}

/** An order as the training reads it: its products for EASE and the cases, and its co-purchase basket. */
interface TrainingOrder {
  dated: DatedBasket;
  copurchase: Basket;
}

/** Synchronous and CPU-bound: run it on a thread of its own (workers/fbt-train-entry.ts) or from the command line. */
export function trainFbt(store: Store, merchant: MerchantId, options: FbtTrainOptions = DEFAULT_FBT_TRAIN_OPTIONS): FbtTraining {
  const started = performance.now();
  // Every stored order, cancelled ones too, is what "grown since" is counted against (the trainer counts them all).
  const stored = store.catalogue.countOf(merchant, "orders");
  const orders = readOrders(store, merchant, options.maxProducts);
  let peakBytes = 0;
  const manifestOf = (settings: FbtSettings | null, skipped: string | null, validation: FbtManifest["validation"], covered: number) => ({
    settings,
    skipped,
    validation,
    orders: stored,
    products: covered,
    trainedAt: Date.now(),
    seconds: Math.round((performance.now() - started) / 100) / 10,
    peakBytes,
  });
  const skip = (skipped: string): FbtTraining => ({ manifest: manifestOf(null, skipped, null, 0), lists: new Map() });
  if (orders === null) return skip(`more than the ${options.maxProducts} products a trained model covers`);
  if (orders.length === 0) return skip("no orders");

  const { train, cases } = carveBasketCases(
    orders.map((order) => order.dated),
    options.validationShare,
  );
  if (cases.length < options.minValidationCases) return skip(`${cases.length} validation cases, fewer than ${options.minValidationCases}`);

  const checkpoint = () => {
    if (options.stop?.() === true) throw new FbtTrainCancelled();
  };
  const fit = (baskets: readonly DatedBasket[], lambda: number) => {
    const lists = easeLists(baskets, lambda, options.neighbours, checkpoint);
    peakBytes = Math.max(peakBytes, lists.bytes);
    return lists.lists;
  };

  const unit = basketUnit(train.at(-1)!.at, store.orders.copurchase);
  const validationCopurchase = copurchaseLists(
    orders.slice(0, train.length).map((order) => order.copurchase),
    store.orders.copurchase,
    unit,
  );
  const copurchaseFigures = score(cases, validationCopurchase, new Map(), null);
  // Until the shop's starter vectors are built (after an upgrade or a restore), text is left out rather than chosen on a part of them.
  const textWeights = store.derived.isBuilt(store.starterVectors, merchant) ? options.textWeights : [];
  const validationText =
    textWeights.length === 0
      ? new Map<number, WeightedIds>()
      : textNeighbourLists(productVectors(store, merchant, train), options.neighbours, checkpoint);
  const tuned = walkGrid(
    options.lambdas,
    (lambda) => {
      const ease = fit(train, lambda);
      const models = new Map<number, { lists: Map<number, WeightedIds>; scale: number }>();
      const trial = (textWeight: number, copurchaseWeight: number) => {
        let model = models.get(textWeight);
        if (model === undefined) {
          const lists = withTextNeighbours(ease, validationText, textWeight, options.neighbours);
          models.set(textWeight, (model = { lists, scale: scaleBetween(lists.values(), validationCopurchase.values()) }));
        }
        const blend = { copurchaseWeight, copurchaseScale: model.scale };
        return { lambda, textWeight, blend, figures: score(cases, validationCopurchase, model.lists, blend) };
      };
      // One step of coordinate descent (every pair of weights would score twice as many settings):
      // the co-purchase share with EASE alone, the text weight at that share, then the share again at that weight.
      let best = bestOf(options.copurchaseWeights.map((share) => trial(0, share)));
      best = bestOf([best, ...textWeights.map((weight) => trial(weight, best.blend.copurchaseWeight))]);
      if (best.textWeight === 0) return best;
      const { textWeight, blend } = best;
      return bestOf([
        best,
        ...options.copurchaseWeights.filter((share) => share !== blend.copurchaseWeight).map((share) => trial(textWeight, share)),
      ]);
    },
    (candidate) => objective(candidate.figures),
  );

  const all = orders.map((order) => order.dated);
  const lists = withTextNeighbours(
    fit(all, tuned.lambda),
    tuned.textWeight === 0 ? new Map() : textNeighbourLists(productVectors(store, merchant, all), options.neighbours, checkpoint),
    tuned.textWeight,
    options.neighbours,
  );
  const storedCopurchase = [...lists.keys()].flatMap((id) => store.orders.copurchaseNeighbours(merchant, id) ?? []);
  const settings: FbtSettings = {
    lambda: tuned.lambda,
    textWeight: tuned.textWeight,
    blend: { copurchaseWeight: tuned.blend.copurchaseWeight, copurchaseScale: scaleBetween(lists.values(), storedCopurchase) },
  };
  const validation = { copurchase: copurchaseFigures, tuned: tuned.figures, cases: cases.length };
  return { manifest: manifestOf(settings, null, validation, lists.size), lists };
}

/**
 * The merchant's orders that hold products, oldest first; null as soon as
 * they hold more than `maxProducts` products, so that a shop too big for a
 * model is not read whole (again at every look that finds it due).
 */
function readOrders(store: Store, merchant: MerchantId, maxProducts: number): TrainingOrder[] | null {
  const orders: TrainingOrder[] = [];
  const products = new Set<number>();
  for (const order of store.orders.allOrders(merchant)) {
    const copurchase = basketOf(order, store.orders.copurchase);
    if (copurchase === null) continue;
    const items = [...new Set(order.line_items.map((line) => line.product_id))];
    for (const id of items) products.add(id);
    if (products.size > maxProducts) return null;
    orders.push({ dated: { items, at: Date.parse(order.created_at) }, copurchase });
  }
  return orders.sort((a, b) => a.dated.at - b.dated.at);
}

/** Each product's best EASE weights (product ids), fitted on these baskets, and the bytes the fit held. */
function easeLists(
  baskets: readonly DatedBasket[],
  lambda: number,
  neighbours: number,
  checkpoint: () => void,
): { lists: Map<number, WeightedIds>; bytes: number } {
  const { items: productIds, baskets: weighted } = denseBaskets(baskets.map(({ items }) => items.slice(0, MAX_EASE_BASKET_ITEMS)));
  const size = productIds.length;
  const weights = easeWeights(size, weighted, lambda, checkpoint);
  const lists = new Map<number, WeightedIds>();
  for (let i = 0; i < size; i++) {
    const top = topOfRow(weights, size, i, neighbours);
    if (top.indices.length > 0) lists.set(productIds[i]!, { ids: top.indices.map((j) => productIds[j]!), weights: top.weights });
  }
  return { lists, bytes: easeBytes(size) };
}

/** The starter vectors of the products these baskets hold (a product without one has no text neighbours). */
function productVectors(store: Store, merchant: MerchantId, baskets: readonly DatedBasket[]): ProductVector[] {
  const ids = [...new Set(baskets.flatMap(({ items }) => items))].sort((a, b) => a - b);
  return ids.flatMap((id) => {
    const vector = store.starterVectors.vector(merchant, id);
    return vector === undefined ? [] : [{ id, vector }];
  });
}

/**
 * Each product's EASE list plus its text neighbours at `weight` of EASE's
 * scale (the lists' typical best weights made equal), its best `neighbours`
 * kept. At weight 0 these are the EASE lists themselves.
 */
function withTextNeighbours(
  ease: ReadonlyMap<number, WeightedIds>,
  text: ReadonlyMap<number, WeightedIds>,
  weight: number,
  neighbours: number,
): Map<number, WeightedIds> {
  if (weight === 0) return new Map(ease);
  const factor = weight * scaleBetween(ease.values(), text.values());
  const lists = new Map<number, WeightedIds>();
  for (const id of new Set([...ease.keys(), ...text.keys()])) {
    const list = addWeighted(ease.get(id), text.get(id), factor, neighbours);
    if (list.ids.length > 0) lists.set(id, list);
  }
  return lists;
}

/** What brings one model's scores to another's scale, here co-purchase's or text's to EASE's (1 when either model has no list). */
function scaleBetween(ease: Iterable<WeightedIds>, other: Iterable<WeightedIds>): number {
  const easeTop = typicalTopWeight(ease);
  const otherTop = typicalTopWeight(other);
  return easeTop > 0 && otherTop > 0 ? easeTop / otherTop : 1;
}

/** HR@10 and NDCG@10 of the cases, scored as the endpoint blends the lists. */
function score(
  cases: readonly BasketCase[],
  copurchase: ReadonlyMap<number, WeightedIds>,
  ease: ReadonlyMap<number, WeightedIds>,
  blend: FbtBlend | null,
): FbtFigures {
  let hits = 0;
  let gain = 0;
  for (const { query, target } of cases) {
    const inputs = query.map((id) => ({ ease: ease.get(id), copurchase: copurchase.get(id) }));
    const rank = hitRank(blendBoughtTogether(inputs, blend, new Set(query)), target);
    if (rank < 0 || rank >= K) continue;
    hits++;
    gain += 1 / Math.log2(rank + 2);
  }
  return { hr: hits / cases.length, ndcg: gain / cases.length };
}

/** The candidate whose figures score best by the objective (ties: the first). */
function bestOf<T extends { figures: FbtFigures }>(candidates: readonly T[]): T {
  return candidates.reduce((best, next) => (objective(next.figures) > objective(best.figures) ? next : best));
}

/** What the settings are chosen by: HR@10 and NDCG@10 alike. */
export function objective(figures: FbtFigures): number {
  return figures.hr + figures.ndcg;
}
