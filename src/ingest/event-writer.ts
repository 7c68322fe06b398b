// Behaviour events are written by two threads of their own. The log thread
// (workers/event-writer-entry.ts) commits what an acknowledgement waits for:
// each turn of the HTTP thread's event loop hands its events over in one
// message, and everything that arrived during a commit goes into the next
// (group commit), in the log's own LMDB environment, so nothing else holds
// its write lock. The applier thread (workers/event-applier-entry.ts) applies
// logged events to histories, add counts and carts behind the log, in
// batches where many events of one session make one history write.
// Meanwhile this thread keeps the acknowledged events that are not applied
// yet (PendingEvents), and viewed tasks carry a subject's, so nothing lags
// for the shopper.
import { Worker } from "node:worker_threads";
import type { HistorySubject, PendingHistory } from "../core/products/query.js";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import { ApiError } from "../errors.js";
import { compiledWorkerFile } from "../pool/worker-file.js";
import { PendingEvents, type PendingSource } from "./pending-events.js";

export interface EventThreadData {
  dataDir: string;
}

/** HTTP thread → log thread: the events one turn of the event loop validated. */
export interface EventBatchMessage {
  type: "batch";
  id: number;
  merchants: MerchantId[];
  events: BehaviourEvent[];
}

/** Both threads, once started: `recovered` events an earlier run logged are now applied, up to `through`. */
interface Ready {
  type: "ready";
  recovered: number;
  through: [MerchantId, number][];
}

/** The merchants' events up to these sequence numbers are applied to histories, counts and carts. */
interface Applied {
  type: "applied";
  through: [MerchantId, number][];
}

/** Log thread → HTTP thread. */
export type EventWriterReply =
  | Ready
  /** These batches are logged, in this order; each merchant's events in them are numbered from its `first`. */
  | { type: "committed"; ids: number[]; firsts: [MerchantId, number][] }
  /** These batches failed: their commit threw, so nothing of theirs was written. */
  | { type: "failed"; ids: number[]; message: string };

/** HTTP thread → applier: how many events per merchant a log commit added; or stop, once all is applied. */
export type EventApplierMessage = { type: "logged"; counts: [MerchantId, number][] } | { type: "close" };

/** Applier → HTTP thread. */
export type EventApplierReply = Ready | Applied;

/** One event-loop turn's events, logged in one message, and the one promise all their callers wait on. */
interface Batch {
  merchants: MerchantId[];
  events: BehaviourEvent[];
  logged: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function newBatch(): Batch {
  const batch = { merchants: [], events: [] } as unknown as Batch;
  batch.logged = new Promise<void>((resolve, reject) => {
    batch.resolve = resolve;
    batch.reject = reject;
  });
  return batch;
}

/** A worker thread that is started again if it dies, until its owner closes it. */
interface Supervised {
  worker: Worker;
  /** Resolves when the current worker has exited. */
  exited: Promise<void>;
  /** False between a worker's death and its replacement's start. */
  alive: boolean;
  ready: Promise<Ready>;
}

/**
 * Acknowledged events the applier may fall behind by before new ones are
 * refused with a 503: the HTTP thread holds each until it is applied, so this
 * bounds its memory if applying stalls (e.g. a full disk).
 */
const MAX_PENDING = 500_000;
/** How long closing waits for events in flight to the log before giving up on them. */
const CLOSE_WAIT_MS = 10_000;
/** A thread that keeps dying is started again after a growing pause, up to this long. */
const MAX_RESTART_DELAY_MS = 5_000;

export class EventWriter implements PendingSource {
  private readonly log: Supervised;
  private readonly applier: Supervised;
  private readonly pending = new PendingEvents();
  /** This turn's events, not handed to the log thread yet. */
  private current: Batch | null = null;
  private nextId = 1;
  private readonly inFlight = new Map<number, Batch>();
  private closing = false;
  private failed: Error | null = null;

  /**
   * Starts both threads; `started()` resolves once the applier has applied what
   * an earlier run logged but did not apply. `afterCommit` runs before the
   * callers of a committed batch are answered (e.g. to renew read snapshots).
   * `onRestart` hears of a thread that died and was started again.
   */
  constructor(
    private readonly dataDir: string,
    private readonly afterCommit: () => void = () => {},
    private readonly onRestart: (thread: string, error: Error) => void = () => {},
  ) {
    this.log = this.supervise("workers/event-writer-entry.js", (reply: EventWriterReply) => this.fromLog(reply), () => this.failInFlight());
    this.applier = this.supervise("workers/event-applier-entry.js", (reply: EventApplierReply) => this.applied(reply.through), () => {});
  }

  /** Resolves with the number of events recovered at start, once both threads take work. */
  async started(): Promise<number> {
    const [, applier] = await Promise.all([this.log.ready, this.applier.ready]);
    return applier.recovered;
  }

