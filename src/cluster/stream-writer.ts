// How a write command reaches the cluster's stream. `publishWrite` is the one
// publish of a write: a node's admin and webhook writes go through it, and so
// do the command line's (`aisle import --nats`, `aisle merchants add --nats`),
// which publish through a `StreamWriter`: a connection that only publishes,
// with no data dir behind it. Every node then applies those writes from the
// stream as it applies its own.
import {
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { randomUUID } from "node:crypto";
import type { MerchantId } from "../core/types.js";
import type { WriteCommand } from "../ingest/write-commands.js";
import { AlreadyExistsError } from "../stores/catalogue-store.js";
import { DUPLICATE_WINDOW_MS, STREAM_NAME, subjectOf } from "./stream.js";
import { WriteTooLargeForStream } from "./write-too-large.js";

/** A publish not acknowledged within this long has failed (a node answers its client 503). */
export const PUBLISH_TIMEOUT_MS = 5_000;

/**
 * Publishes the write on its subject under the message id `id`, and resolves
 * with its stream sequence once the stream has acknowledged it. Published
 * again with the same id within the duplicate window, it is stored once and
 * acknowledged with the first one's sequence. A payload over
 * `maxPayloadBytes` is refused (WriteTooLargeForStream) before anything is sent.
 */
export async function publishWrite(
  stream: JetStreamClient,
  write: WriteCommand,
  id: string,
  maxPayloadBytes = Number.POSITIVE_INFINITY,
): Promise<number> {
  const payload = JSON.stringify(write.payload);
  const bytes = Buffer.byteLength(payload);
  if (bytes > maxPayloadBytes) throw new WriteTooLargeForStream(bytes, maxPayloadBytes);
  try {
    const ack = await stream.publish(subjectOf(write.merchant, write.kind), payload, {
      msgID: id,
      timeout: PUBLISH_TIMEOUT_MS,
      // A merchant's creation is the only message of its subject: two racing
      // creations of one id (on two nodes, or two commands) cannot both be
      // stored, where checking first would let both through.
      ...(write.kind === "merchant" ? { expect: { lastSubjectSequence: 0 } } : {}),
    });
    return ack.seq;
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === WRONG_LAST_SEQUENCE) {
      throw new AlreadyExistsError(`Merchant ${write.merchant} already exists`);
    }
    throw error;
  }
}

/** JetStream's refusal of a publish whose expected last sequence does not hold. */
const WRONG_LAST_SEQUENCE = 10071;

/** The servers' max_payload counts the headers too (the message id): this much of it is left to them. */
const HEADER_ROOM_BYTES = 1_024;

/** The payload bytes a message of this connection may carry: the servers' max_payload, less room for the headers. */
export function maxPayloadOf(connection: NatsConnection): number {
  // No server info on a closed connection: no bound here, and the publish fails as the connection does (a 503).
  const info = connection.info;
  return info === undefined ? Number.POSITIVE_INFINITY : info.max_payload - HEADER_ROOM_BYTES;
}

/** Why the command line could not write to the stream, said to the operator instead of a stack trace. */
export class StreamWriteError extends Error {}

/** Messages awaiting their acknowledgement at once: the stream stays busy while memory holds a few MB at most. */
const IN_FLIGHT = 8;
/**
 * A message the stream does not acknowledge (a timeout, no leader for the
 * moment) is sent again under its id for this long after its first try: well
 * within the duplicate window, so one that was stored after all is stored once.
 */
const RETRY_WITHIN_MS = DUPLICATE_WINDOW_MS / 2;
const RETRY_PAUSE_MS = 500;
/** JetStream API requests (the stream's info) wait this long for an answer. */
const API_TIMEOUT_MS = 10_000;

/** A refusal (the stream answered no) is final; anything else, from a timeout to a lost connection, may pass. */
function refused(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.status !== 503;
}

/** JetStream did not answer a question about the stream (no leader for the moment, a timeout): worth asking again soon. */
function unanswered(urls: string, error: unknown): StreamWriteError {
  return new StreamWriteError(`the write stream on ${urls} did not answer (${(error as Error).message}): try again shortly`);
}

