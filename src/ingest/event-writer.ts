// Behaviour events are logged from the HTTP thread, applied by a thread of
// their own. Logging is what an acknowledgement waits for: each turn of the
// event loop puts its events in the log's own LMDB environment with lmdb's
// asynchronous puts (store.events.logEvents), so lmdb's write thread commits them as
// one transaction and flushes it while the next turn's are written (group
// commit, and nothing else holds the log's write lock). The applier thread
// (workers/event-applier-entry.ts) applies logged events to histories, add
// counts and carts behind the log, in batches where many events of one
// session make one history write. Meanwhile this thread keeps the
// acknowledged events that are not applied yet (PendingEvents), and viewed
// tasks carry a subject's, so nothing lags for the shopper.
//
// On a cluster node a turn's events are published to the write stream instead
// (one message per merchant) and acknowledged once the stream has them; every
// node, this one too, logs them as the stream delivers them (logConsumed),
// which is where the rest of this path picks up.
import { Worker } from "node:worker_threads";
import type { HistorySubject, PendingHistory } from "../core/products/query.js";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import { compiledWorkerFile } from "../pool/worker-file.js";
import type { Retention } from "../stores/retention.js";
import { PendingEvents, type PendingSource } from "./pending-events.js";

/** What the applier thread is started with. */
export interface EventThreadData {
  dataDir: string;
  /** While sales or add-to-cart counts keep changing, the stored rankings are refreshed at most this often. */
  rankingRefreshMs: number;
  /** What the applier prunes from viewed-related's session index. */
  retention: Retention;
}

/** The part of the store that logs events (store.events.logEvents). */
export interface EventLog {
  logEvents(
    groups: Iterable<[MerchantId, readonly BehaviourEvent[]]>,
    streamSequence?: number,
  ): { firsts: Map<MerchantId, number>; durable: Promise<void> };
}

/** Where a cluster node's events go instead of its own log: the write stream. */
export interface EventPublisher {
  /** Resolves with the stream sequence of the last message once the stream holds every merchant's events. */
  publishEvents(groups: ReadonlyMap<MerchantId, readonly BehaviourEvent[]>): Promise<number>;
}

/** The applier, once started: `recovered` events an earlier run logged are now applied, up to `through`. */
interface Ready {
  type: "ready";
  recovered: number;
  through: [MerchantId, number][];
  /** Derived stores some merchant still lacks (a data dir from an older build): the applier builds them next. */
  buildsPending: number;
}

/** The merchants' events up to these sequence numbers are applied to histories, counts and carts. */
interface Applied {
  type: "applied";
  through: [MerchantId, number][];
  buildsPending: number;
}

/** HTTP thread → applier: how many events per merchant a log commit added; or stop, once all is applied. */
export type EventApplierMessage = { type: "logged"; counts: [MerchantId, number][] } | { type: "close" };

/** Applier → HTTP thread. */
export type EventApplierReply = Ready | Applied;

/**
 * One event-loop turn's events, logged in one transaction, and the one promise
 * all their callers wait on; on a cluster node it resolves with the stream
 * sequence that holds them.
 */
interface Batch {
  /** Per merchant, in arrival order. */
  groups: Map<MerchantId, BehaviourEvent[]>;
  logged: Promise<number | undefined>;
  resolve: (streamSequence?: number) => void;
  reject: (error: unknown) => void;
}

function newBatch(): Batch {
  const batch = { groups: new Map() } as Batch;
  batch.logged = new Promise<number | undefined>((resolve, reject) => {
    batch.resolve = resolve;
    batch.reject = reject;
  });
  return batch;
}

/** The applier thread, started again if it dies, until its owner closes it. */
interface Supervised {
  worker: Worker;
  /** Resolves when the current worker has exited. */
  exited: Promise<void>;
  ready: Promise<Ready>;
}

/** Too many acknowledged events wait to be applied: the client should retry shortly. */
export class EventBacklogFull extends Error {
  constructor() {
    super("Event ingest is behind, retry shortly");
  }
}

/**
 * Acknowledged events the applier may fall behind by before new ones are
 * refused with a 503: the HTTP thread holds each until it is applied, so this
 * bounds its memory if applying stalls (e.g. a full disk).
 */
