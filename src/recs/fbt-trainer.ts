// Keeps each shop's bought-together model trained on its own orders, from the
// HTTP process: every look, a merchant whose orders have grown enough since
// its last training (fbtTrainingDue) is trained on a thread of its own
// (trainFbtInThread), one merchant at a time. Between trainings the
// co-purchase lists the model blends with follow every order and cart.
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { trainFbtInThread } from "./fbt-train-thread.js";
import { ShopJob, type TunerLog } from "./shop-job.js";
import { FbtTrainCancelled } from "./train-fbt.js";

/**
 * Orders a shop has before its first training: a tenth are held out, and
 * orders of two known products or more among them make the 200 validation
 * cases a training needs (a shop of small baskets may still fall short, and
 * keeps today's lists until it has grown).
 */
export const MIN_ORDERS_TO_TRAIN = 3_000;
/** A shop is trained again once its orders have grown this much since the last training… */
const GROWTH_TO_RETRAIN = 1.25;
/** …or by this many. */
const ORDERS_TO_RETRAIN = 20_000;
/**
 * Whether a shop with `orders` orders is due a training, `last` the orders at
 * its last one (undefined: never trained). A model an earlier build wrote in
 * an earlier format (`outdated`) is trained again at once.
 */
export function fbtTrainingDue(orders: number, last: number | undefined, outdated = false): boolean {
  if (orders < MIN_ORDERS_TO_TRAIN) return false;
  return last === undefined || outdated || orders >= GROWTH_TO_RETRAIN * last || orders - last >= ORDERS_TO_RETRAIN;
}

export class FbtTrainer extends ShopJob {
  constructor(
    store: Store,
    private readonly dataDir: string,
    log: TunerLog,
    lookEveryMs: number,
  ) {
    super(store, log, lookEveryMs, "bought-together training");
  }

  protected due(merchant: MerchantId): boolean {
    const { fbtModel } = this.store;
    return fbtTrainingDue(
      this.store.catalogue.countOf(merchant, "orders"),
      fbtModel.manifest(merchant)?.orders,
      fbtModel.writtenInEarlierFormat(merchant),
    );
  }

  protected async run(merchant: MerchantId): Promise<void> {
    const manifest = await trainFbtInThread(this.dataDir, merchant, this.stopping.signal);
    this.log.info("bought-together trained on the shop's orders", {
      merchant,
      orders: manifest.orders,
      products: manifest.products,
      settings: manifest.settings,
      skipped: manifest.skipped,
      validation: manifest.validation,
      seconds: manifest.seconds,
    });
  }

  protected cancelled(error: unknown): boolean {
    return error instanceof FbtTrainCancelled;
  }
}