export class StreamWriter {
  private readonly stream: JetStreamClient;

  private constructor(
    private readonly urls: string,
    private readonly connection: NatsConnection,
    private readonly manager: JetStreamManager,
  ) {
    this.stream = jetstream(connection);
  }

  /** Connects to the servers and finds the stream, which a node creates: the command line never does, nor changes its settings. */
  static async connect(urls: string): Promise<StreamWriter> {
    let connection: NatsConnection;
    try {
      connection = await connect({ servers: urls.split(","), name: "aisle-cli", maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    } catch (error) {
      throw new StreamWriteError(`cannot reach the nats-servers at ${urls} (${(error as Error).message})`);
    }
    try {
      const manager = await jetstreamManager(connection, { timeout: API_TIMEOUT_MS, checkAPI: false });
      await manager.streams.info(STREAM_NAME).catch((error: unknown) => {
        if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) {
          throw new StreamWriteError(
            `the nats-servers at ${urls} hold no stream ${STREAM_NAME}: start an aisle node on them first, which creates it`,
          );
        }
        throw unanswered(urls, error);
      });
      return new StreamWriter(urls, connection, manager);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  /** The most a write's JSON may take in one message on these servers. */
  get maxPayloadBytes(): number {
    return maxPayloadOf(this.connection);
  }

  /**
   * Whether the stream holds any message of the merchant: its creation, a
   * write, events. A merchant created longer ago than the stream keeps
   * messages, and silent since, has none left.
   */
  async holdsMerchant(merchant: MerchantId): Promise<boolean> {
    const info = await this.manager.streams.info(STREAM_NAME, { subjects_filter: subjectOf(merchant, ">") }).catch((error: unknown) => {
      throw unanswered(this.urls, error);
    });
    return Object.keys(info.state.subjects ?? {}).length > 0;
  }

  /**
   * Publishes the writes in order and resolves with the last one's sequence
   * once the stream has acknowledged every one. Up to IN_FLIGHT are published
   * at once within a run of one kind; a run starts once the one before it is
   * acknowledged whole, so that what a write refers to (the products of
   * collections and orders) is in the stream before it.
   */
  async publish(writes: readonly WriteCommand[], onAcknowledged: (index: number) => void): Promise<number> {
    let last = 0;
    let acknowledged = 0;
    let failure: unknown = null;
    for (const run of runsOfOneKind(writes)) {
      let next = run.start;
      const publisher = async () => {
        // After a failure nothing more is sent: what follows may depend on it.
        while (failure === null && next < run.end) {
          const index = next++;
          try {
            last = Math.max(last, await this.publishOne(writes[index]!));
            acknowledged++;
            onAcknowledged(index);
          } catch (error) {
            failure ??= error;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, run.end - run.start) }, publisher));
      if (failure !== null) {
        // Refused for what the stream holds, not for the stream: said as a single box says it.
        if (failure instanceof AlreadyExistsError) throw failure;
        const done = acknowledged === 0 ? "none" : `${acknowledged} (through sequence ${last})`;
        throw new StreamWriteError(
          `the write stream acknowledged ${done} of ${writes.length} messages, then failed (${(failure as Error).message}); ` +
            "what it acknowledged stays, and every node applies it",
        );
      }
    }
    return last;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  private async publishOne(write: WriteCommand): Promise<number> {
    const id = randomUUID();
    const giveUpAt = Date.now() + RETRY_WITHIN_MS;
    for (;;) {
      try {
        return await publishWrite(this.stream, write, id, this.maxPayloadBytes);
      } catch (error) {
        if (refused(error) || error instanceof AlreadyExistsError || error instanceof WriteTooLargeForStream || Date.now() > giveUpAt)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      }
    }
  }
}

/** The writes cut where their kind changes, as index ranges, in their order. */
function runsOfOneKind(writes: readonly WriteCommand[]): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  writes.forEach((write, index) => {
    const run = runs.at(-1);
    if (run && writes[run.start]!.kind === write.kind) run.end = index + 1;
    else runs.push({ start: index, end: index + 1 });
  });
  return runs;
}