const MAX_PENDING = 500_000;
/** The applier hears of logged events at most this often (it counts a quiet log from 50 ms). */
const REPORT_EVERY_MS = 10;
/** A thread that keeps dying is started again after a growing pause, up to this long. */
const MAX_RESTART_DELAY_MS = 5_000;
/**
 * The applier thread's young generation: room for two 32 MB semi-spaces (V8's
 * default is 16). A slice's decoded events and the histories they touch live
 * until its transaction ends, so with the default many outlived a scavenge or
 * two and were copied each time (GC was 17-19% of the CPU of deriving the
 * ingest benchmark's slices). With this, deriving them took 3-4% less CPU.
 * The price: up to about 50 MB more resident memory in that thread under load.
 */
const APPLIER_YOUNG_GENERATION_MB = 96;

export class EventWriter implements PendingSource {
  private readonly applier: Supervised;
  private readonly pending = new PendingEvents();
  /** This turn's events, not logged yet. */
  private current: Batch | null = null;
  /** Events logged per merchant since the applier was last told. */
  private readonly unreported = new Map<MerchantId, number>();
  private reportScheduled = false;
  /** Settles once every batch logged so far is answered; each batch is answered after the one before it. */
  private lastBatch: Promise<void> = Promise.resolve();
  private closing = false;
  private failed: Error | null = null;
  private applierStarted = false;
  private buildsPending = Number.POSITIVE_INFINITY;

  /**
   * Starts the applier; `started()` resolves once it has applied what an
   * earlier run logged but did not apply. `afterCommit` runs before the
   * callers of a committed batch are answered, and before applied events
   * leave the pending ones (e.g. to renew this thread's read snapshot).
   * `onRestart` hears of an applier that died and was started again.
   * `publisher`: a cluster node's write stream (null on a single box).
   */
  constructor(
    private readonly log: EventLog,
    private readonly threadData: EventThreadData,
    private readonly afterCommit: () => void = () => {},
    private readonly onRestart: (thread: string, error: Error) => void = () => {},
    private readonly publisher: EventPublisher | null = null,
  ) {
    this.applier = this.supervise("workers/event-applier-entry.js", (reply: EventApplierReply) => this.applied(reply));
  }

  /**
   * What the service still waits for before it answers in full (GET /readyz):
   * the applier applying what an earlier run (or a thread that died) logged,
   * and derived stores some merchant lacks (first rankings of a shop that had
   * sales at start included). Empty once caught up.
   */
  get waitingFor(): string[] {
    if (!this.applierStarted) return ["the event applier applying what was logged before it started"];
    return this.buildsPending === 0 ? [] : [`${this.buildsPending} derived store builds`];
  }

  /** Resolves with the number of events recovered at start, once the applier takes work. */
  async started(): Promise<number> {
    return (await this.applier.ready).recovered;
  }

