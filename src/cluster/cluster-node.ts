// A cluster node: every write goes through one JetStream stream, and every node
// (the writer too) applies the stream in order to its own LMDB. A write is
// answered once the stream has acknowledged it (R=3: a majority of servers hold
// it) and, for admin writes, once this node has applied it, so the answer can
// read the stored object back. Events are answered on the stream's
// acknowledgement alone, as a single box answers them on its log's flush.
//
// The node reads the stream with an ordered consumer (no durable state on the
// servers): its place is the stream sequence it applied last, kept in LMDB in
// the same commit as the writes of that message (StreamWatermarks), so a
// restarted node goes on from there and applies nothing twice.
import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { randomUUID } from "node:crypto";
import type { BehaviourEvent, MerchantId } from "../core/types.js";
import type { EventPublisher, EventWriter } from "../ingest/event-writer.js";
import {
  applyWrite,
  checkWrite,
  isWriteKind,
  type WriteCommand,
  type WriteKind,
  type WriteResult,
  type Writes,
  type Written,
} from "../ingest/write-commands.js";
import type { Logger } from "../observability/logger.js";
import { AlreadyExistsError } from "../stores/catalogue-store.js";
import type { Store } from "../stores/store.js";
import { SequenceWaiters } from "./sequence-waiters.js";
import { API_TIMEOUT_MS, connectToServers, untilAnswered } from "./servers.js";
import { StreamUnavailable } from "./stream-unavailable.js";
import { WriteNotApplied } from "../ingest/write-not-applied.js";
import { WriteTooLargeForStream } from "./write-too-large.js";
import { ensureStream, otherStream, parseSubject, STREAM_NAME, subjectOf } from "./stream.js";
import { maxPayloadOf, publishWrite, PUBLISH_TIMEOUT_MS } from "./stream-writer.js";

export interface ClusterSettings {
  /** nats:// URLs of the servers, comma-separated. */
  urls: string;
  /** Stream replicas: 3 on a 3-server cluster. */
  replicas: number;
  /** The stream keeps messages this long (the event retention). */
  retentionDays: number;
  /** Further behind the stream than this many messages, the node is not ready (GET /readyz). */
  maxLag: number;
}

/** A write this node applied from the stream, for what the rest of the service keeps beside the store (e.g. verified keys). */
export type AppliedListener = (write: WriteCommand) => void;

/** What /metrics reports of the node's place in the stream. */
export interface ClusterProgress {
  /** The last stream sequence this node applied. */
  applied: number;
  /** Messages in the stream past it, as far as this node knows the stream's end. */
  lagMessages: number;
  /** Seconds since this node was last level with the stream's end as it knew it (0: level now). */
  lagSeconds: number;
  /** Messages applied since start. */
  appliedTotal: number;
}

/** An admin write is acknowledged by the stream, then waits at most this long for this node to apply it. */
const APPLY_WAIT_MS = 30_000;
/** Messages being applied at once: the consumer waits for the oldest beyond this (LMDB commits them in batches meanwhile). */
const MAX_IN_FLIGHT = 2_048;
/** How often the node asks the stream for its end, to know its lag while nothing arrives. */
const STREAM_END_EVERY_MS = 1_000;
/**
 * The consumer lives on one server. When a server stops, the client (3.4 on
 * server 2.9) may go on pulling from a consumer that is gone, or that delivers
 * nothing more, for ever, its heartbeats missed or not: a node that knows the
 * stream has messages past its place, and has been delivered none for this
 * long, makes a new consumer itself from its last applied message.
 */
const SILENT_CONSUMER_MS = 2_000;
/** How long one pull waits for messages; idle, the node asks again this often. */
const PULL_EXPIRES_MS = 5_000;
/** While only events arrive, the main environment's place is moved this often. */
const NOTE_MAIN_PLACE_EVERY_MS = 1_000;
/** A consumer that failed is made again after this long, from the last applied sequence. */
const CONSUME_RETRY_MS = 500;