  /**
   * Resolves once the event is committed to the event log; rejects with an
   * ApiError (503) when applying has fallen far behind. Events handed in during
   * one turn share one commit, so they share the promise too.
   */
  append(merchant: MerchantId, event: BehaviourEvent): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.pending.size >= MAX_PENDING) return Promise.reject(new ApiError("overloaded", "Event ingest is behind, retry shortly"));
    let batch = this.current;
    if (batch === null) {
      batch = this.current = newBatch();
      // After this turn's other requests: one message carries all of them.
      setImmediate(() => this.flush());
    }
    batch.merchants.push(merchant);
    batch.events.push(event);
    return batch.logged;
  }

  pendingFor(merchant: MerchantId, subject: HistorySubject): PendingHistory {
    return this.pending.pendingFor(merchant, subject);
  }

  /** Events acknowledged but not applied yet. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Answers every event handed in so far, lets the applier apply everything, and stops both threads. */
  async close(): Promise<void> {
    const deadline = Date.now() + CLOSE_WAIT_MS;
    while ((this.current !== null || this.inFlight.size > 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    if (this.closing) return;
    this.closing = true;
    this.failed ??= new Error("the event writer is closed");
    for (const thread of [this.log, this.applier]) {
      thread.worker.postMessage({ type: "close" });
      await thread.exited;
    }
  }

  private supervise<Reply extends { type: string }>(file: string, onReply: (reply: Reply) => void, onDeath: () => void): Supervised {
    let resolveFirst!: (ready: Ready) => void;
    let rejectFirst!: (error: Error) => void;
    const thread = { ready: new Promise((resolve, reject) => ([resolveFirst, rejectFirst] = [resolve, reject])) } as Supervised;
    // Observed here so an early failure is not an unhandled rejection; started() reports it.
    thread.ready.catch(() => {});
    let everStarted = false;
    let restarts = 0;
    const start = () => {
      const data: EventThreadData = { dataDir: this.dataDir };
      const worker = new Worker(compiledWorkerFile(file), { workerData: data });
      thread.worker = worker;
      thread.alive = true;
      thread.exited = new Promise((resolve) => worker.once("exit", () => resolve()));
      let stopped = false;
      worker.on("message", (reply: Reply | Ready) => {
        if (reply.type !== "ready") return onReply(reply as Reply);
        const ready = reply as Ready;
        this.applied(ready.through);
        if (!everStarted) resolveFirst(ready);
        everStarted = true;
        restarts = 0;
      });
      const stop = (error: Error) => {
        if (stopped) return;
        stopped = true;
        thread.alive = false;
        onDeath();
        if (this.closing) return;
        if (!everStarted) {
          // It could not start at all (e.g. the data dir): the service must not start either.
          this.failed = error;
          rejectFirst(error);
          return;
        }
        this.onRestart(file, error);
        // After a pause that grows while it keeps dying; meanwhile events are refused with a 503.
        setTimeout(() => this.closing || start(), Math.min(MAX_RESTART_DELAY_MS, 50 * 2 ** restarts++));
      };
      worker.on("error", stop);
      worker.on("exit", (code) => stop(new Error(`thread ${file} stopped (exit ${code})`)));
    };
    start();
    return thread;
  }

  private flush(): void {
    const batch = this.current!;
    this.current = null;
    if (!this.log.alive) {
      batch.reject(new ApiError("overloaded", "Event log restarting, retry shortly"));
      return;
    }
    const id = this.nextId++;
    this.inFlight.set(id, batch);
    const message: EventBatchMessage = { type: "batch", id, merchants: batch.merchants, events: batch.events };
    this.log.worker.postMessage(message);
  }

  /**
   * Unanswered events are failed, not retried: the caller sees a 500. If the
   * thread died between its commit and its reply, they are logged all the
   * same, and a caller that sends again logs them twice.
   */
  private failInFlight(): void {
    const error = new Error("the event log thread stopped");
    for (const batch of this.inFlight.values()) batch.reject(error);
    this.inFlight.clear();
  }

  private applied(through: readonly [MerchantId, number][]): void {
    for (const [merchant, sequence] of through) this.pending.appliedThrough(merchant, sequence);
  }

  private fromLog(reply: EventWriterReply): void {
    if (reply.type === "ready") return;
    const batches = reply.ids.map((id) => {
      const batch = this.inFlight.get(id);
      this.inFlight.delete(id);
      return batch;
    });
    if (reply.type === "failed") {
      for (const batch of batches) batch?.reject(new Error(`event write failed: ${reply.message}`));
      return;
    }
    // Numbered as the log thread logged them: per merchant, in batch order.
    const next = new Map(reply.firsts);
    for (const batch of batches) {
      batch?.events.forEach((event, i) => {
        const merchant = batch.merchants[i]!;
        const sequence = next.get(merchant)!;
        next.set(merchant, sequence + 1);
        this.pending.add(merchant, sequence, event);
      });
    }
    const counts: [MerchantId, number][] = reply.firsts.map(([merchant, first]) => [merchant, next.get(merchant)! - first]);
    const logged: EventApplierMessage = { type: "logged", counts };
    this.applier.worker.postMessage(logged);
    this.afterCommit();
    for (const batch of batches) batch?.resolve();
  }
}
