// Behaviour events are written by a thread of their own, in two steps. The log
// commit is what an acknowledgement waits for: each turn of the HTTP thread's
// event loop hands its events over in one message, and the writer commits
// everything that arrived during its previous commit in one transaction of
// small records on sequential keys (group commit). Histories, add counts and
// carts are applied behind it in larger batches (Store.deriveEventsSync),
// where many events of one session make one history write. Meanwhile the
// HTTP thread keeps the acknowledged events that are not applied yet
// (PendingEvents), and viewed tasks carry a subject's, so nothing lags for the
// shopper.
import { Worker } from "node:worker_threads";
import type { HistorySubject, PendingHistory } from "../core/products/query.js";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import { compiledWorkerFile } from "../pool/worker-file.js";
import { PendingEvents, type PendingSource } from "./pending-events.js";

/** HTTP thread → writer: the events one turn of the event loop validated. */
export interface EventBatchMessage {
  type: "batch";
  id: number;
  merchants: MerchantId[];
  events: BehaviourEvent[];
}

/** Writer → HTTP thread. */
export type EventWriterReply =
  /** Start-up is done: `recovered` events logged by an earlier run but never applied now are. */
  | { type: "ready"; recovered: number }
  /** These batches are logged, in this order; each merchant's events in them are numbered from its `first`. */
  | { type: "committed"; ids: number[]; firsts: [MerchantId, number][] }
  /** The merchants' events up to these sequence numbers are applied to histories, counts and carts. */
  | { type: "applied"; through: [MerchantId, number][] }
  /** These batches failed: nothing of theirs was written. */
  | { type: "failed"; ids: number[]; message: string };

export interface EventWriterData {
  dataDir: string;
}

interface Waiting {
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface InFlight {
  merchants: MerchantId[];
  events: BehaviourEvent[];
  waiting: Waiting[];
}

export class EventWriter implements PendingSource {
  private worker: Worker;
  private readonly pending = new PendingEvents();
  private merchants: MerchantId[] = [];
  private events: BehaviourEvent[] = [];
  private waiting: Waiting[] = [];
  private flushScheduled = false;
  private nextId = 1;
  private readonly inFlight = new Map<number, InFlight>();
  private closing = false;
  private closed: Error | null = null;
  private readonly ready: Promise<number>;

  /**
   * Starts the writer thread; `started()` resolves once it has applied what an
   * earlier run logged but did not apply. `afterCommit` runs before the callers
   * of a committed batch are answered (e.g. to renew read snapshots).
   * `onRestart` hears of a writer thread that died and was started again.
   */
  constructor(
    private readonly dataDir: string,
    private readonly afterCommit: () => void = () => {},
    private readonly onRestart: (error: Error) => void = () => {},
  ) {
    let first: { resolve: (recovered: number) => void; reject: (error: Error) => void } | null = null;
    this.ready = new Promise((resolve, reject) => (first = { resolve, reject }));
    // Observed here so an early failure is not an unhandled rejection; started() reports it.
    this.ready.catch(() => {});
    this.worker = this.startThread(first!);
  }

  private startThread(first: { resolve: (recovered: number) => void; reject: (error: Error) => void } | null): Worker {
    const data: EventWriterData = { dataDir: this.dataDir };
    const worker = new Worker(compiledWorkerFile("workers/event-writer-entry.js"), { workerData: data });
    let started = false;
    worker.on("message", (reply: EventWriterReply) => {
      if (reply.type !== "ready") return this.settle(reply);
      started = true;
      // A new thread has applied everything logged before it: nothing is pending any more.
      if (first === null) this.pending.clear();
      first?.resolve(reply.recovered);
    });
    let stopped = false;
    const stop = (error: Error) => {
      if (stopped) return;
      stopped = true;
      // Unanswered events are failed, not retried: the caller sees an error and may send again.
      for (const { waiting } of this.inFlight.values()) for (const { reject } of waiting) reject(error);
      this.inFlight.clear();
      if (this.closing) return;
      if (!started && first !== null) {
        // It could not start at all (e.g. the data dir): the service must not start either.
        this.closed = error;
        first.reject(error);
        return;
      }
      this.onRestart(error);
      this.worker = this.startThread(null);
    };
    worker.on("error", stop);
    worker.on("exit", (code) => stop(new Error(`the event writer thread stopped (exit ${code})`)));
    return worker;
  }

  /** Resolves with the number of events recovered at start, once the writer takes events. */
  started(): Promise<number> {
    return this.ready;
  }

  /** Resolves once the event is committed to the event log. */
  append(merchant: MerchantId, event: BehaviourEvent): Promise<void> {
    if (this.closed) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => {
      this.merchants.push(merchant);
      this.events.push(event);
      this.waiting.push({ resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // After this turn's other requests: one message carries all of them.
        setImmediate(() => this.flush());
      }
    });
  }

  pendingFor(merchant: MerchantId, subject: HistorySubject): PendingHistory {
    return this.pending.pendingFor(merchant, subject);
  }

  /** Events acknowledged but not applied yet. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Waits for every event handed in so far to be answered; the writer applies the rest and stops. */
  async close(): Promise<void> {
    while (this.flushScheduled || this.inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    if (this.closed) return;
    this.closing = true;
    this.closed = new Error("the event writer is closed");
    const exited = new Promise((resolve) => this.worker.once("exit", resolve));
    this.worker.postMessage({ type: "close" });
    await exited;
  }

  private flush(): void {
    this.flushScheduled = false;
    const id = this.nextId++;
    const message: EventBatchMessage = { type: "batch", id, merchants: this.merchants, events: this.events };
    this.inFlight.set(id, { merchants: this.merchants, events: this.events, waiting: this.waiting });
    this.merchants = [];
    this.events = [];
    this.waiting = [];
    this.worker.postMessage(message);
  }

  private settle(reply: Exclude<EventWriterReply, { type: "ready" }>): void {
    if (reply.type === "applied") {
      for (const [merchant, through] of reply.through) this.pending.appliedThrough(merchant, through);
      return;
    }
    const batches = reply.ids.map((id) => {
      const batch = this.inFlight.get(id);
      this.inFlight.delete(id);
      return batch;
    });
    if (reply.type === "failed") {
      for (const batch of batches) batch?.waiting.forEach(({ reject }) => reject(new Error(`event write failed: ${reply.message}`)));
      return;
    }
    // Numbered as the writer logged them: per merchant, in batch order.
    const next = new Map(reply.firsts);
    for (const batch of batches) {
      batch?.events.forEach((event, i) => {
        const merchant = batch.merchants[i]!;
        const sequence = next.get(merchant)!;
        next.set(merchant, sequence + 1);
        this.pending.add(merchant, sequence, event);
      });
    }
    this.afterCommit();
    for (const batch of batches) batch?.waiting.forEach(({ resolve }) => resolve());
  }
}