  /**
   * Resolves once the event is committed to the event log and flushed (on a
   * cluster node: once the write stream holds it, with the stream sequence it
   * is in); rejects with EventBacklogFull when applying has fallen far behind.
   * Events handed in during one turn share one commit, so they share the
   * promise too.
   */
  append(merchant: MerchantId, event: BehaviourEvent): Promise<number | undefined> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.pending.size >= MAX_PENDING) return Promise.reject(new EventBacklogFull());
    let batch = this.current;
    if (batch === null) {
      batch = this.current = newBatch();
      // After this turn's other requests: one transaction carries all of them.
      setImmediate(() => this.flush());
    }
    const group = batch.groups.get(merchant);
    if (group) group.push(event);
    else batch.groups.set(merchant, [event]);
    return batch.logged;
  }

  pendingFor(merchant: MerchantId, subject: HistorySubject): PendingHistory {
    return this.pending.pendingFor(merchant, subject);
  }

  /** Events acknowledged but not applied yet. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Answers every event handed in so far, lets the applier apply everything, and stops it. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    // This turn's batch is flushed by its setImmediate; then every batch is answered.
    while (this.current !== null) await new Promise((resolve) => setImmediate(resolve));
    await this.lastBatch;
    this.failed ??= new Error("the event writer is closed");
    this.applier.worker.postMessage({ type: "close" } satisfies EventApplierMessage);
    await this.applier.exited;
  }

  private supervise<Reply extends { type: string }>(file: string, onReply: (reply: Reply) => void): Supervised {
    let resolveFirst!: (ready: Ready) => void;
    let rejectFirst!: (error: Error) => void;
    const thread = { ready: new Promise((resolve, reject) => ([resolveFirst, rejectFirst] = [resolve, reject])) } as Supervised;
    // Observed here so an early failure is not an unhandled rejection; started() reports it.
    thread.ready.catch(() => {});
    let everStarted = false;
    let restarts = 0;
    const start = () => {
      const worker = new Worker(compiledWorkerFile(file), {
        workerData: this.threadData,
        resourceLimits: { maxYoungGenerationSizeMb: APPLIER_YOUNG_GENERATION_MB },
      });
      thread.worker = worker;
      thread.exited = new Promise((resolve) => worker.once("exit", () => resolve()));
      let stopped = false;
      worker.on("message", (reply: Reply | Ready) => {
        if (reply.type !== "ready") return onReply(reply as Reply);
        const ready = reply as Ready;
        this.applied(ready);
        this.applierStarted = true;
        if (!everStarted) resolveFirst(ready);
        everStarted = true;
        restarts = 0;
      });
      const stop = (error: Error) => {
        if (stopped) return;
        stopped = true;
        // Its successor first applies what was logged meanwhile: not caught up until it says so.
        this.applierStarted = false;
        if (this.closing) return;
        if (!everStarted) {
          // It could not start at all (e.g. the data dir): the service must not start either.
          this.failed = error;
          rejectFirst(error);
          return;
        }
        this.onRestart(file, error);
        // After a pause that grows while it keeps dying. Events are still logged
        // meanwhile; the new thread applies them at its start.
        setTimeout(() => this.closing || start(), Math.min(MAX_RESTART_DELAY_MS, 50 * 2 ** restarts++));
      };
      worker.on("error", stop);
      worker.on("exit", (code) => stop(new Error(`thread ${file} stopped (exit ${code})`)));
    };
    start();
    return thread;
  }

  /**
   * Logs events a cluster node's write stream delivered, as `append` logs them
   * on a single box, with the stream sequence noted in the same commit;
   * resolves once they are logged and flushed.
   */
  logConsumed(merchant: MerchantId, events: BehaviourEvent[], streamSequence: number): Promise<void> {
    const batch = newBatch();
    batch.groups.set(merchant, events);
    this.logBatch(batch, streamSequence);
    return batch.logged.then(() => undefined);
  }

  private flush(): void {
    const batch = this.current!;
    this.current = null;
    if (this.publisher === null) return this.logBatch(batch);
    const published = this.publisher.publishEvents(batch.groups).then(batch.resolve, batch.reject);
    // close() answers every batch: published ones too.
    this.lastBatch = Promise.all([this.lastBatch, published]).then(() => undefined);
  }

  private logBatch(batch: Batch, streamSequence?: number): void {
    let logged: ReturnType<EventLog["logEvents"]>;
    try {
      logged = this.log.logEvents(batch.groups, streamSequence);
    } catch (error) {
      batch.reject(error);
      return;
    }
    const { durable, firsts } = logged;
    // Observed at once: a failure while an earlier batch is still being flushed must not count as unhandled.
    durable.catch(() => {});
    // Transactions commit in order, but their answers are chained too, so pending events go in in log order.
    this.lastBatch = this.lastBatch
      .then(() => durable)
      .then(
        () => this.committed(batch, firsts),
        (error: unknown) => batch.reject(new Error(`event write failed: ${String((error as Error)?.message ?? error)}`)),
      )
      // Never rejected itself, so a later batch's answer does not depend on this one's.
      .catch((error: unknown) => batch.reject(error));
  }

  private applied({ through, buildsPending }: EventApplierReply): void {
    // Before the pending events go: this thread's reads must see the histories that now hold them.
    this.afterCommit();
    for (const [merchant, sequence] of through) this.pending.appliedThrough(merchant, sequence);
    this.buildsPending = buildsPending;
  }

  /** Numbered as logged: each merchant's events from its first sequence number, in arrival order. */
  private committed(batch: Batch, firsts: Map<MerchantId, number>): void {
    for (const [merchant, events] of batch.groups) {
      const first = firsts.get(merchant)!;
      events.forEach((event, i) => this.pending.add(merchant, first + i, event));
      this.unreported.set(merchant, (this.unreported.get(merchant) ?? 0) + events.length);
    }
    this.reportSoon();
    this.afterCommit();
    batch.resolve();
  }

  /**
   * Tells the applier what was logged, at most every REPORT_EVERY_MS: a
   * message wakes its thread, which costs more than the message (tens of µs
   * in a VM), and it applies in slices of thousands of events anyway.
   */
  private reportSoon(): void {
    if (this.reportScheduled) return;
    this.reportScheduled = true;
    setTimeout(() => {
      this.reportScheduled = false;
      const counts = [...this.unreported];
      this.unreported.clear();
      this.applier.worker.postMessage({ type: "logged", counts } satisfies EventApplierMessage);
    }, REPORT_EVERY_MS);
  }
}
