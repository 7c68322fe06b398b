// Behaviour events are written by a thread of their own. Writing them on the
// HTTP thread cost about as much CPU as answering the request (the log, each
// session's history, carts), and every commit waited for a turn of the event
// loop twice; on its own thread the writer blocks on each commit while the
// HTTP thread goes on taking requests, and what arrives meanwhile goes out
// together in the next commit (group commit).
import { Worker } from "node:worker_threads";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import { compiledWorkerFile } from "../pool/worker-file.js";

/** HTTP thread → writer: the events one turn of the event loop validated. */
export interface EventBatchMessage {
  type: "batch";
  id: number;
  merchants: MerchantId[];
  events: BehaviourEvent[];
}

/** Writer → HTTP thread: these batches are committed (or failed, with nothing of theirs written). */
export type EventWriterReply = { type: "committed"; ids: number[] } | { type: "failed"; ids: number[]; message: string };

export interface EventWriterData {
  dataDir: string;
}

interface Waiting {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class EventWriter {
  private worker: Worker | null = null;
  private merchants: MerchantId[] = [];
  private events: BehaviourEvent[] = [];
  private waiting: Waiting[] = [];
  private flushScheduled = false;
  private nextId = 1;
  private readonly inFlight = new Map<number, Waiting[]>();
  private closed = false;

  /** `afterCommit` runs before the callers of a committed batch are answered (e.g. to renew read snapshots). */
  constructor(
    private readonly dataDir: string,
    private readonly afterCommit: () => void = () => {},
  ) {}

  /** Resolves once the event is committed to LMDB. */
  append(merchant: MerchantId, event: BehaviourEvent): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the event writer is closed"));
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

  /** Waits for every event handed in so far to be answered, then stops the thread. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.flushScheduled || this.inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const worker = this.worker;
    this.worker = null;
    if (worker) {
      const exited = new Promise((resolve) => worker.once("exit", resolve));
      worker.postMessage({ type: "close" });
      await exited;
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    const id = this.nextId++;
    const message: EventBatchMessage = { type: "batch", id, merchants: this.merchants, events: this.events };
    this.inFlight.set(id, this.waiting);
    this.merchants = [];
    this.events = [];
    this.waiting = [];
    this.writer().postMessage(message);
  }

  private writer(): Worker {
    if (this.worker) return this.worker;
    const data: EventWriterData = { dataDir: this.dataDir };
    const worker = new Worker(compiledWorkerFile("workers/event-writer-entry.js"), { workerData: data });
    worker.on("message", (reply: EventWriterReply) => this.settle(reply));
    const fail = (error: unknown) => {
      if (this.worker === worker) this.worker = null;
      // Unanswered batches are failed, not retried: the caller sees an error and may send again.
      for (const waiting of this.inFlight.values()) for (const { reject } of waiting) reject(error);
      this.inFlight.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the event writer thread stopped (exit ${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle(reply: EventWriterReply): void {
    if (reply.type === "committed") this.afterCommit();
    for (const id of reply.ids) {
      const waiting = this.inFlight.get(id) ?? [];
      this.inFlight.delete(id);
      if (reply.type === "committed") for (const { resolve } of waiting) resolve();
      else for (const { reject } of waiting) reject(new Error(`event write failed: ${reply.message}`));
    }
  }
}
