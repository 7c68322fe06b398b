// What the background jobs that learn from each shop's own data share (the
// viewed-related tuning, the bought-together training): a look every while
// for the first merchant that is due, one job at a time on its own thread, a
// failed merchant tried again only after a pause, and a stop that asks the job
// under way to end.
import type { MerchantId } from "../core/types.js";
import type { Store } from "../stores/store.js";

export interface TunerLog {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A merchant whose job failed is tried again after this long. */
const RETRY_AFTER_MS = 3_600_000;

export abstract class ShopJob {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  /** Merchants whose last job failed: when each may be tried again. */
  private readonly retryAt = new Map<MerchantId, number>();
  /** Aborted by close(): the job under way is asked to stop. */
  protected readonly stopping = new AbortController();

  constructor(
    protected readonly store: Store,
    protected readonly log: TunerLog,
    lookEveryMs: number,
    /** What the logs call a job ("bought-together training", "viewed-related tuning"). */
    private readonly name: string,
  ) {
    this.timer = setInterval(() => this.look(), lookEveryMs);
    this.timer.unref();
  }

  /** Whether the merchant's data has grown enough to run the job again (or run it a first time). */
  protected abstract due(merchant: MerchantId): boolean;
  /** The job for one merchant, on its own thread; throws `cancelled` errors when stopped. */
  protected abstract run(merchant: MerchantId): Promise<void>;
  /** Whether an error is the job ending because it was asked to stop. */
  protected abstract cancelled(error: unknown): boolean;

  /** Starts the job of the first merchant that is due, unless one is under way. */
  look(): void {
    if (this.running !== null || this.stopping.signal.aborted) return;
    const due = this.store.catalogue.listMerchants().find(({ id }) => (this.retryAt.get(id) ?? 0) <= Date.now() && this.due(id));
    if (due === undefined) return;
    this.running = this.runOnce(due.id).finally(() => (this.running = null));
  }

  /** Resolves once the job under way, if any, has ended (tests). */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Stops looking and stops the job under way; resolves once its thread has exited. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort();
    await this.running;
  }

  private async runOnce(merchant: MerchantId): Promise<void> {
    try {
      await this.run(merchant);
      this.retryAt.delete(merchant);
    } catch (error) {
      if (this.cancelled(error)) this.log.info(`${this.name} stopped for the shutdown`, { merchant });
      else {
        this.retryAt.set(merchant, Date.now() + RETRY_AFTER_MS);
        this.log.error(`${this.name} failed`, { merchant, error: String((error as Error)?.stack ?? error) });
      }
    }
  }
}
