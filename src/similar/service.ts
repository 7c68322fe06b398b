// Keeps every merchant's similar-products model in step with its catalogue,
// from the HTTP process: a merchant without a model, or whose model file the
// refresh thread refused, gets one trained (on its own thread); changed
// products are embedded again and the lists they reach patched (on the one
// refresh thread; pool workers only read). Work for one merchant runs one job
// at a time, in order, so a merchant's model has one writer at a time.
import type { MerchantId } from "../core/types.js";
import type { ModelManifest } from "../stores/similar.js";
import type { Store } from "../stores/store.js";
import type { BuildProgress } from "./build.js";
import { BuildCancelled } from "./cancellation.js";
import { RefreshThread } from "./refresh-thread.js";
import { trainInWorker } from "./trainer.js";

export interface SimilarLog {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Changes arriving this close together are refreshed in one task (an import sends many batches). */
const REFRESH_DELAY_MS = 50;
/** A shop without a model is trained once its catalogue has been quiet this long. */
const FIRST_TRAINING_DELAY_MS = 1_000;

export class SimilarModels {
  private readonly queues = new Map<MerchantId, Promise<void>>();
  private readonly pendingChanges = new Map<MerchantId, Set<number>>();
  private readonly timers = new Map<MerchantId, NodeJS.Timeout>();
  private readonly refresher: RefreshThread;
  /** The model version this service trained because the refresh thread refused the one before, per merchant: retrained once, not again and again. */
  private readonly retrainedFor = new Map<MerchantId, string>();
  /** Aborted by close(): a training under way stops at its next step instead of holding up the shutdown. */
  private readonly stopping = new AbortController();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    private readonly log: SimilarLog,
    private readonly onTrained: (seconds: number) => void = () => {},
  ) {
    this.refresher = new RefreshThread(dataDir);
    store.catalogue.onProductsChanged((merchant, ids) => this.productsChanged(merchant, ids));
  }

  /**
   * At start: train shops that have products but no model; have the refresh
   * thread find, and embed, products added or deleted while the service was
   * down (and lay out the rows of a model stored before rows were). Reads no
   * more than a product id per merchant here: at 1M products, even the set
   * difference of ids held up the HTTP thread for seconds.
   */
  reconcile(): void {
    for (const { id: merchant } of this.store.catalogue.listMerchants()) {
      if (this.store.catalogue.productIdsAfter(merchant, null, 1).length === 0) continue;
      if (!this.store.similar.manifest(merchant)) void this.train(merchant).catch(() => {});
      else void this.refresh(merchant, [], true).catch(() => {});
    }
  }

  /** A full build (text + behaviour), queued behind the merchant's other model work. */
  train(merchant: MerchantId, onProgress?: (progress: BuildProgress) => void): Promise<ModelManifest> {
    return this.enqueue(merchant, () => this.trainNow(merchant, onProgress));
  }

  /** The build itself, for a job that already holds the merchant's turn. */
  private async trainNow(merchant: MerchantId, onProgress?: (progress: BuildProgress) => void): Promise<ModelManifest> {
    const started = performance.now();
    const request = { dataDir: this.dataDir, merchantId: merchant, useBehaviour: true };
    const manifest = await trainInWorker(request, onProgress, this.stopping.signal);
    this.onTrained((performance.now() - started) / 1000);
    this.log.info("similar-products model trained", {
      merchant,
      version: manifest.version,
      products: manifest.training.products,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    });
    return manifest;
  }

  productsChanged(merchant: MerchantId, ids: number[]): void {
    if (this.closed) return;
    const pending = this.pendingChanges.get(merchant) ?? new Set<number>();
    for (const id of ids) pending.add(id);
    this.pendingChanges.set(merchant, pending);
    if (this.timers.has(merchant)) return;
    const hasModel = this.store.similar.manifest(merchant) !== undefined;
    this.timers.set(
      merchant,
      setTimeout(() => this.flush(merchant), hasModel ? REFRESH_DELAY_MS : FIRST_TRAINING_DELAY_MS),
    );
  }

  /** Starts the work for a merchant's pending changes: a refresh, or the first training. */
  private flush(merchant: MerchantId): void {
    clearTimeout(this.timers.get(merchant));
    this.timers.delete(merchant);
    const changed = [...(this.pendingChanges.get(merchant) ?? [])];
    this.pendingChanges.delete(merchant);
    // Failures are logged by enqueue; nobody awaits this work.
    if (this.store.similar.manifest(merchant)) void this.refresh(merchant, changed).catch(() => {});
    else void this.train(merchant).catch(() => {});
  }

  /** `reconcile`: the refresh thread also takes the products the model is out of step with (see reconcile). */
  private refresh(merchant: MerchantId, productIds: number[], reconcile = false): Promise<void> {
    return this.enqueue(merchant, async () => {
      const summary = await this.refresher.refresh(merchant, productIds, reconcile);
      if (summary.refused === null) return;
      // The refresh thread read the latest state; so does this check.
      this.store.refreshSnapshot();
      const stored = this.store.similar.manifest(merchant)?.version;
      // A model trained for this very reason refused too (a disk that keeps failing): another training would fail the same way.
      if (stored !== undefined && this.retrainedFor.get(merchant) === stored) {
        this.log.error("the similar-products model trained to replace a refused one was refused too; not retraining again", { merchant });
        return;
      }
      // The refresh thread logged why. Without a usable model the shop is one that never had a model, and gets one
      // trained; in this job's turn, so the refreshes queued behind it meet the new model.
      this.log.info("training a new similar-products model: the refresh thread refused the stored one's file", { merchant });
      const trained = await this.trainNow(merchant);
      this.retrainedFor.set(merchant, trained.version);
    });
  }

  private enqueue<T>(merchant: MerchantId, job: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(merchant) ?? Promise.resolve();
    // Work whose turn comes after close() is dropped: the next start reconciles models with the catalogue.
    const run = previous.then(() => (this.closed ? Promise.reject(new BuildCancelled()) : job()));
    const settled = run.then(
      () => {},
      (error: unknown) => {
        if (error instanceof BuildCancelled)
          this.log.info("similar-products model work stopped for the shutdown; the next start takes it up again", { merchant });
        else this.log.error("similar-products model update failed", { merchant, error: String((error as Error)?.stack ?? error) });
      },
    );
    this.queues.set(merchant, settled);
    return run;
  }

  /** Resolves when every change so far has been applied (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.timers.size > 0 || this.queues.size > 0) {
      for (const merchant of [...this.timers.keys()]) this.flush(merchant);
      const queues = [...this.queues];
      await Promise.all(queues.map(([, queue]) => queue));
      for (const [merchant, queue] of queues) if (this.queues.get(merchant) === queue) this.queues.delete(merchant);
    }
  }

  /**
   * Stops taking changes, stops a training under way at its next step (it
   * writes nothing then) and drops queued work; resolves once the work in
   * flight has ended and the refresh thread has closed its store. A refresh
   * already running finishes.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.stopping.abort();
    await Promise.all(this.queues.values());
    await this.refresher.close();
  }
}
