// The one JetStream stream every write of a cluster goes through, and the
// settings it is held to. A node creates it when it is missing and puts these
// settings back when they differ, so the stream is what this file says.
import {
  DiscardPolicy,
  RetentionPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  StorageType,
  type JetStreamManager,
  type StreamConfig,
  type StreamInfo,
} from "@nats-io/jetstream";
import type { MerchantId } from "../core/types.js";
import { worthAskingAgain } from "./servers.js";

export const STREAM_NAME = "AISLE";

/** Every write's subject: `aisle.<merchant>.<kind>`; merchant ids and kinds hold no dot or wildcard. */
export function subjectOf(merchant: MerchantId, kind: string): string {
  return `aisle.${merchant}.${kind}`;
}

/** The merchant and kind a subject names; null for one this build does not write. */
export function parseSubject(subject: string): { merchant: MerchantId; kind: string } | null {
  const parts = subject.split(".");
  return parts.length === 3 && parts[0] === "aisle" ? { merchant: parts[1]!, kind: parts[2]! } : null;
}

/** A publish that is sent again with the same message id within this window is stored once. */
export const DUPLICATE_WINDOW_MS = 120_000;

const NANOS_PER_MS = 1_000_000;

/**
 * The settings the cluster relies on:
 * - file storage: messages survive a restart of every server (memory storage would not);
 * - limits retention: messages stay for every node to read, however many read them
 *   (interest or work-queue retention would delete a message once consumed);
 * - max age = the event retention: a node that has been away longer, or a new one,
 *   starts from a snapshot (no message count or size limit, so age alone removes messages);
 * - discard old: what ages out is dropped, and a write is never refused for room;
 * - replicas: 3 on a 3-server cluster, so a write acknowledged by the stream
 *   is held by a majority of servers and survives the loss of any one;
 * - the duplicate window: a publish retried with the same message id is stored once.
 */
export function streamConfig(replicas: number, retentionDays: number): Partial<StreamConfig> & { name: string } {
  return {
    name: STREAM_NAME,
    subjects: ["aisle.>"],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    max_age: retentionDays * 86_400_000 * NANOS_PER_MS,
    max_msgs: -1,
    max_bytes: -1,
    discard: DiscardPolicy.Old,
    num_replicas: replicas,
    duplicate_window: DUPLICATE_WINDOW_MS * NANOS_PER_MS,
  };
}

/** Why a data dir of another write stream is not served: its places mean nothing in this one. */
export function otherStream(joined: string, created: string): string {
  return (
    `this data dir holds its place in a write stream created ${joined}, and the servers' stream was created ${created} ` +
    "(another cluster, or the stream deleted and made anew): start the node on an empty data dir"
  );
}

/** The stream's first and last sequence, and when it was created: what tells it from a stream of the same name made anew. */
export interface StreamPlace {
  firstSeq: number;
  lastSeq: number;
  /** As JetStream reports it (an RFC 3339 time). */
  created: string;
}

/** Creates the stream, or puts its settings back to `streamConfig`'s; the first and last sequence it holds. */
export async function ensureStream(manager: JetStreamManager, replicas: number, retentionDays: number): Promise<StreamPlace> {
  const config = streamConfig(replicas, retentionDays);
  let info: StreamInfo | null;
  try {
    info = await manager.streams.info(STREAM_NAME);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error;
    info = null;
  }
  info ??= await manager.streams.add(config).catch((error: unknown) => {
    // Refused, not unanswered: a setting to fix, not a moment to wait out. (More replicas than servers
    // reads as servers not all known yet, and is asked again until the start's deadline.)
    if (error instanceof JetStreamApiError && !worthAskingAgain(error)) {
      throw new Error(
        `creating the write stream with ${replicas} replicas failed (${error.message}): is AISLE_NATS_REPLICAS more than the nats-servers?`,
      );
    }
    throw error;
  });
  const held = info.config;
  const differs = (Object.keys(config) as (keyof typeof config)[]).some((key) => JSON.stringify(held[key]) !== JSON.stringify(config[key]));
  if (differs) info = await manager.streams.update(STREAM_NAME, config);
  return { firstSeq: info.state.first_seq, lastSeq: info.state.last_seq, created: info.created };
}
