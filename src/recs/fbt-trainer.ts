// Keeps each shop's bought-together model trained on its own orders, from the
// HTTP process: every look, a merchant whose orders have grown enough since
// its last training (fbtTrainingDue) is trained on a thread of its own
// (trainFbtInThread), one merchant at a time. Between trainings the
// co-purchase lists the model blends with follow every order and cart.
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";
import { trainFbtInThread } from "./fbt-train-thread.js";
import { FbtTrainCancelled } from "./train-fbt.js";
import type { TunerLog } from "./viewed-related-tuner.js";

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
/** A training that failed is tried again after this long (it would likely fail the same way at once). */
const RETRY_AFTER_MS = 3_600_000;

/** Whether a shop with `orders` orders is due a training, `last` the orders at its last one (undefined: never trained). */
export function fbtTrainingDue(orders: number, last: number | undefined): boolean {
  if (orders < MIN_ORDERS_TO_TRAIN) return false;
  return last === undefined || orders >= GROWTH_TO_RETRAIN * last || orders - last >= ORDERS_TO_RETRAIN;
}

export class FbtTrainer {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  /** Merchants whose last training failed: when each may be tried again. */
  private readonly retryAt = new Map<MerchantId, number>();
  /** Aborted by close(): a training under way stops within a few hundred pivots. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    private readonly log: TunerLog,
    lookEveryMs: number,
  ) {
    this.timer = setInterval(() => this.look(), lookEveryMs);
    this.timer.unref();
  }

  /** Starts training the first merchant that is due, unless a training is under way. */
  look(): void {
    if (this.running !== null || this.stopping.signal.aborted) return;
    const due = this.store.catalogue.listMerchants().find(({ id }) => this.isDue(id));
    if (due === undefined) return;
    this.running = this.train(due.id).finally(() => (this.running = null));
  }

  /** Resolves once the training under way, if any, has ended (tests). */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Stops looking and stops a training under way; resolves once its thread has exited. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort();
    await this.running;
  }

  private isDue(merchant: MerchantId): boolean {
    if ((this.retryAt.get(merchant) ?? 0) > Date.now()) return false;
    return fbtTrainingDue(this.store.catalogue.countOf(merchant, "orders"), this.store.fbtModel.manifest(merchant)?.orders);
  }

  private async train(merchant: MerchantId): Promise<void> {
    try {
      const manifest = await trainFbtInThread(this.dataDir, merchant, this.stopping.signal);
      this.retryAt.delete(merchant);
      this.log.info("bought-together trained on the shop's orders", {
        merchant,
        orders: manifest.orders,
        products: manifest.products,
        settings: manifest.settings,
        skipped: manifest.skipped,
        validation: manifest.validation,
        seconds: manifest.seconds,
      });
    } catch (error) {
      if (error instanceof FbtTrainCancelled) this.log.info("bought-together training stopped for the shutdown", { merchant });
      else {
        this.retryAt.set(merchant, Date.now() + RETRY_AFTER_MS);
        this.log.error("bought-together training failed", { merchant, error: String((error as Error)?.stack ?? error) });
      }
    }
  }
}