interface Waiter {
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

const settledAlready = Promise.resolve(undefined);

export class ClusterNode implements Writes, EventPublisher {
  private readonly stream: JetStreamClient;
  /** Admin writes of this node waiting for their message to be applied, by message id. */
  private readonly waiters = new Map<string, Waiter>();
  private readonly sequenceWaiters = new SequenceWaiters();
  /** The watermarks at start: messages at or below them were applied by an earlier run. */
  private readonly startedFrom: { main: number; log: number };
  private events: EventWriter | null = null;
  private messages: ConsumerMessages | null = null;
  /** Settles once every message delivered so far is applied, in stream order. */
  private tail: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private mainPlaceNotedAt = 0;
  private lastDeliveryAt = 0;
  private applied: number;
  private appliedTotal = 0;
  /** The stream's last sequence as this node knows it. */
  private streamEnd: number;
  /** When the node last saw itself level with the stream's end, while it is not; null when level. */
  private behindSince: number | null = null;
  private closed = false;
  /** Why this node stopped applying the stream (a message it cannot apply); null while it applies. */
  private stalled: string | null = null;
  private readonly endTimer: NodeJS.Timeout;

  private constructor(
    private readonly connection: NatsConnection,
    private readonly manager: JetStreamManager,
    private readonly store: Store,
    private readonly settings: ClusterSettings,
    private readonly log: Logger,
    private readonly onPublished: (seconds: number) => void,
    streamEnd: number,
  ) {
    this.stream = jetstream(connection);
    this.startedFrom = store.streamWatermarks.applied();
    this.applied = Math.min(this.startedFrom.main, this.startedFrom.log);
    this.streamEnd = streamEnd;
    this.noteLag();
    this.endTimer = setInterval(() => void this.readStreamEnd(), STREAM_END_EVERY_MS);
    this.endTimer.unref();
  }

