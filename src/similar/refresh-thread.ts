// The one thread that refreshes trained similar-products models: pool workers
// only read the vectors and lists it writes. Started with the first refresh and
// kept (its copy of each refreshed model makes the next refresh cheap), at
// background priority like a training, so a refresh never sits in front of a
// request. Requests are answered in order; SimilarModels sends one merchant's
// work one job at a time.
import { Worker } from "node:worker_threads";
import type { MerchantId } from "../core/types.js";
import { compiledWorkerFile } from "../pool/worker-file.js";
import type { RefreshSummary } from "./refresh.js";

/** What the thread is started with. */
export interface RefreshThreadData {
  dataDir: string;
}

/**
 * HTTP thread → refresh thread: refresh these products of a merchant (with
 * `reconcile`, also those its model is out of step with); or close the store
 * and end.
 */
export type RefreshRequest =
  { type: "refresh"; id: number; merchantId: MerchantId; productIds: number[]; reconcile: boolean } | { type: "close" };

/** Refresh thread → HTTP thread: how request `id` ended. */
export type RefreshReply = { id: number; summary: RefreshSummary } | { id: number; failure: string };

interface Waiting {
  resolve: (summary: RefreshSummary) => void;
  reject: (error: Error) => void;
}

export class RefreshThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(private readonly dataDir: string) {}

  /** Embeds the changed products again and patches the lists they reach, on the refresh thread. */
  refresh(merchantId: MerchantId, productIds: number[], reconcile = false): Promise<RefreshSummary> {
    const worker = this.started();
    const id = this.nextId++;
    const done = new Promise<RefreshSummary>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    const request: RefreshRequest = { type: "refresh", id, merchantId, productIds, reconcile };
    worker.postMessage(request);
    return done;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const data: RefreshThreadData = { dataDir: this.dataDir };
    const worker = new Worker(compiledWorkerFile("workers/similar-refresh-entry.js"), { workerData: data });
    worker.on("message", (reply: RefreshReply) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if ("summary" in reply) waiting?.resolve(reply.summary);
      else waiting?.reject(new Error(`similar-products refresh failed: ${reply.failure}`));
    });
    let crash: Error | null = null;
    worker.on("error", (error) => (crash = error));
    // A thread that ended (crashed, or closed) fails what it had not answered; the next refresh starts another.
    worker.on("exit", (code) => {
      if (this.worker === worker) this.worker = null;
      const error = crash ?? new Error(`the similar-products refresh thread stopped (exit ${code})`);
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    });
    this.worker = worker;
    return worker;
  }

  /** Lets the thread close its store and end; resolves once it has (at once if it never started). */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    const request: RefreshRequest = { type: "close" };
    worker.postMessage(request);
    await exited;
  }
}