  /**
   * Connects to the servers and makes sure the stream is there with its
   * settings. Fails when the stream no longer holds the messages after this
   * node's place (they aged out): such a node starts from a snapshot.
   */
  static async connect(settings: ClusterSettings, store: Store, log: Logger, onPublished: (seconds: number) => void): Promise<ClusterNode> {
    const connection = await connectToServers(settings.urls);
    try {
      // checkAPI off: the stream's creation below is the check, and is asked again while JetStream does not answer.
      const manager = await jetstreamManager(connection, { timeout: API_TIMEOUT_MS, checkAPI: false });
      const { firstSeq, lastSeq, created } = await untilAnswered(
        () => ensureStream(manager, settings.replicas, settings.retentionDays),
        log,
      );
      const joined = store.streamWatermarks.stream();
      if (joined !== undefined && joined !== created) throw new Error(otherStream(joined, created));
      if (joined === undefined) await store.streamWatermarks.joinStream(created);
      const watermarks = store.streamWatermarks.applied();
      const next = Math.min(watermarks.main, watermarks.log) + 1;
      if (firstSeq > next) {
        throw new Error(
          `the stream holds messages from ${firstSeq}, but this node has applied only through ${next - 1}: ` +
            "the messages between have aged out; start the node from a snapshot of another node",
        );
      }
      return new ClusterNode(connection, manager, store, settings, log, onPublished, lastSeq);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  /** Starts applying the stream from this node's place; events go to `events`, which logs them as a single box does. */
  startApplying(events: EventWriter, onApplied: AppliedListener): void {
    this.events = events;
    void this.consume(onApplied);
  }

  /** What the node waits for before it answers in full (GET /readyz): being within the configured lag of the stream. */
  get waitingFor(): string[] {
    if (this.stalled !== null) return [`the write stream: stopped at message ${this.applied + 1}, ${this.stalled}`];
    const lag = this.streamEnd - this.applied;
    return lag > this.settings.maxLag ? [`the write stream: ${lag} messages behind (ready within ${this.settings.maxLag})`] : [];
  }

  get progress(): ClusterProgress {
    return {
      applied: this.applied,
      lagMessages: Math.max(0, this.streamEnd - this.applied),
      lagSeconds: this.behindSince === null ? 0 : (Date.now() - this.behindSince) / 1000,
      appliedTotal: this.appliedTotal,
    };
  }

  /** Null when this node has applied `seq`; else resolves once it has, or after `withinMs` either way. */
  waitFor(seq: number, withinMs: number): Promise<void> | null {
    return this.sequenceWaiters.waitFor(this.applied, seq, withinMs);
  }

  /**
   * Checks the write (an invalid one is refused before anything is published;
   * a patch against the record as this node holds it, only while it has
   * applied all the stream holds: see checkWrite), publishes it, and answers once the stream has
   * acknowledged it and this node has applied it, with what applying it answered.
   */
  async submit<K extends WriteKind>(write: WriteCommand<K>): Promise<Written<WriteResult<K>>> {
    checkWrite(write, this.applied >= this.streamEnd ? this.store : null);
    const id = randomUUID();
    const applied = new Promise<unknown>((resolve, reject) => this.waiters.set(id, { resolve, reject }));
    // Observed at once: a write that fails as it is applied may do so before its acknowledgement is awaited.
    applied.catch(() => {});
    const started = performance.now();
    let seq: number;
    try {
      seq = await publishWrite(this.stream, write, id, maxPayloadOf(this.connection));
    } catch (error) {
      this.waiters.delete(id);
      // Refused for the write itself, so nothing was stored: the client's to change, not to retry.
      if (error instanceof AlreadyExistsError || error instanceof WriteTooLargeForStream) throw error;
      // It may still be in the stream (an acknowledgement lost on the way): it is applied then, answered to no one.
      throw new StreamUnavailable(error);
    }
    this.onPublished((performance.now() - started) / 1000);
    this.streamEnd = Math.max(this.streamEnd, seq);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new WriteNotApplied(seq, APPLY_WAIT_MS)), APPLY_WAIT_MS);
    });
    try {
      return { result: (await Promise.race([applied, late])) as WriteResult<K>, seq };
    } finally {
      clearTimeout(timer);
      this.waiters.delete(id);
    }
  }

  /** One message per merchant; resolves with the last one's sequence once the stream has acknowledged every one. */
  publishEvents(groups: ReadonlyMap<MerchantId, readonly BehaviourEvent[]>): Promise<number> {
    const started = performance.now();
    const acks = [];
    for (const [merchant, events] of groups) {
      acks.push(this.stream.publish(subjectOf(merchant, "events"), JSON.stringify(events), { timeout: PUBLISH_TIMEOUT_MS }));
    }
    return Promise.all(acks).then(
      (acked) => {
        this.onPublished((performance.now() - started) / 1000);
        let last = 0;
        for (const ack of acked) last = Math.max(last, ack.seq);
        this.streamEnd = Math.max(this.streamEnd, last);
        return last;
      },
      (error: unknown) => {
        throw new StreamUnavailable(error);
      },
    );
  }

  /** Stops applying, once what was delivered is applied; the connection stays for close(). */
  async stopApplying(): Promise<void> {
    this.closed = true;
    clearInterval(this.endTimer);
    await this.messages?.close();
    await this.tail;
    this.sequenceWaiters.release();
  }

  async close(): Promise<void> {
    if (!this.closed) await this.stopApplying();
    await this.connection.drain();
  }

  private async consume(onApplied: AppliedListener): Promise<void> {
    while (!this.closed) {
      try {
        await this.tail;
        const consumer = await this.stream.consumers.get(STREAM_NAME, {
          deliver_policy: DeliverPolicy.StartSequence,
          opt_start_seq: this.applied + 1,
        });
        if (this.closed) return;
        const messages = await consumer.consume({ max_messages: 1_024, expires: PULL_EXPIRES_MS });
        this.messages = messages;
        this.lastDeliveryAt = Date.now();
        for await (const message of messages) {
          this.deliver(message, onApplied);
          if (this.inFlight >= MAX_IN_FLIGHT) await this.tail;
        }
      } catch (error) {
        if (this.closed) return;
        this.log.warn("reading the write stream failed; reading on from the last applied message", { error: String(error) });
        await new Promise((resolve) => setTimeout(resolve, CONSUME_RETRY_MS));
      }
    }
  }

  /** Applies one message (its writes begin now) and, once it and every message before it are applied, moves the node's place. */
  private deliver(message: JsMsg, onApplied: AppliedListener): void {
    const seq = message.seq;
    this.lastDeliveryAt = Date.now();
    this.streamEnd = Math.max(this.streamEnd, seq + message.info.pending);
    if (this.stalled !== null) return;
    const kind = parseSubject(message.subject)?.kind;
    // A kind a newer build writes: skipping it would leave this node's store
    // unlike the others, so it stops applying here (and is not ready) instead.
    if (kind !== undefined && kind !== "events" && !isWriteKind(kind)) {
      return this.stall(`which is of a kind this build cannot apply ("${kind}")`);
    }
    const id = message.headers?.get("Nats-Msg-Id") ?? "";
    let applied: Promise<unknown>;
    try {
      applied = this.apply(message, onApplied);
    } catch (error) {
      applied = Promise.reject(error);
    }
    this.inFlight++;
    this.tail = this.tail
      .then(() => applied)
      .then(
        (result) => this.waiters.get(id)?.resolve(result),
        (error: unknown) => {
          const waiter = this.waiters.get(id);
          // Every node fails the same write the same way (e.g. a merchant id taken): its place moves on past it.
          if (waiter) waiter.reject(error);
          else
            this.log.warn("a write from the stream failed here as on its node; skipped", {
              seq,
              subject: message.subject,
              error: String(error),
            });
        },
      )
      .then(() => this.advance(seq));
  }

  private apply(message: JsMsg, onApplied: AppliedListener): Promise<unknown> {
    const seq = message.seq;
    const subject = parseSubject(message.subject);
    if (subject === null) return settledAlready;
    // Each environment's place moves past the other's messages too, so that a
    // node which saw only events (or no events) for a while does not start far
    // back. Messages are applied in stream order and each environment commits
    // its writes in the order they are made, so a place put now commits only
    // after every earlier message's writes in that environment.
    if (subject.kind === "events") {
      // At most every second: on the main environment it is a commit of its own.
      if (seq > this.startedFrom.main && Date.now() - this.mainPlaceNotedAt >= NOTE_MAIN_PLACE_EVERY_MS) {
        this.store.streamWatermarks.noteMain(seq);
        this.mainPlaceNotedAt = Date.now();
      }
      if (seq <= this.startedFrom.log) return settledAlready;
      return this.events!.logConsumed(subject.merchant, message.json<BehaviourEvent[]>(), seq);
    }
    if (seq > this.startedFrom.log) void this.store.streamWatermarks.noteLog(seq);
    if (seq <= this.startedFrom.main) return settledAlready;
    const write = { merchant: subject.merchant, kind: subject.kind as WriteKind, payload: message.json() } as WriteCommand;
    // applyWrite begins its transaction before it returns, so the watermark put
    // in the same turn joins the same commit.
    const written = applyWrite(this.store, write);
    this.store.streamWatermarks.noteMain(seq);
    return written.then((result) => {
      onApplied(write);
      return result;
    });
  }

  private stall(reason: string): void {
    this.stalled = reason;
    this.log.error("stopped applying the write stream", { reason });
    this.closed = true;
    void this.messages?.close();
  }

  private advance(seq: number): void {
    this.inFlight--;
    this.applied = seq;
    this.appliedTotal++;
    this.noteLag();
    this.sequenceWaiters.reached(seq);
  }

  private noteLag(): void {
    if (this.applied >= this.streamEnd) this.behindSince = null;
    else this.behindSince ??= Date.now();
  }

  private async readStreamEnd(): Promise<void> {
    try {
      const info = await this.manager.streams.info(STREAM_NAME);
      this.streamEnd = Math.max(this.streamEnd, info.state.last_seq);
      this.noteLag();
    } catch {
      // Disconnected: the lag is known again once a server answers.
    }
    this.restartIfSilent();
  }

  /** Ends the consumer's messages when it delivers nothing while the stream has more: consume() then makes a new consumer. */
  private restartIfSilent(): void {
    const silent = this.inFlight === 0 && this.applied < this.streamEnd && Date.now() - this.lastDeliveryAt >= SILENT_CONSUMER_MS;
    if (!silent || this.messages === null || this.closed) return;
    this.log.warn("the write stream's consumer delivers nothing while the stream has more; reading on from the last applied message", {
      applied: this.applied,
      streamEnd: this.streamEnd,
    });
    this.lastDeliveryAt = Date.now();
    this.messages.stop();
  }
}
